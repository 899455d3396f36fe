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

        #expect(try fixture.library.photos().map(\.id) == [new.id, old.id])
        #expect(try fixture.library.photos(skipping: 1, limit: 1).map(\.id) == [old.id])
        #expect(try fixture.library.count() == 2)
        #expect(try fixture.library.photo(id: secret.id) == nil)
        #expect(try fixture.library.thumbnail(of: secret.id) == nil)
        #expect(try fixture.library.position(of: old) == 1, "the hidden photo does not push others to a later page")

        #expect(try fixture.library.photos(includingHidden: true).map(\.id) == [new.id, secret.id, old.id])
        #expect(try fixture.library.count(includingHidden: true) == 3)
        #expect(try fixture.library.photo(id: secret.id, includingHidden: true) == secret)
        #expect(try fixture.library.thumbnail(of: secret.id, includingHidden: true) != nil)
        #expect(try fixture.library.hiddenPhotos().map(\.id) == [secret.id], "the operator finds what to unhide")

        try fixture.library.setHidden(false, of: secret.id)
        #expect(try fixture.library.photos().map(\.id) == [new.id, secret.id, old.id])
        #expect(try fixture.library.hiddenPhotos().isEmpty)
        #expect(try fixture.library.position(of: old) == 2)
        #expect(throws: LibraryError.unknownPhoto) { try fixture.library.setHidden(true, of: UUID()) }
    }

    @Test("A hidden photo is consistent: check is clean and reconciliation leaves it alone")
    func hiddenIsConsistent() throws {
        let fixture = try LibraryFixture()
        let photo = try fixture.add()
        try fixture.library.setHidden(true, of: photo.id)
        #expect(try fixture.library.reconcile().isEmpty)
        let report = try fixture.library.check()
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
            try library.database.write { db in try db.execute(sql: "UPDATE photo SET id = 'x' WHERE id = ?", arguments: [photo.id.lowercased]) }
            library = try LibraryFixture.open(fixture.directory)
        }
        #expect(library.shown(false).contains(PhotoLibrary.wellFormedID) == withMalformedRows)
        let page = try plan(
            library,
            "SELECT \(PhotoLibrary.photoColumns) FROM photo WHERE \(library.shown(false)) ORDER BY \(PhotoLibrary.newestFirst) LIMIT 30 OFFSET 9000"
        )
        #expect(page.contains { $0.contains("photo_visible_newest_first") }, "plan: \(page)")
        #expect(!page.contains { $0.contains("TEMP B-TREE") }, "plan: \(page)")

        let count = try plan(library, "SELECT COUNT(*) FROM photo WHERE \(library.shown(false))")
        #expect(count.contains { $0.contains("photo_visible_newest_first") }, "plan: \(count)")

        let everything = try plan(
            library,
            "SELECT \(PhotoLibrary.photoColumns) FROM photo WHERE \(library.shown(true)) ORDER BY \(PhotoLibrary.newestFirst) LIMIT 30")
        #expect(everything.contains { $0.contains("photo_newest_first") }, "plan: \(everything)")
        #expect(!everything.contains { $0.contains("TEMP B-TREE") }, "plan: \(everything)")
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
        #expect(try library.photos().map(\.id) == [id])
        #expect(try library.count() == 1)
    }

    private func plan(_ library: PhotoLibrary, _ sql: String) throws -> [String] {
        try library.read("explain") { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql).map { $0["detail"] as String }
        }
    }
}
