import BoothCore
import BoothImaging
import Foundation
import GRDB
import Testing

@testable import BoothStore

/// The catalog's records own their tables: a photo's derived columns come from its record,
/// whoever writes the row.
@Suite("Catalog records")
struct RecordTests {
    /// The derived columns of photo `id`, as the catalog holds them.
    static func derived(_ id: UUID, in library: PhotoLibrary) throws -> (nameKey: String, searchText: String)? {
        try library.catalog.read("read derived columns") { db in
            try Row.fetchOne(db, PhotoRecord.all().photo(id).select(PhotoRecord.Columns.nameKey, PhotoRecord.Columns.searchText))
                .map { ($0[PhotoRecord.Columns.nameKey], $0[PhotoRecord.Columns.searchText]) }
        }
    }

    /// A record of another booth's photo, as the bucket gives it.
    static func record(_ caption: String) -> PhotoSidecar {
        var record = PhotoSidecar(
            id: UUID(), number: 7, caption: Caption(sanitizing: caption)!, createdAt: Date(timeIntervalSince1970: 1_795_000_000),
            booth: "Other Booth", hidden: false)
        record.width = 320
        record.height = 240
        return record
    }

    @Test("A save and a rename give the row its name folded (name_key, search_text), and search follows")
    func renameMovesDerivedColumns() throws {
        let fixture = try LibraryFixture()
        let library = fixture.library
        let photo = try fixture.add(caption: "Zoë Ångström")
        #expect(try Self.derived(photo.id, in: library)! == ("zoe angstrom", "zoe angstrom"))
        try library.setCaption(Caption(sanitizing: "Familie Strauß")!, of: photo.id)
        #expect(try Self.derived(photo.id, in: library)! == ("familie strauss", "familie strauss"))
        #expect(try library.gallery.photos(.search("strauss")).map(\.id) == [photo.id])
        #expect(try library.gallery.photos(.search("zoe")).isEmpty, "the old name is out of the index")
        #expect(try library.gallery.photos(.name("FAMILIE strauss")).map(\.id) == [photo.id])

        let unnamed = try fixture.add()
        #expect(try Self.derived(unnamed.id, in: library)! == ("", "photo \(unnamed.number)"), "a placeholder is nobody's album")
    }

    @Test("An import, and its booth's rename, give the row its name folded")
    func importMovesDerivedColumns() throws {
        let fixture = try LibraryFixture()
        let library = fixture.library
        let jpeg = try LibraryFixture.jpeg()
        var record = Self.record("Ünal")
        let imported = try library.importPhoto(jpeg, thumbnail: try JPEGThumbnailer().thumbnail(forJPEG: jpeg), record: record, origin: "other")
        #expect(try Self.derived(imported.id, in: library)! == ("unal", "unal"))
        record.caption = Caption(sanitizing: "Ben Ünal")!
        #expect(try library.applyImported(record, from: "other"))
        #expect(try Self.derived(imported.id, in: library)! == ("ben unal", "ben unal"))
        #expect(try library.gallery.photos(.search("ben")).map(\.id) == [imported.id])
    }

    @Test("A name restored from the sidecar is folded too, as the start's check writes it")
    func restoreMovesDerivedColumns() throws {
        let fixture = try LibraryFixture()
        let library = fixture.library
        let photo = try fixture.add(caption: "Anna")
        // A catalog that lost the rename: its row says "Old", its sidecar "Anna".
        try library.catalog.database.write { db in
            try db.execute(
                sql: "UPDATE photo SET caption = 'Old', name_key = 'old', search_text = 'old' WHERE id = ?", arguments: [photo.id.lowercased])
        }
        #expect(try library.maintenance.reconcile().contains { $0.hasPrefix("restored the name \"Anna\"") })
        #expect(try Self.derived(photo.id, in: library)! == ("anna", "anna"))
        #expect(try library.gallery.photos(.search("anna")).map(\.id) == [photo.id])
    }

    @Test("The record writes every column it reads back, and its derived columns from the name alone")
    func recordRoundTrip() throws {
        let fixture = try LibraryFixture()
        let photo = try fixture.add(caption: "Anna")
        let row = try #require(try fixture.library.catalog.read("read") { db in try PhotoRecord.fetchOne(db, key: photo.id.lowercased) })
        #expect(try row.photo() == photo)
        #expect(row.nameKey == "anna" && row.searchText == "anna")
        var renamed = row
        renamed.caption = "  Ben  "
        #expect(renamed.name.text == "Ben")
        #expect(renamed.nameKey == "ben")
        var malformed = row
        malformed.id = "not a photo id"
        #expect(throws: MalformedRow.self) { try malformed.photo() }
    }
}
