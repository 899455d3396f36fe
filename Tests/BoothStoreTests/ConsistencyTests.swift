import BoothCore
import BoothImaging
import Foundation
import GRDB
import Testing

@testable import BoothStore

@Suite("Reconciliation, check and repair")
struct ConsistencyTests {
    @Test("A clean library checks clean")
    func clean() throws {
        let fixture = try LibraryFixture()
        try fixture.add()
        try fixture.add()
        let report = try fixture.library.maintenance.check()
        #expect(report.isClean)
        #expect(report.photoCount == 2)
    }

    @Test("At start, temporary files go and originals without a row are adopted")
    func reconcileAfterCrash() throws {
        let fixture = try LibraryFixture()
        let kept = try fixture.add(caption: "kept")
        // What a crash between rename and commit leaves: an original without a row.
        let orphanID = UUID()
        let orphan = "photos/2026/01/02/\(orphanID.lowercased).jpg"
        try DurableFile.write(try LibraryFixture.jpeg(frame: 9), to: fixture.url(orphan), temporaryName: "x.tmp")
        // What a crash during the write leaves: a temporary file.
        let temporary = "photos/2026/01/02/.\(UUID().lowercased).jpg.tmp"
        try Data([0xFF, 0xD8, 0xFF]).write(to: fixture.url(temporary))

        let actions = try fixture.library.maintenance.reconcile()
        #expect(actions.count == 2)
        #expect(!FileManager.default.fileExists(atPath: fixture.url(temporary).path))
        let adopted = try #require(try fixture.library.gallery.photo(id: orphanID))
        #expect(adopted.file == orphan)
        #expect(adopted.caption.text == "Photo \(kept.number + 1)")
        #expect(try fixture.library.maintenance.check().isClean)
    }

    @Test("The folder listing finds files at any depth, hidden ones too, and neither folders nor links")
    func folderListing() throws {
        let fixture = try LibraryFixture()
        let root = fixture.url("listing")
        #expect(try DurableFile.regularFiles(under: root).isEmpty, "a folder that is not there holds nothing")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("a/b/c"), withIntermediateDirectories: true)
        for file in ["top.jpg", "a/.hidden.tmp", "a/b/c/deep.xmp"] {
            try Data([1]).write(to: root.appendingPathComponent(file))
        }
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("a/link.jpg").path, withDestinationPath: "../top.jpg")
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("loop").path, withDestinationPath: ".")
        #expect(try DurableFile.regularFiles(under: root).sorted() == ["a/.hidden.tmp", "a/b/c/deep.xmp", "top.jpg"])
    }

    @Test("An unreadable original without a row is left in place at start")
    func reconcileLeavesUnreadable() throws {
        let fixture = try LibraryFixture()
        let broken = "photos/2026/01/02/\(UUID().lowercased).jpg"
        try DurableFile.write(try LibraryFixture.jpeg().prefix(500), to: fixture.url(broken), temporaryName: "x.tmp")
        #expect(try fixture.library.maintenance.reconcile().isEmpty)
        #expect(FileManager.default.fileExists(atPath: fixture.url(broken).path))
        #expect(try fixture.library.gallery.photos().isEmpty)
    }

    @Test("Check names every kind of problem")
    func checkFindsProblems() throws {
        let fixture = try LibraryFixture()
        let gone = try fixture.add(caption: "gone")
        let damaged = try fixture.add(caption: "damaged")
        try FileManager.default.removeItem(at: fixture.url(gone.file))
        let bytes = try Data(contentsOf: fixture.url(damaged.file))
        try bytes.prefix(bytes.count / 2).write(to: fixture.url(damaged.file))
        let stray = "photos/2025/12/31/\(UUID().lowercased).jpg"
        try DurableFile.write(try LibraryFixture.jpeg(), to: fixture.url(stray), temporaryName: "y.tmp")
        let temporary = "photos/2025/12/31/.leftover.jpg.tmp"
        try Data().write(to: fixture.url(temporary))

        let report = try fixture.library.maintenance.check()
        #expect(!report.isClean)
        #expect(report.problems.contains(.missingOriginal(gone)))
        #expect(report.problems.contains { if case .unreadable(damaged.file, damaged?, _) = $0 { true } else { false } })
        #expect(report.problems.contains(.unrecorded(file: stray)))
        #expect(report.problems.contains(.temporaryFile(temporary)))
        #expect(report.problems.count == 4)
        #expect(report.problems.map(\.description).contains { $0.contains(gone.id.lowercased) && $0.contains("gone") })
    }

    @Test("Repair makes the library consistent without deleting an original")
    func repair() throws {
        let fixture = try LibraryFixture()
        let gone = try fixture.add(caption: "gone")
        let damaged = try fixture.add(caption: "damaged")
        let fine = try fixture.add(caption: "fine")
        try FileManager.default.removeItem(at: fixture.url(gone.file))
        let half = try Data(contentsOf: fixture.url(damaged.file)).prefix(300)
        try half.write(to: fixture.url(damaged.file))
        let strayID = UUID()
        let stray = "photos/2025/12/31/\(strayID.lowercased).jpg"
        try DurableFile.write(try LibraryFixture.jpeg(), to: fixture.url(stray), temporaryName: "y.tmp")
        let unreadableStray = "photos/2025/12/31/broken.jpg"
        try Data("not a jpeg".utf8).write(to: fixture.url(unreadableStray))
        let originalsBefore = fixture.files().filter { $0.hasSuffix(".jpg") }.count

        let actions = try fixture.library.maintenance.repair(try fixture.library.maintenance.check())
        #expect(actions.count == 4)
        #expect(try fixture.library.maintenance.check().isClean)
        // Nothing that was an original is gone: it is in the catalog or in quarantine.
        #expect(fixture.files().filter { $0.hasSuffix(".jpg") }.count == originalsBefore)
        #expect(try Data(contentsOf: fixture.url("quarantine/" + damaged.file)) == half)
        #expect(FileManager.default.fileExists(atPath: fixture.url("quarantine/" + unreadableStray).path))
        #expect(
            try fixture.library.gallery.photos().map(\.id).sorted { $0.uuidString < $1.uuidString }
                == [fine.id, strayID].sorted { $0.uuidString < $1.uuidString })
        let lost = try fixture.library.catalog.database.read { db in try String.fetchAll(db, sql: "SELECT caption FROM lost_photo ORDER BY caption") }
        #expect(lost == ["damaged", "gone"])
        // Numbers of lost photos are not handed out again.
        #expect(fixture.library.reservePhotoNumber() > max(gone.number, damaged.number, fine.number))
    }
}
