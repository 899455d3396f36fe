import BoothCore
import BoothImaging
import Foundation
import Logging
import Testing

@testable import BoothStore

/// Stores shot `index` of `picture` as the booth does while a collage is taken.
@discardableResult
private func addShot(_ library: PhotoLibrary, of picture: UUID, index: Int, at time: Date) throws -> PhotoPart {
    try library.addPart(
        LibraryFixture.jpeg(frame: UInt64(index + 1)), id: UUID(), of: picture, index: index, number: 12, width: 320, height: 240,
        createdAt: time)
}

/// The files under the library's parts/ folder.
private func partFiles(_ fixture: LibraryFixture) -> Set<String> {
    fixture.files().filter { $0.hasPrefix(PhotoLibrary.partsFolder + "/") }
}

@Suite("The shots of pictures being made")
struct PartTests {
    let taken = Date(timeIntervalSince1970: 1_795_000_000.25)

    @Test("Each shot is on disk and in the catalog as it is taken, apart from the photos")
    func shotsAreDurableBeforeTheirPicture() throws {
        let fixture = try LibraryFixture()
        let picture = UUID()
        let first = try addShot(fixture.library, of: picture, index: 0, at: taken)
        let second = try addShot(fixture.library, of: picture, index: 1, at: taken + 3)
        #expect(try fixture.library.parts(of: picture) == [first, second])
        #expect(first.file.hasPrefix("parts/2026/") && first.file.hasSuffix("\(first.id.lowercased).jpg"))
        #expect(try Data(contentsOf: fixture.url(first.file)).count == first.byteCount)
        let sidecar = try #require(PhotoSidecar(xmp: Data(contentsOf: fixture.url(PhotoLibrary.sidecarPath(of: second.file)))))
        #expect(sidecar.partOf == picture && sidecar.partIndex == 1 && sidecar.id == second.id && sidecar.createdAt == taken + 3)
        #expect(try fixture.library.gallery.count() == 0, "a shot is not a photo of the gallery")
        #expect(try fixture.library.maintenance.check().isClean)
    }

    @Test("At a start, shots whose picture never came are photos of their own, with their times")
    func orphanShotsBecomePhotos() throws {
        let fixture = try StartupTests.started()
        let picture = UUID()
        let shots = try (0..<2).map { try addShot(fixture.library, of: picture, index: $0, at: taken + Double($0)) }
        fixture.library.close()
        let (library, actions) = try StartupTests.restart(fixture.directory)
        #expect(actions.count == 2 && actions.allSatisfy { $0.contains("its picture was never made") }, "\(actions)")
        let photos = try shots.map { try #require(try library.gallery.photo(id: $0.id, includingHidden: false)) }
        #expect(photos.map(\.createdAt) == shots.map(\.createdAt))
        #expect(photos.allSatisfy { $0.kind == .photo && $0.file.hasPrefix("photos/") })
        #expect(Set(photos.map(\.number)).count == 2, "each has a number of its own")
        #expect(try library.parts(of: picture).isEmpty)
        #expect(partFiles(fixture).isEmpty)
        #expect(try library.maintenance.check().isClean)
    }

    @Test("A crash at any step of a shot's save leaves nothing or a photo, never half of one")
    func crashWhileSavingAShot() throws {
        let fixture = try StartupTests.started()
        let copies = CrashCopies(of: fixture)
        let shot = try addShot(fixture.library, of: UUID(), index: 0, at: taken)
        #expect(copies.taken.map(\.step) == ["save part: intent committed", "save part: files in place"])
        // Inside the write of the files: the temporary files there, not renamed.
        let temporaries = try copies.variant(of: "save part: intent committed") { folder in
            let day = folder.appendingPathComponent(URL(fileURLWithPath: shot.file).deletingLastPathComponent().relativePath)
            try FileManager.default.createDirectory(at: day, withIntermediateDirectories: true)
            try Data("half a JPEG".utf8).write(to: day.appendingPathComponent(PhotoLibrary.temporaryName(for: shot.id)))
        }
        for (step, folder) in copies.taken + [("temporaries", temporaries)] {
            let (library, _) = try StartupTests.restart(folder)
            let files = (try? FileManager.default.subpathsOfDirectory(atPath: folder.appendingPathComponent(PhotoLibrary.partsFolder).path)) ?? []
            #expect(!files.contains { $0.hasSuffix(".jpg") || $0.hasSuffix(".tmp") || $0.hasSuffix(".xmp") }, "\(step): \(files)")
            let photo = try library.gallery.photo(id: shot.id, includingHidden: true)
            if step == "save part: files in place" {
                #expect(photo?.createdAt == taken, "\(step): the shot is kept as a photo")
            } else {
                #expect(photo == nil, "\(step): nothing of the shot was kept")
            }
        }
    }

    @Test("A crash while a shot becomes a photo: the next start finishes it")
    func crashWhileReleasingAShot() throws {
        let fixture = try StartupTests.started()
        let shot = try addShot(fixture.library, of: UUID(), index: 0, at: taken)
        fixture.library.close()
        let reopened = try LibraryFixture.open(fixture.directory, create: false)
        let copies = CrashCopies(directory: fixture.directory, library: reopened)
        _ = try reopened.maintenance.reconcileAtStart()
        #expect(!copies.taken.isEmpty)
        for (step, folder) in copies.taken {
            let (library, _) = try StartupTests.restart(folder)
            let photo = try library.gallery.photo(id: shot.id, includingHidden: true)
            #expect(photo?.createdAt == taken, "\(step)")
            #expect(try library.parts(of: shot.id).isEmpty)
            #expect(try library.catalog.read("count shots") { db in try PartRecord.fetchCount(db) } == 0, "\(step)")
        }
    }

    @Test("The full check records a shot without its row, then keeps it as a photo")
    func fullCheckFindsShots() throws {
        let fixture = try LibraryFixture()
        let shot = try addShot(fixture.library, of: UUID(), index: 0, at: taken)
        try fixture.library.catalog.write("lose the shot's row") { db in _ = try PartRecord.deleteAll(db) }
        let temporary = fixture.url(URL(fileURLWithPath: shot.file).deletingLastPathComponent().relativePath + "/.left.tmp")
        try Data("x".utf8).write(to: temporary)
        let actions = try fixture.library.maintenance.reconcile()
        #expect(actions.contains { $0.contains("its picture was never made") }, "\(actions)")
        #expect(try fixture.library.gallery.photo(id: shot.id, includingHidden: true)?.createdAt == taken)
        #expect(partFiles(fixture).isEmpty, "the temporary file went too")
    }

    @Test("A catalog that lost a picture's kind (taken back to before pictures had kinds) gets it back from the sidecar")
    func kindRestoredFromSidecar() throws {
        let fixture = try LibraryFixture()
        let picture = UUID()
        let shots = try (0..<2).map { try addShot(fixture.library, of: picture, index: $0, at: taken + Double($0)) }
        let jpeg = try LibraryFixture.jpeg(width: 600, height: 1800)
        _ = try fixture.library.add(
            jpeg, thumbnail: try JPEGThumbnailer().thumbnail(of: jpeg), id: picture, number: 12, caption: Caption(sanitizing: "Anna")!,
            createdAt: taken, kind: .collage, layout: "strip-3", parts: shots)
        try fixture.library.catalog.write("lose the picture's kind") { db in
            try db.execute(sql: "UPDATE photo SET kind = 'photo', layout = NULL WHERE id = ?", arguments: [picture.lowercased])
        }
        #expect(try fixture.library.gallery.photo(id: picture)?.kind == .photo)
        let actions = try fixture.library.maintenance.reconcile()
        let restoredKind = "restored its kind, collage in the layout strip-3 (the catalog had photo) of photo \(picture.lowercased) from its sidecar"
        #expect(actions.contains(restoredKind), "\(actions)")
        let restored = try fixture.library.gallery.photo(id: picture)
        #expect(restored?.kind == .collage && restored?.layout == "strip-3")
        #expect(try fixture.library.parts(of: picture).count == 2)
    }

    @Test("Deleting a collage deletes its shots: no start brings them back, whenever it crashed")
    func deletingACollageDeletesItsShots() throws {
        let fixture = try StartupTests.started()
        let picture = UUID()
        let shots = try (0..<2).map { try addShot(fixture.library, of: picture, index: $0, at: taken + Double($0)) }
        let jpeg = try LibraryFixture.jpeg(width: 600, height: 1800)
        _ = try fixture.library.add(
            jpeg, thumbnail: try JPEGThumbnailer().thumbnail(of: jpeg), id: picture, number: 12, caption: Caption(sanitizing: "Anna")!,
            createdAt: taken, kind: .collage, layout: "strip-3", parts: shots)
        let copies = CrashCopies(of: fixture)
        try fixture.library.recycle(picture)
        #expect(copies.taken.map(\.step).contains("recycle: parts moved"), "\(copies.taken.map(\.step))")
        #expect(partFiles(fixture).isEmpty)
        #expect(try fixture.library.parts(of: picture).isEmpty)
        let recycled = StartupTests.files(in: fixture.url(PhotoLibrary.recycleFolder))
        #expect(shots.allSatisfy { recycled.contains("\($0.id.lowercased).jpg") && recycled.contains("\($0.id.lowercased).xmp") }, "\(recycled)")
        for (step, folder) in copies.taken + [("after", fixture.directory)] {
            if step == "after" { fixture.library.close() }
            let (library, _) = try StartupTests.restart(folder)
            // Before the deletion's record, nothing was deleted: the collage is whole. After it,
            // the deletion is finished: neither the collage nor its shots are photos.
            let started = step != "recycle: intent committed"
            #expect(try library.gallery.count() == (started ? 0 : 1), "\(step)")
            #expect(try library.parts(of: picture).count == (started ? 0 : 2), "\(step)")
            #expect(try library.catalog.read("count shots") { db in try PartRecord.fetchCount(db) } == (started ? 0 : 2), "\(step)")
        }
    }

    @Test("A catalog rebuilt from the folder keeps a collage's kind, layout and shots, in order")
    func rebuildKeepsPictures() throws {
        let fixture = try LibraryFixture()
        let picture = UUID()
        let shots = try (0..<3).map { try addShot(fixture.library, of: picture, index: $0, at: taken + Double($0)) }
        let jpeg = try LibraryFixture.jpeg(width: 600, height: 1800)
        let (strip, _) = try fixture.library.add(
            jpeg, thumbnail: try JPEGThumbnailer().thumbnail(of: jpeg), id: picture, number: 12, caption: Caption(sanitizing: "Anna")!,
            createdAt: taken, kind: .collage, layout: "strip-3", parts: shots)
        #expect(try fixture.library.gallery.photo(id: picture) == strip)
        fixture.library.close()
        try Data("not a catalog".utf8).write(to: fixture.url(PhotoLibrary.catalogName))

        let actions = try LibraryMaintenance.rebuildCatalog(in: fixture.directory, thumbnailer: JPEGThumbnailer(), logger: Logger(label: "test"))
        #expect(actions.filter { $0.contains("recorded the shot") }.count == 3, "\(actions)")
        let library = try LibraryFixture.open(fixture.directory)
        let rebuilt = try #require(try library.gallery.photo(id: picture))
        #expect(rebuilt.kind == .collage && rebuilt.layout == "strip-3" && rebuilt.caption.text == "Anna")
        #expect(rebuilt.parts == shots)
        #expect(try library.gallery.count() == 1, "the shots are the strip's, not photos")
        let sidecar = try #require(PhotoSidecar(xmp: Data(contentsOf: library.sidecarURL(of: rebuilt))))
        #expect(sidecar.parts == shots.map(\.id))
        #expect(try library.maintenance.check().isClean)
    }
}
