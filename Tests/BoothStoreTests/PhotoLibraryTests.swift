import BoothCore
import BoothImaging
import Foundation
import GRDB
import Testing

@testable import BoothStore

@Suite("Photo library")
struct PhotoLibraryTests {
    @Test("A new library is a WAL catalog with full synchronous commits")
    func catalogSettings() throws {
        let fixture = try LibraryFixture()
        #expect(try fixture.library.journalMode() == "wal")
        // The writer commits: its setting is the one that counts (readers never write).
        let synchronous = try fixture.library.catalog.database.writeWithoutTransaction { db in
            try Int.fetchOne(db, sql: "PRAGMA synchronous")
        }
        #expect(synchronous == 2, "2 is FULL")
        #expect(FileManager.default.fileExists(atPath: fixture.url("photobooth.sqlite").path))
    }

    @Test("After the catalog's caches are released, photos are read and saved as before, and changes still seen")
    func releasedMemory() throws {
        let fixture = try LibraryFixture()
        let first = try fixture.add(caption: "First")
        #expect(try fixture.library.gallery.thumbnail(of: first.id) != nil)
        let generation = fixture.library.changes.current
        fixture.library.releaseMemory()
        let second = try fixture.add(caption: "Second", frame: 2)
        #expect(fixture.library.changes.current > generation, "the gallery saw the save")
        #expect(try fixture.library.gallery.thumbnail(of: first.id) != nil && fixture.library.gallery.thumbnail(of: second.id) != nil)
        #expect(try fixture.library.gallery.photos().map(\.caption.text) == ["Second", "First"])
    }

    @Test("A saved photo is the original bytes at photos/YYYY/MM/DD/<uuid>.jpg, with its row")
    func addStoresFileAndRow() throws {
        let fixture = try LibraryFixture()
        let jpeg = try LibraryFixture.jpeg()
        let id = UUID()
        let created = Date(timeIntervalSince1970: 1_790_000_000.25)
        let (photo, _) = try fixture.library.add(
            jpeg, thumbnail: try JPEGThumbnailer().thumbnail(of: jpeg), id: id, number: 1,
            caption: Caption(sanitizing: "Alice")!, createdAt: created)
        #expect(photo.file == "photos/2026/09/21/\(id.lowercased).jpg")
        #expect(try Data(contentsOf: fixture.url(photo.file)) == jpeg)
        #expect(fixture.files().filter { $0.hasSuffix(".tmp") }.isEmpty)
        let stored = try #require(try fixture.library.gallery.photo(id: id))
        #expect(stored == photo)
        #expect(stored.createdAt.timeIntervalSince1970 == 1_790_000_000.25, "sub-second precision survives")
        #expect(stored.width == 320 && stored.height == 240 && stored.byteCount == jpeg.count)
        let thumbnail = try #require(try fixture.library.gallery.thumbnail(of: id))
        #expect(try JPEGHeader(thumbnail).width == 320)
    }

    @Test("Listing is newest first, and a limit keeps the newest")
    func listing() throws {
        let fixture = try LibraryFixture()
        try fixture.add(caption: "old", secondsAgo: 60)
        try fixture.add(caption: "new", secondsAgo: 1)
        try fixture.add(caption: "middle", secondsAgo: 30)
        #expect(try fixture.library.gallery.photos().map(\.caption.text) == ["new", "middle", "old"])
        #expect(try fixture.library.gallery.photos(limit: 1).map(\.caption.text) == ["new"])
    }

    @Test("Pages of the gallery: newest first, photos of the same millisecond by number, no gaps or repeats")
    func paging() throws {
        let fixture = try LibraryFixture()
        let sameInstant = Date(timeIntervalSince1970: 1_790_000_000)
        var numbers: [Int] = []
        for index in 0..<7 {
            let number = fixture.library.reservePhotoNumber()
            let jpeg = try LibraryFixture.jpeg(frame: UInt64(index))
            // Three photos share one millisecond: the number breaks the tie.
            let createdAt = index < 3 ? sameInstant : sameInstant.addingTimeInterval(Double(index))
            _ = try fixture.library.add(
                jpeg, thumbnail: try JPEGThumbnailer().thumbnail(of: jpeg), id: UUID(), number: number,
                caption: .placeholder(number: number), createdAt: createdAt)
            numbers.append(number)
        }
        let newestFirst = [numbers[6], numbers[5], numbers[4], numbers[3], numbers[2], numbers[1], numbers[0]]
        let pages = try stride(from: 0, to: 7, by: 3).map { try fixture.library.gallery.photos(skipping: $0, limit: 3).map(\.number) }
        #expect(pages == [Array(newestFirst[0..<3]), Array(newestFirst[3..<6]), [newestFirst[6]]])
        #expect(try fixture.library.gallery.photos(skipping: 7, limit: 3).isEmpty)
        #expect(try fixture.library.gallery.count() == 7)
    }

    @Test("A page is read through the newest-first index, never by sorting the catalog")
    func pageUsesIndex() throws {
        let fixture = try LibraryFixture()
        let detail = try LibraryFixture.plan(of: ListedPhoto.all().newestFirst().limit(30, offset: 9000), in: fixture.library)
        #expect(detail.contains { $0.contains("photo_newest_first") }, "plan: \(detail)")
        #expect(!detail.contains { $0.contains("TEMP B-TREE") }, "plan: \(detail)")
    }

    @Test("Photo numbers keep counting after a restart")
    func numbersPersist() throws {
        let fixture = try LibraryFixture()
        let first = try fixture.add()
        let second = try fixture.add()
        #expect(first.number == 1 && second.number == 2)
        #expect(second.caption.text == "Photo 2")
        let reopened = try LibraryFixture.open(fixture.directory)
        #expect(reopened.reservePhotoNumber() == 3)
    }

    @Test("Captions can be changed; an unknown photo is an error")
    func captions() throws {
        let fixture = try LibraryFixture()
        let photo = try fixture.add()
        try fixture.library.setCaption(Caption(sanitizing: "Bob")!, of: photo.id)
        #expect(try fixture.library.gallery.photo(id: photo.id)?.caption.text == "Bob")
        #expect(throws: LibraryError.unknownPhoto) { try fixture.library.setCaption(Caption(sanitizing: "x")!, of: UUID()) }
    }

    @Test("Photos are found by id or by a unique prefix of it")
    func lookup() throws {
        let fixture = try LibraryFixture()
        let photo = try fixture.add()
        #expect(try fixture.library.gallery.photo(matching: photo.id.uuidString) == photo)
        #expect(try fixture.library.gallery.photo(matching: String(photo.id.lowercased.prefix(6))) == photo)
        #expect(throws: LibraryError.unknownPhoto) { try fixture.library.gallery.photo(matching: "zz-not-an-id") }
        #expect(throws: LibraryError.unknownPhoto) { try fixture.library.gallery.photo(matching: "") }
        // Two photos share the empty-ish prefix of one hex digit often enough: force it.
        var ids: [UUID] = []
        while Set(ids.map { $0.lowercased.prefix(1) }).count == ids.count { ids.append(try fixture.add().id) }
        let shared = ids.map { String($0.lowercased.prefix(1)) }.first { prefix in ids.filter { $0.lowercased.hasPrefix(prefix) }.count > 1 }!
        #expect(throws: LibraryError.ambiguousPhoto) { try fixture.library.gallery.photo(matching: shared) }
    }

    @Test("Opening a folder without a catalog is an error unless asked to create one")
    func missingLibrary() throws {
        let nowhere = FileManager.default.temporaryDirectory.appendingPathComponent("no-library-\(UUID())")
        #expect(throws: LibraryError.noLibrary) { try LibraryFixture.open(nowhere, create: false) }
        #expect(!FileManager.default.fileExists(atPath: nowhere.path))
    }

    @Test("SQLite's disk-full error is a full disk")
    func sqliteFull() {
        let error = LibraryError.database(DatabaseError(resultCode: .SQLITE_FULL), while: "record a photo", at: "/data/photobooth.sqlite")
        #expect(error.code == .storageFull)
        #expect(LibraryError.database(DatabaseError(resultCode: .SQLITE_IOERR), while: "x", at: "y").code == .databaseFailure)
        #expect(LibraryError.database(DatabaseError(resultCode: .SQLITE_CORRUPT), while: "x", at: "y").code == .damagedCatalog)
    }

    @Test("A full disk is reported as such, with the file and what to do")
    func fullDiskMessage() {
        let error = LibraryError.file("write", "/data/photos/x.jpg", errno: ENOSPC)
        #expect(error.code == .storageFull)
        #expect(error.description.contains("/data/photos/x.jpg") && error.description.contains("Free some space"))
    }
}

@Suite("Library lock")
struct LibraryLockTests {
    @Test("One process at a time; released when the holder goes away")
    func exclusive() throws {
        let fixture = try LibraryFixture()
        var lock: LibraryLock? = try LibraryLock(directory: fixture.directory)
        #expect(lock != nil)
        // flock locks belong to the open file, so a second claim in this process conflicts too.
        #expect(throws: LibraryError.inUse) { try LibraryLock(directory: fixture.directory) }
        #expect(LibraryLock.isHeld(in: fixture.directory))
        lock = nil
        // A child that another test is spawning holds a copy of every descriptor of this
        // process until its exec, the folder's among them: the release is awaited (for at most
        // a second), not assumed at once.
        var held = LibraryLock.isHeld(in: fixture.directory)
        for _ in 0..<100 where held {
            usleep(10_000)
            held = LibraryLock.isHeld(in: fixture.directory)
        }
        #expect(!held)
        _ = try LibraryLock(directory: fixture.directory)
    }

    @Test("The claim is on the folder: a file of the old lock's name is removed, and deleting files does not release it")
    func folderClaim() throws {
        let fixture = try LibraryFixture()
        let former = fixture.directory.appendingPathComponent("photobooth.lock")
        try Data().write(to: former)
        let lock = try LibraryLock(directory: fixture.directory)
        #expect(!FileManager.default.fileExists(atPath: former.path))
        for name in try FileManager.default.contentsOfDirectory(atPath: fixture.directory.path) where name.hasPrefix("photobooth") {
            try? FileManager.default.removeItem(at: fixture.directory.appendingPathComponent(name))
        }
        #expect(throws: LibraryError.inUse) { try LibraryLock(directory: fixture.directory) }
        withExtendedLifetime(lock) {}
    }
}

@Suite("Export")
struct ExportTests {
    @Test("Copies are named after captions, never replace a file, and keep the creation time")
    func export() throws {
        let fixture = try LibraryFixture()
        let alice = try fixture.add(caption: "Alice", secondsAgo: 3600)
        let alice2 = try fixture.add(caption: "Alice")
        let odd = try fixture.add(caption: "../a/b: c?.")
        let target = fixture.directory.appendingPathComponent("export")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        try Data("keep me".utf8).write(to: target.appendingPathComponent("Alice.jpg"))

        let files = try fixture.library.export([alice, alice2, odd], to: target, event: "Gala", tagger: PictureTagger())
        #expect(files.map(\.lastPathComponent) == ["Alice (2).jpg", "Alice (3).jpg", "_a_b_ c_.jpg"])
        #expect(try Data(contentsOf: target.appendingPathComponent("Alice.jpg")) == Data("keep me".utf8))
        // The copy is the original with its name and time spliced in; the original is untouched.
        let copy = try Data(contentsOf: files[0])
        let original = try Data(contentsOf: fixture.url(alice.file))
        #expect(try JPEGSegments(copy).imageData == JPEGSegments(original).imageData)
        #expect(copy == (try PictureTagger().tagged(original, with: try fixture.library.metadata(of: alice, event: "Gala"))))
        #expect(copy != original)
        let modified = try FileManager.default.attributesOfItem(atPath: files[0].path)[.modificationDate] as? Date
        #expect(abs((modified ?? .distantPast).timeIntervalSince(alice.createdAt)) < 1)
    }

    @Test("File names are cut to a size every file system accepts")
    func longNames() {
        let name = PhotoLibrary.fileName(for: Caption(sanitizing: String(repeating: "é", count: 64))!)
        #expect(name.utf8.count <= 200)
        #expect(PhotoLibrary.fileName(for: Caption(sanitizing: "...")!) == "photo")
    }
}
