import BoothCore
import BoothImaging
import Foundation
import Testing

@testable import BoothStore

@Suite("Recycling photos")
struct RecycleTests {
    @Test("A recycled photo leaves the catalog; its original and a record of it are in recycle/")
    func recycle() throws {
        let fixture = try LibraryFixture()
        let kept = try fixture.add(caption: "kept")
        let photo = try fixture.add(caption: "Alice & Bob")
        let original = try Data(contentsOf: fixture.url(photo.file))
        let thumbnail = try #require(try fixture.library.gallery.thumbnail(of: photo.id))

        let destination = try fixture.library.recycle(photo.id)
        #expect(destination == fixture.url("recycle/\(photo.id.lowercased).jpg"))
        #expect(try Data(contentsOf: destination) == original)
        #expect(!FileManager.default.fileExists(atPath: fixture.url(photo.file).path))
        #expect(try fixture.library.gallery.photo(id: photo.id, includingHidden: true) == nil)
        #expect(try fixture.library.gallery.photos().map(\.id) == [kept.id])

        let json = try Data(contentsOf: fixture.url("recycle/\(photo.id.lowercased).json"))
        let keys = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any]).keys
        #expect(
            Set(keys) == ["id", "number", "caption", "created_at", "width", "height", "byte_count", "file", "hidden", "recycled_at", "thumbnail"],
            "the record's keys are the library format's (docs/library.md)")
        let record = try JSONDecoder.booth().decode(RecycledPhoto.self, from: json)
        #expect(record.id == photo.id.lowercased)
        #expect(record.caption == "Alice & Bob")
        #expect(record.number == photo.number)
        #expect(record.createdAt == photo.createdAt.utcTimestamp)
        #expect(record.file == photo.file)
        #expect(record.thumbnail == thumbnail)
        #expect(try fixture.library.maintenance.check().isClean)
        #expect(throws: LibraryError.unknownPhoto) { try fixture.library.recycle(photo.id) }
    }

    @Test("Hidden photos can be recycled, and the record says they were hidden")
    func recycleHidden() throws {
        let fixture = try LibraryFixture()
        let photo = try fixture.add()
        try fixture.library.setHidden(true, of: photo.id)
        try fixture.library.recycle(photo.id)
        let record = try JSONDecoder.booth().decode(
            RecycledPhoto.self, from: Data(contentsOf: fixture.url("recycle/\(photo.id.lowercased).json")))
        #expect(record.hidden)
        #expect(try fixture.library.gallery.count(includingHidden: true) == 0)
    }

    @Test("A crash after the record was written: the next start finishes the deletion")
    func crashBeforeMove() throws {
        let fixture = try LibraryFixture()
        let photo = try fixture.add()
        let original = try Data(contentsOf: fixture.url(photo.file))
        try DurableFile.write(
            try fixture.library.recycleRecord(of: photo), to: fixture.library.recycleURL(photo.id, extension: "json"),
            temporaryName: "record.tmp")

        let restarted = try LibraryFixture.open(fixture.directory)
        #expect(try restarted.maintenance.check().problems == [.interruptedRecycling(photo)])
        let actions = try restarted.maintenance.reconcile()
        #expect(actions.count == 1 && actions[0].contains(photo.id.lowercased))
        #expect(try restarted.gallery.photo(id: photo.id, includingHidden: true) == nil)
        #expect(try Data(contentsOf: fixture.url("recycle/\(photo.id.lowercased).jpg")) == original)
        #expect(try restarted.maintenance.check().isClean)
    }

    @Test("A crash after the move: the row does not outlive it, and check names it until repaired")
    func crashAfterMove() throws {
        let fixture = try LibraryFixture()
        let photo = try fixture.add()
        let destination = fixture.library.recycleURL(photo.id, extension: "jpg")
        try DurableFile.write(
            try fixture.library.recycleRecord(of: photo), to: fixture.library.recycleURL(photo.id, extension: "json"),
            temporaryName: "record.tmp")
        try DurableFile.move(fixture.url(photo.file), to: destination)

        let restarted = try LibraryFixture.open(fixture.directory)
        let report = try restarted.maintenance.check()
        #expect(report.problems == [.interruptedRecycling(photo)], "not reported as a missing original")
        #expect(try restarted.maintenance.repair(report).count == 1)
        #expect(try restarted.gallery.photo(id: photo.id, includingHidden: true) == nil)
        #expect(FileManager.default.fileExists(atPath: destination.path))
        #expect(try restarted.maintenance.check().isClean)
        #expect(try restarted.maintenance.reconcile().isEmpty)
    }

    @Test("A crash while writing the record: the temporary file goes, the photo stays")
    func crashDuringRecord() throws {
        let fixture = try LibraryFixture()
        let photo = try fixture.add()
        let temporary = "recycle/.\(photo.id.lowercased).json.tmp"
        try DurableFile.makeFolders(fixture.url("recycle"))
        try Data("{\"id\":".utf8).write(to: fixture.url(temporary))

        #expect(try fixture.library.maintenance.check().problems == [.temporaryFile(temporary)])
        #expect(try fixture.library.maintenance.reconcile().count == 1)
        #expect(!FileManager.default.fileExists(atPath: fixture.url(temporary).path))
        #expect(try fixture.library.gallery.photo(id: photo.id) == photo)
        #expect(try fixture.library.maintenance.check().isClean)
    }
}
