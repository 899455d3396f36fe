import BoothCore
import BoothImaging
import Foundation
import GRDB
import Logging
import Testing

@testable import BoothStore

@Suite("Finding photos: search, albums, favourites, near-duplicates")
struct FindingTests {
    @Test("Search finds names whatever their case and accents, every word, as starts of words")
    func searchFoldsCaseAndAccents() throws {
        let fixture = try LibraryFixture()
        try fixture.add(caption: "Zoë", secondsAgo: 40)
        try fixture.add(caption: "anna & ben", secondsAgo: 30)
        try fixture.add(caption: "Ben Ünal", secondsAgo: 20)
        try fixture.add(caption: "Familie Strauß", secondsAgo: 15)
        try fixture.add(secondsAgo: 10)
        let library = fixture.library
        func names(_ text: String) throws -> [String] { try library.gallery.photos(.search(text)).map(\.caption.text) }
        #expect(try names("zoe") == ["Zoë"])
        #expect(try names("ZOË") == ["Zoë"])
        #expect(try names("ANNA") == ["anna & ben"])
        #expect(try names("ben") == ["Ben Ünal", "anna & ben"], "newest first")
        #expect(try names("ben unal") == ["Ben Ünal"], "every word must be there")
        #expect(try names("an") == ["anna & ben"], "a word typed is the start of a word of the name")
        #expect(try names("photo") == ["Photo 5"], "placeholders are names too")
        #expect(try names("nobody").isEmpty)
        #expect(try names("strauss") == ["Familie Strauß"], "ß is folded as the album folds it, not kept as SQLite keeps it")
        #expect(try names("STRAUß") == ["Familie Strauß"])
        #expect(try names("ｚｏｅ") == ["Zoë"], "full-width letters are the letters")
        #expect(try names(" & \"* ").isEmpty, "no word, no operator: nothing found, no error")
        #expect(try names("an\"d OR *").isEmpty, "quotes and FTS5 operators are words like any other")
        #expect(try library.gallery.count(.search("ben")) == 2)
    }

    @Test("Search pages like the gallery, and follows renames, hiding and deletion")
    func searchPagesAndFollowsChanges() throws {
        let fixture = try LibraryFixture()
        var photos: [Photo] = []
        for index in 0..<7 { photos.append(try fixture.add(caption: "Team \(index)", secondsAgo: Double(100 - index))) }
        let library = fixture.library
        let pages = try (0..<3).map { page in try library.gallery.photos(.search("team"), skipping: page * 3, limit: 3).map(\.caption.text) }
        #expect(pages == [["Team 6", "Team 5", "Team 4"], ["Team 3", "Team 2", "Team 1"], ["Team 0"]])
        try library.setCaption(Caption(sanitizing: "Élodie")!, of: photos[6].id)
        try library.setHidden(true, of: photos[5].id)
        _ = try library.recycle(photos[4].id)
        #expect(try library.gallery.photos(.search("team"), limit: 2).map(\.caption.text) == ["Team 3", "Team 2"])
        #expect(try library.gallery.photos(.search("elodie")).map(\.id) == [photos[6].id])
        #expect(try library.gallery.photos(.search("team"), includingHidden: true).count == 5)
    }

    @Test("One album per name, compared as search compares; one per day; one of favourites")
    func albums() throws {
        let fixture = try LibraryFixture()
        let first = try fixture.add(caption: "Alice", secondsAgo: 50)
        try fixture.add(caption: "alice", secondsAgo: 40)
        let newest = try fixture.add(caption: "ALICE ", secondsAgo: 30)
        try fixture.add(caption: "Bob", secondsAgo: 20)
        try fixture.add(secondsAgo: 10)
        let library = fixture.library
        try library.setFavourite(true, of: first.id)
        let albums = try library.gallery.albums()
        let names = albums.filter { $0.kind == .name }
        #expect(names.map(\.key) == ["alice", "bob"], "the placeholder \"Photo 5\" is nobody's album")
        #expect(names.map(\.count) == [3, 1])
        #expect(names[0].title == "ALICE" && names[0].cover == newest.id, "as often as the others: the newest photo's spelling")
        #expect(try library.gallery.photos(.name("Alice")).count == 3)
        let days = albums.filter { $0.kind == .day }
        #expect(days.map(\.count).reduce(0, +) == 5)
        #expect(try days.allSatisfy { try library.gallery.count($0.query) == $0.count })
        let favourites = try #require(albums.first)
        #expect(favourites.kind == .favourites && favourites.count == 1 && favourites.cover == first.id)
        #expect(try library.gallery.photos(.favourites).map(\.id) == [first.id])
        try library.setFavourite(false, of: first.id)
        #expect(try library.gallery.albums().allSatisfy { $0.kind != .favourites }, "no favourite, no album")
        #expect(try library.gallery.photos(.day("not a day")).isEmpty)
    }

    @Test("A name's album is titled as most of its photos spell the name, not as the newest does")
    func albumTitle() throws {
        let fixture = try LibraryFixture()
        for (caption, age) in [("Alice", 90.0), ("ALICE ", 80), ("Alice", 70), ("alice", 60), ("Alice", 50), ("ALICE ", 40)] {
            try fixture.add(caption: caption, secondsAgo: age)
        }
        let newest = try fixture.add(caption: "alice", secondsAgo: 30)
        let album = try #require(try fixture.library.gallery.albums().first { $0.kind == .name })
        #expect(album.title == "Alice" && album.count == 7)
        #expect(album.cover == newest.id, "the cover is still the newest photo")
        for photo in try fixture.library.gallery.photos(.search("alice")) where photo.caption.text == "Alice" {
            try fixture.library.setHidden(true, of: photo.id)
        }
        #expect(
            try fixture.library.gallery.albums().first { $0.kind == .name }?.title == "alice",
            "hidden photos do not count, and of two spellings used twice the newest wins")
    }

    @Test("A favourite is in the photo, its sidecar, and a catalog rebuilt from sidecars")
    func favouriteSurvivesRebuild() throws {
        let fixture = try LibraryFixture()
        let photo = try fixture.add(caption: "Best")
        try fixture.library.setFavourite(true, of: photo.id)
        #expect(try fixture.library.gallery.photo(id: photo.id)?.favourite == true)
        let sidecar = try #require(PhotoSidecar(xmp: try Data(contentsOf: fixture.library.sidecarURL(of: photo))))
        #expect(sidecar.favourite)
        #expect(String(decoding: sidecar.xmp, as: UTF8.self).contains("xmp:Rating=\"5\""), "photo tools see five stars")
        fixture.library.close()
        _ = try LibraryMaintenance.rebuildCatalog(in: fixture.directory, thumbnailer: JPEGThumbnailer(), logger: Logger(label: "test"))
        let reopened = try LibraryFixture.open(fixture.directory)
        #expect(try reopened.gallery.photo(id: photo.id)?.favourite == true)
        #expect(try reopened.gallery.photos(.search("best")).map(\.id) == [photo.id], "the search index is rebuilt with the catalog")
    }

    @Test("The gallery jumps to the newest photo whose name starts with what was typed")
    func jumpToName() throws {
        let fixture = try LibraryFixture()
        try fixture.add(caption: "Zoë", secondsAgo: 40)
        try fixture.add(caption: "Anna", secondsAgo: 30)
        try fixture.add(caption: "zora", secondsAgo: 20)
        try fixture.add(secondsAgo: 10)
        let library = fixture.library
        #expect(try library.gallery.position(ofNameStartingWith: "Z") == 1)
        #expect(try library.gallery.position(ofNameStartingWith: "zoe") == 3)
        #expect(try library.gallery.position(ofNameStartingWith: "a") == 2)
        #expect(try library.gallery.position(ofNameStartingWith: "p") == nil, "placeholders are nobody's name")
        #expect(try library.gallery.position(ofNameStartingWith: "x") == nil)
    }

    @Test("Near-duplicates are groups of photos within the distance, singles left out")
    func duplicateGroups() throws {
        let fixture = try LibraryFixture()
        let library = fixture.library
        let burst = try (0..<3).map { try fixture.add(caption: "Burst \($0)", secondsAgo: Double(50 - $0)) }
        let other = try fixture.add(caption: "Other", secondsAgo: 10)
        let unhashed = try fixture.add(caption: "New", secondsAgo: 5)
        let base: UInt64 = 0xF0F0_1234_ABCD_0F0F
        // 0 and 1 differ by 3 bits, 1 and 2 by 3 more: one group by single linkage.
        try library.maintenance.setPerceptualHash(base, of: burst[0].id)
        try library.maintenance.setPerceptualHash(base ^ 0b111, of: burst[1].id)
        try library.maintenance.setPerceptualHash(base ^ 0b111_111, of: burst[2].id)
        try library.maintenance.setPerceptualHash(~base, of: other.id)
        #expect(try library.maintenance.photosWithoutPerceptualHash(limit: 10).map(\.id) == [unhashed.id])
        #expect(try library.gallery.perceptualHash(of: burst[1].id) == base ^ 0b111)
        let groups = try library.gallery.duplicateGroups(maxDistance: 4)
        #expect(groups.map { $0.map(\.id) } == [[burst[2].id, burst[1].id, burst[0].id]])
        #expect(try library.gallery.duplicateGroups(maxDistance: 2).isEmpty)
        try library.setHidden(true, of: burst[1].id)
        #expect(try library.gallery.duplicateGroups(maxDistance: 4).isEmpty, "hidden photos are not shown as duplicates")
    }

    /// What migrations v7 and v8 add (and v9, after them), taken away: the catalog as a booth of before search left it.
    static let toVersion6 =
        StartupTests.toVersion8 + """
            DROP TRIGGER photo_search_insert; DROP TRIGGER photo_search_delete; DROP TRIGGER photo_search_update;
            DROP TABLE photo_search; DROP INDEX photo_visible_by_name; DROP INDEX photo_visible_favourites;
            ALTER TABLE photo DROP COLUMN name_key; ALTER TABLE photo DROP COLUMN search_text;
            ALTER TABLE photo DROP COLUMN favourite;
            ALTER TABLE photo DROP COLUMN perceptual_hash;
            DELETE FROM grdb_migrations WHERE identifier LIKE 'v7%' OR identifier LIKE 'v8%';
            """

    @Test("A catalog of before search opened by several processes at once is brought up to date once, and every one opens it")
    func concurrentMigration() async throws {
        let fixture = try LibraryFixture()
        _ = try fixture.add(caption: "Zoë")
        fixture.library.close()
        let directory = fixture.directory
        let catalog = try DatabaseQueue(path: fixture.url(PhotoLibrary.catalogName).path)
        try await catalog.write { db in
            try db.execute(sql: Self.toVersion6)
            // Thousands of rows, so that the migration lasts long enough for every opener to read
            // "up to v6" before the first has committed v7, as a booth and `list` started together do.
            try db.execute(
                sql: """
                    WITH RECURSIVE n(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM n WHERE i < 4000)
                    INSERT INTO photo (id, number, caption, created_at, thumbnail, width, height, byte_count, file, hidden, booth)
                    SELECT printf('%08x-0000-4000-8000-%012x', i, i), i, 'Guest ' || i, created_at, thumbnail, width, height,
                        byte_count, 'photos/copy-' || i || '.jpg', hidden, booth
                    FROM photo, n
                    """)
        }
        try catalog.close()
        let (failures, sink) = AsyncStream.makeStream(of: String?.self)
        let openers = 4
        for _ in 0..<openers {
            // Each on a thread of its own, as processes would: opening blocks.
            Thread {
                do {
                    try LibraryFixture.open(directory).close()
                    sink.yield(nil)
                } catch {
                    sink.yield("\(error)")
                }
            }.start()
        }
        var errors: [String] = []
        for await failure in failures.prefix(openers) {
            if let failure { errors.append(failure) }
        }
        #expect(errors.isEmpty, "\(errors)")
        let library = try LibraryFixture.open(directory)
        #expect(try library.gallery.photos(.search("guest")).count > 0)
        #expect(try library.gallery.photos(.search("zoe")).count == 1)
    }

    @Test("A catalog of before search gets names, index and columns when it is opened")
    func migrationFromVersion6() throws {
        let fixture = try LibraryFixture()
        let photo = try fixture.add(caption: "Zoë")
        let placeholder = try fixture.add()
        fixture.library.close()
        // Take the catalog back to version 6 as an older booth left it.
        let catalog = try DatabaseQueue(path: fixture.url(PhotoLibrary.catalogName).path)
        try catalog.write { db in try db.execute(sql: Self.toVersion6) }
        try catalog.close()
        let library = try LibraryFixture.open(fixture.directory)
        #expect(try library.gallery.photos(.search("zoe")).map(\.id) == [photo.id])
        #expect(try library.gallery.albums().filter { $0.kind == .name }.map(\.key) == ["zoe"])
        #expect(try library.maintenance.photosWithoutPerceptualHash(limit: 10).map(\.id) == [photo.id, placeholder.id])
    }

    @Test("Names folded before NameKey stripped every mark are folded again when the catalog is opened")
    func migrationFromVersion7() throws {
        let fixture = try LibraryFixture()
        // Devanagari's virama is a mark Foundation's folding keeps, and NameKey now strips.
        let photo = try fixture.add(caption: "क्षत्रिय")
        fixture.library.close()
        let catalog = try DatabaseQueue(path: fixture.url(PhotoLibrary.catalogName).path)
        try catalog.write { db in
            try db.execute(sql: "UPDATE photo SET name_key = 'क्षत्रिय', search_text = 'क्षत्रिय'")
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier LIKE 'v8%'")
        }
        try catalog.close()
        let library = try LibraryFixture.open(fixture.directory)
        let key = NameKey.fold("क्षत्रिय")
        #expect(key != "क्षत्रिय")
        #expect(try library.gallery.albums().filter { $0.kind == .name }.map(\.key) == [key])
        #expect(try library.gallery.photos(.name(key)).map(\.id) == [photo.id])
    }
}
