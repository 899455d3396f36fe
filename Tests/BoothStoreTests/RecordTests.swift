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
        let imported = try library.importPhoto(jpeg, thumbnail: try JPEGThumbnailer().thumbnail(of: jpeg), record: record, origin: "other")
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

    @Test("A picture's kind and layout, and its parts in order, read back as they were written")
    func kindsAndParts() throws {
        let fixture = try LibraryFixture()
        let library = fixture.library
        let photo = try fixture.add(caption: "Alice")
        #expect(try library.gallery.photo(id: photo.id, includingHidden: true)?.kind == .photo, "a photo is a photo by default")
        let picture = UUID()
        let taken = Date(timeIntervalSince1970: 1_795_000_000)
        let parts = (0..<3).reversed().map { index in
            PhotoPart(
                id: UUID(), index: index, file: "photos/2026/11/28/part-\(index).jpg", width: 1920, height: 1080, byteCount: 1000 + index,
                createdAt: taken + Double(index))
        }
        try library.catalog.write("record parts") { db in
            for part in parts { try PartRecord(part, of: picture, camera: nil).insert(db) }
            // A row of the kind and layout a collage has.
            try db.execute(sql: "UPDATE photo SET kind = 'collage', layout = 'strip-4' WHERE id = ?", arguments: [photo.id.lowercased])
        }
        let read = try library.catalog.read("read parts") { db in try PartRecord.parts(of: [picture, photo.id], in: db) }
        #expect(read[picture] == parts.reversed(), "in the order they were taken")
        #expect(read[photo.id] == nil)
        let collage = try #require(try library.gallery.photo(id: photo.id, includingHidden: true))
        #expect(collage.kind == .collage && collage.layout == "strip-4")
        // Two shots cannot take the same place in one picture.
        #expect(throws: (any Error).self) {
            try library.catalog.write("a second first shot") { db in
                var part = parts[2]
                part.id = UUID()
                part.file = "photos/2026/11/28/other.jpg"
                try PartRecord(part, of: picture, camera: nil).insert(db)
            }
        }
    }

    @Test("A composed picture's sidecar names its kind, layout and shots; a shot's names its picture; another booth's collage is one here")
    func picturesInSidecarsAndImports() throws {
        var record = Self.record("Anna & Ben")
        record.kind = .collage
        record.layout = "strip-4"
        record.parts = [UUID(), UUID()]
        let read = try #require(PhotoSidecar(xmp: record.xmp))
        #expect(read.kind == .collage && read.layout == "strip-4" && read.parts == record.parts)
        #expect(read.partOf == nil && read.partIndex == nil)

        var shot = Self.record("Photo 7")
        shot.partOf = UUID()
        shot.partIndex = 3
        let shotRead = try #require(PhotoSidecar(xmp: shot.xmp))
        #expect(shotRead.partOf == shot.partOf && shotRead.partIndex == 3 && shotRead.kind == .photo && shotRead.parts.isEmpty)
        // A place among a picture's shots past the most a picture has is no place.
        var far = shot
        far.partIndex = PhotoPart.maximumCount
        #expect(PhotoSidecar(xmp: far.xmp)?.partOf == nil)

        let fixture = try LibraryFixture()
        let jpeg = try LibraryFixture.jpeg()
        let imported = try fixture.library.importPhoto(
            jpeg, thumbnail: try JPEGThumbnailer().thumbnail(of: jpeg), record: record, origin: "other")
        #expect(imported.kind == .collage && imported.layout == "strip-4")
        #expect(try fixture.library.gallery.photo(id: record.id)?.kind == .collage)
    }
}
