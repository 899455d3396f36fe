import BoothCore
import BoothImaging
import Foundation
import GRDB
import Testing

@testable import BoothStore

@Suite("Hidden photos")
struct HiddenPhotoTests {
    @Test("A hidden photo is out of every guest query, and back when unhidden")
    func hideAndUnhide() throws {
        let fixture = try LibraryFixture()
        let old = try fixture.add(caption: "old", secondsAgo: 20)
        let secret = try fixture.add(caption: "secret", secondsAgo: 10)
        let new = try fixture.add(caption: "new")
        try fixture.library.setHidden(true, of: secret.id)

        #expect(try fixture.library.gallery.photos().map(\.id) == [new.id, old.id])
        #expect(try fixture.library.gallery.photos(skipping: 1, limit: 1).map(\.id) == [old.id])
        #expect(try fixture.library.gallery.count() == 2)
        #expect(try fixture.library.gallery.photo(id: secret.id) == nil)
        #expect(try fixture.library.gallery.thumbnail(of: secret.id) == nil)
        #expect(try fixture.library.gallery.position(of: old) == 1, "the hidden photo does not push others to a later page")

        #expect(try fixture.library.gallery.photos(includingHidden: true).map(\.id) == [new.id, secret.id, old.id])
        #expect(try fixture.library.gallery.count(includingHidden: true) == 3)
        #expect(try fixture.library.gallery.photo(id: secret.id, includingHidden: true) == secret)
        #expect(try fixture.library.gallery.thumbnail(of: secret.id, includingHidden: true) != nil)
        #expect(try fixture.library.gallery.hiddenPhotos().map(\.id) == [secret.id], "the operator finds what to unhide")

        try fixture.library.setHidden(false, of: secret.id)
        #expect(try fixture.library.gallery.photos().map(\.id) == [new.id, secret.id, old.id])
        #expect(try fixture.library.gallery.hiddenPhotos().isEmpty)
        #expect(try fixture.library.gallery.position(of: old) == 2)
        #expect(throws: LibraryError.unknownPhoto) { try fixture.library.setHidden(true, of: UUID()) }
    }

    @Test("A hidden photo is consistent: check is clean and reconciliation leaves it alone")
    func hiddenIsConsistent() throws {
        let fixture = try LibraryFixture()
        let photo = try fixture.add()
        try fixture.library.setHidden(true, of: photo.id)
        #expect(try fixture.library.maintenance.reconcile().isEmpty)
        let report = try fixture.library.maintenance.check()
        #expect(report.isClean, "\(report.problems)")
        #expect(report.photoCount == 1)
    }

    @Test(
        "Guest pages and counts read the partial index of visible photos, never sorting, also in a catalog with rows that are no photo",
        arguments: [false, true])
    func visiblePageUsesPartialIndex(withMalformedRows: Bool) throws {
        let fixture = try LibraryFixture()
        var library = fixture.library
        if withMalformedRows {
            let photo = try fixture.add()
            try library.catalog.database.write { db in try db.execute(sql: "UPDATE photo SET id = 'x' WHERE id = ?", arguments: [photo.id.lowercased])
            }
            library = try LibraryFixture.open(fixture.directory)
        }
        let gallery = library.gallery
        #expect(try LibraryFixture.sql(of: gallery.shown(), in: library).contains(PhotoRecord.wellFormedID) == withMalformedRows)
        let page = try LibraryFixture.plan(of: gallery.shown().newestFirst().limit(30, offset: 9000), in: library)
        #expect(page.contains { $0.contains("photo_visible_newest_first") }, "plan: \(page)")
        #expect(!page.contains { $0.contains("TEMP B-TREE") }, "plan: \(page)")

        let count = try LibraryFixture.plan(of: gallery.shown().select(literal: "COUNT(*)"), in: library)
        #expect(count.contains { $0.contains("photo_visible_newest_first") }, "plan: \(count)")

        let everything = try LibraryFixture.plan(of: gallery.shown(includingHidden: true).newestFirst().limit(30), in: library)
        #expect(everything.contains { $0.contains("photo_newest_first") }, "plan: \(everything)")
        #expect(!everything.contains { $0.contains("TEMP B-TREE") }, "plan: \(everything)")

        let favourites = try LibraryFixture.plan(of: gallery.shown().favourites().newestFirst().limit(30), in: library)
        #expect(favourites.contains { $0.contains("photo_visible_favourites") }, "plan: \(favourites)")
        let named = try LibraryFixture.plan(of: gallery.shown().named("anna").newestFirst().limit(30), in: library)
        #expect(named.contains { $0.contains("photo_visible_by_name") }, "plan: \(named)")
    }

    @Test("A library made before hidden photos existed opens with all its photos visible")
    func migrationFromV2() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("photobooth-v2-\(UUID().lowercased)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: directory.appendingPathComponent(PhotoLibrary.catalogName).path)
        try LibrarySchema.migrator.migrate(queue, upTo: "v2: newest-first index")
        let id = UUID()
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO photo (id, number, caption, created_at, thumbnail, width, height, byte_count, file)
                    VALUES (?, 1, 'Before', '2026-01-02T03:04:05.678Z', x'FFD8', 320, 240, 1000, 'photos/2026/01/02/x.jpg')
                    """,
                arguments: [id.lowercased])
        }
        try queue.close()

        let library = try LibraryFixture.open(directory, create: false)
        #expect(try library.gallery.photos().map(\.id) == [id])
        #expect(try library.gallery.count() == 1)
    }
}
