import BoothCore
import BoothImaging
import Foundation
import Testing

@testable import BoothStore

@Suite("Storage")
struct StorageTests {
    @Test("Free space above the reserve can take photos; below it the disk counts as full, and the message says what to free")
    func reserve() throws {
        let fixture = try LibraryFixture()
        let roomy = StorageHealth.check(fixture.directory, reserveBytes: 1_000_000)
        #expect(roomy.problem == nil && (roomy.freeBytes ?? 0) > 1_000_000)
        #expect(roomy.description.contains("free for \(fixture.directory.path)"))
        // More than any disk here has.
        let full = StorageHealth.check(fixture.directory, reserveBytes: Int64.max / 2)
        #expect(full.problem == .full)
        #expect(full.description.hasPrefix("Storage full: "))
        #expect(full.description.contains("below the reserve") && full.description.contains("storage.reserve_mb"))
        #expect(full.description.contains("recycle/") && full.description.contains("journalctl --vacuum-size"), "what to free")
    }

    @Test("A probing check writes a test file and leaves none; one whose write fails says the library cannot be written")
    func probe() throws {
        let fixture = try LibraryFixture()
        let photos = fixture.url(PhotoLibrary.photosFolder)
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: photos.path))
        #expect(StorageHealth.check(fixture.directory, reserveBytes: 1, probing: true).problem == nil)
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: photos.path)) == before)

        // A folder in the probe's place: statvfs and access see nothing wrong, the write fails.
        try FileManager.default.createDirectory(at: photos.appendingPathComponent(".storage-probe.tmp/x"), withIntermediateDirectories: true)
        #expect(StorageHealth.check(fixture.directory, reserveBytes: 1).problem == nil)
        guard case .unwritable(let reason)? = StorageHealth.check(fixture.directory, reserveBytes: 1, probing: true).problem else {
            Issue.record("the failed write went unnoticed")
            return
        }
        #expect(reason.contains("a test write in \(photos.path) failed"), "\(reason)")
    }

    @Test("A library folder that is gone cannot take photos, and says so")
    func missingFolder() {
        let gone = FileManager.default.temporaryDirectory.appendingPathComponent("photobooth-gone-\(UUID())")
        let health = StorageHealth.check(gone, reserveBytes: 1)
        guard case .unwritable(let reason) = health.problem else {
            Issue.record("\(health)")
            return
        }
        #expect(reason.contains(gone.path))
        #expect(health.description.hasPrefix("Cannot save photos: "))
    }

    @Test("A photo whose row cannot be committed leaves no original behind: it is not adopted later, and its space is given back")
    func noOrphanAfterAFailedCommit() throws {
        let fixture = try LibraryFixture()
        let first = try fixture.add(caption: "First")
        let jpeg = try LibraryFixture.jpeg(frame: 2)
        let id = UUID()
        // The number is taken, so the row's insert fails after the original was written.
        let error = #expect(throws: LibraryError.self) {
            try fixture.library.add(
                jpeg, thumbnail: try JPEGThumbnailer().thumbnail(of: jpeg), id: id, number: first.number,
                caption: .placeholder(number: first.number), createdAt: Date())
        }
        #expect(error?.code == .databaseFailure, "\(String(describing: error))")
        #expect(!fixture.files().contains { $0.contains(id.lowercased) }, "\(fixture.files())")
        #expect(try fixture.library.maintenance.reconcile().isEmpty, "nothing to adopt")
        #expect(try fixture.library.gallery.photos().map(\.id) == [first.id])
    }
}
