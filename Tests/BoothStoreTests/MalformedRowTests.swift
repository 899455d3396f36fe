import BoothCore
import Foundation
import GRDB
import Testing

@testable import BoothStore

/// Catalog rows whose id is not a photo id: what a hand edit of the catalog, or damage SQLite's
/// own check does not see, leaves behind. They are never given a made-up id.
@Suite("Catalog rows without a photo id")
struct MalformedRowTests {
    /// An id that is hexadecimal, so that it would match a short reference, but no UUID.
    static let garbage = "abcdef0123"

    /// A library of six photos, a second apart, the third newest hidden, in which the row of the
    /// second newest has the id `garbage` and that of the fifth its own id in capitals (a UUID,
    /// but not as the catalog writes it), in the sync outbox too. Returns the fixture, the photos newest first, and the
    /// library opened afresh (as the booth or a command opens it).
    func damagedLibrary() throws -> (LibraryFixture, [Photo], PhotoLibrary) {
        let fixture = try LibraryFixture()
        let photos = try (0..<6).map { try fixture.add(caption: "Photo \($0)", secondsAgo: Double(6 - $0)) }.reversed().map { $0 }
        try fixture.library.setHidden(true, of: photos[2].id)
        try fixture.library.catalog.database.write { db in
            for (table, column) in [("photo", "id"), ("sync_outbox", "photo_id")] {
                try db.execute(sql: "UPDATE \(table) SET \(column) = ? WHERE \(column) = ?", arguments: [Self.garbage, photos[1].id.lowercased])
                try db.execute(sql: "UPDATE \(table) SET \(column) = upper(\(column)) WHERE \(column) = ?", arguments: [photos[4].id.lowercased])
            }
        }
        return (fixture, photos, try LibraryFixture.open(fixture.directory))
    }

    @Test("Listings, pages, counts and positions leave such rows out alike")
    func leftOutAlike() throws {
        let (_, photos, library) = try damagedLibrary()
        let visible = [photos[0], photos[3], photos[5]]
        #expect(try library.gallery.count() == 3)
        #expect(try library.gallery.count(includingHidden: true) == 4)
        #expect(try library.gallery.photos() == visible)
        #expect(try library.gallery.photos(includingHidden: true) == [photos[0], photos[2], photos[3], photos[5]])
        #expect(try library.gallery.hiddenPhotos() == [photos[2]])
        // Page by page, the pages make up the list the count announces.
        let pages = try stride(from: 0, to: library.gallery.count(), by: 2).flatMap { try library.gallery.photos(skipping: $0, limit: 2) }
        #expect(pages == visible)
        for (index, photo) in visible.enumerated() {
            #expect(try library.gallery.position(of: photo) == index)
        }
        #expect(try library.gallery.photos(skipping: 3, limit: 2).isEmpty)
        // Reading again gives the same ids: nothing is made up on the way.
        #expect(try library.gallery.photos(includingHidden: true).map(\.id) == library.gallery.photos(includingHidden: true).map(\.id))
        #expect(throws: LibraryError.unknownPhoto) { try library.gallery.photo(matching: "abcdef") }
        #expect(try library.gallery.photo(id: photos[4].id, includingHidden: true) == nil)
    }

    @Test("A library opened before the row went bad fails loudly rather than making up an id")
    func failsLoudly() throws {
        let fixture = try LibraryFixture()
        let photo = try fixture.add()
        try fixture.library.catalog.database.write { db in
            try db.execute(sql: "UPDATE photo SET id = ? WHERE id = ?", arguments: [Self.garbage, photo.id.lowercased])
        }
        let error = #expect(throws: LibraryError.self) { try fixture.library.gallery.photos() }
        #expect(error?.code == .databaseFailure)
        #expect(
            error?.description.contains("\(photo.file) has the id \"\(Self.garbage)\", which is not a photo id") == true,
            "\(String(describing: error))")
    }

    @Test("check names the row, where it is and what to do; the start leaves it and its sidecar alone")
    func reported() throws {
        let (fixture, photos, library) = try damagedLibrary()
        let sidecars = try [photos[1], photos[4]].map { try Data(contentsOf: fixture.library.sidecarURL(of: $0)) }
        #expect(try library.maintenance.reconcile().isEmpty)
        #expect(try [photos[1], photos[4]].map { try Data(contentsOf: fixture.library.sidecarURL(of: $0)) } == sidecars)

        let report = try library.maintenance.check()
        #expect(report.photoCount == 4, "the photos that lists show")
        let rows = report.problems.compactMap { problem -> LibraryReport.MalformedRow? in
            if case .malformedRow(let row) = problem { row } else { nil }
        }
        #expect(rows.map(\.file) == [photos[1].file, photos[4].file].sorted())
        #expect(report.problems.count == 2, "the originals are not reported again as unrecorded: \(report.problems)")
        let garbled = try #require(rows.first { $0.file == photos[1].file })
        #expect(garbled.id == Self.garbage && garbled.number == photos[1].number && garbled.caption == "Photo 4")
        let text = "\(LibraryReport.Problem.malformedRow(garbled))"
        #expect(
            text.contains("\"Photo 4\" in \(photos[1].file) (rowid \(garbled.rowID) of the catalog's photo table) has the id \"\(Self.garbage)\""),
            "\(text)")
        #expect(text.contains("`photobooth check --repair` records the photo again"), "\(text)")
    }

    @Test("check --repair records the photo again from its original and sidecar, with its own id, name and number")
    func repaired() throws {
        let (fixture, photos, library) = try damagedLibrary()
        let actions = try library.maintenance.repair(library.maintenance.check())
        #expect(actions.count == 2, "\(actions)")
        #expect(
            actions.contains {
                $0.hasPrefix("recorded \(photos[1].file) again as \"Photo 4\" (\(photos[1].id.lowercased)), with the id of its sidecar")
            }, "\(actions)")
        let reopened = try LibraryFixture.open(fixture.directory)
        #expect(try reopened.maintenance.check().isClean)
        #expect(try reopened.gallery.photos(includingHidden: true) == photos)
        #expect(try reopened.gallery.photos() == [photos[0], photos[1], photos[3], photos[4], photos[5]])
        #expect(try reopened.gallery.count() == 5)
        let outbox = try reopened.catalog.database.read { db in try String.fetchAll(db, sql: "SELECT photo_id FROM sync_outbox") }
        #expect(!outbox.contains(Self.garbage) && outbox.contains(photos[1].id.lowercased), "\(outbox)")
    }

    @Test("A row without a photo id whose original is gone is kept as lost")
    func lost() throws {
        let (fixture, photos, library) = try damagedLibrary()
        try FileManager.default.removeItem(at: fixture.library.url(of: photos[1]))
        try FileManager.default.removeItem(at: fixture.library.sidecarURL(of: photos[1]))
        let actions = try library.maintenance.repair(library.maintenance.check())
        #expect(actions.contains { $0.hasPrefix("recorded photo \(photos[1].number) \"Photo 4\" as lost") && $0.contains("missing") }, "\(actions)")
        #expect(try LibraryFixture.open(fixture.directory).maintenance.check().isClean)
        let lost = try library.catalog.database.read { db in try String.fetchAll(db, sql: "SELECT id FROM lost_photo") }
        #expect(lost == [Self.garbage])
    }

    @Test("An original that gives no id of its own is adopted with a new one, and the adoption says so")
    func newIdentityIsReported() throws {
        let fixture = try LibraryFixture()
        let folder = fixture.url("photos/2026/01/02")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try LibraryFixture.jpeg().write(to: folder.appendingPathComponent("IMG_0001.jpg"))
        let actions = try fixture.library.maintenance.reconcile()
        #expect(
            actions.contains {
                $0.hasPrefix("adopted photos/2026/01/02/IMG_0001.jpg as ")
                    && $0.contains("with a new id since neither a sidecar nor its file name gives one")
            }, "\(actions)")
        let adopted = try #require(try fixture.library.gallery.photos().first)
        #expect(try PhotoSidecar(xmp: Data(contentsOf: fixture.library.sidecarURL(of: adopted)))?.id == adopted.id, "the sidecar keeps it")
    }
}
