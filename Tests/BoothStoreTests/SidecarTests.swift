import BoothCore
import BoothImaging
import Foundation
import GRDB
import Logging
import Synchronization
import Testing

@testable import BoothStore

@Suite("XMP sidecars and the catalog rebuilt from them")
struct SidecarTests {
    static let zoe = Caption(sanitizing: "Zoë & 李 <b>\"quoted\"</b>")!

    @Test("A sidecar reads back as written, a name of any script included")
    func roundTrip() throws {
        let sidecar = PhotoSidecar(
            id: UUID(), number: 42, caption: Self.zoe, createdAt: Date(timeIntervalSince1970: 1_795_000_000.123),
            booth: "Anna & Ben's wedding", hidden: true)
        let text = String(decoding: sidecar.xmp, as: UTF8.self)
        #expect(text.hasPrefix("<?xpacket begin=\"\u{FEFF}\"") && text.contains("<dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">"))
        #expect(text.contains("Zoë &amp; 李 &lt;b&gt;&quot;quoted&quot;&lt;/b&gt;"))
        #expect(PhotoSidecar(xmp: sidecar.xmp) == sidecar)
    }

    @Test("A booth name holding what XML cannot (a control character, U+FFFE) still gives a sidecar that reads")
    func unwritableCharacters() throws {
        let sidecar = PhotoSidecar(
            id: UUID(), number: 7, caption: Self.zoe, createdAt: Date(timeIntervalSince1970: 1_795_000_000),
            booth: "Hall\u{1}" + String(Unicode.Scalar(0xFFFE)!) + " A", hidden: false)
        let read = try #require(PhotoSidecar(xmp: sidecar.xmp))
        #expect(read.booth == "Hall A" && read.caption == Self.zoe)
    }

    @Test("A sidecar rewritten by another tool (properties as elements, prefixes of its own) still reads")
    func otherToolsSerialization() throws {
        let id = UUID()
        let text = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:pb="\(PhotoSidecar.namespace)" xmlns:d="http://purl.org/dc/elements/1.1/"
              xmlns:xap="http://ns.adobe.com/xap/1.0/">
              <pb:Id>\(id.uuidString)</pb:Id><pb:Number>7</pb:Number><pb:Hidden>False</pb:Hidden>
              <xap:CreateDate>2026-11-22T15:33:00+01:00</xap:CreateDate>
              <d:title><rdf:Alt><rdf:li xml:lang="x-default">Anna</rdf:li><rdf:li xml:lang="de">Anne</rdf:li></rdf:Alt></d:title>
            </rdf:Description></rdf:RDF></x:xmpmeta>
            """
        let sidecar = try #require(PhotoSidecar(xmp: Data(text.utf8)))
        #expect(sidecar.id == id && sidecar.number == 7 && sidecar.caption.text == "Anna" && !sidecar.hidden)
        #expect(sidecar.createdAt.utcTimestamp == "2026-11-22T14:33:00.000Z")
        #expect(PhotoSidecar(xmp: Data("not xml".utf8)) == nil)
        #expect(PhotoSidecar(xmp: Data(text.replacingOccurrences(of: "<pb:Number>7</pb:Number>", with: "").utf8)) == nil, "no number")
    }

    @Test("Each save writes the sidecar beside the original; each change writes it before the catalog; a deletion moves it")
    func writtenWithEverySave() throws {
        let fixture = try LibraryFixture(boothName: "Booth 1")
        let photo = try fixture.add(caption: "Anna")
        let sidecar = try #require(try fixture.sidecar(of: photo))
        #expect(sidecar == PhotoSidecar(photo, booth: "Booth 1", hidden: false))
        #expect(fixture.library.sidecarURL(of: photo).path.hasSuffix("/\(photo.id.lowercased).xmp"))

        try fixture.library.setCaption(Self.zoe, of: photo.id)
        try fixture.library.setHidden(true, of: photo.id)
        #expect(try fixture.sidecar(of: photo)?.caption == Self.zoe)
        #expect(try fixture.sidecar(of: photo)?.hidden == true)
        #expect(try fixture.library.maintenance.check().isClean)

        try fixture.library.recycle(photo.id)
        #expect(!FileManager.default.fileExists(atPath: fixture.library.sidecarURL(of: photo).path))
        #expect(FileManager.default.fileExists(atPath: fixture.url("recycle/\(photo.id.lowercased).xmp").path))
    }

    @Test("A change whose sidecar cannot be written is not made: the sidecar is never older than the catalog")
    func sidecarFirst() throws {
        let fixture = try LibraryFixture()
        let photo = try fixture.add(caption: "Anna")
        // A folder where the sidecar's temporary file should go makes the write fail.
        try FileManager.default.createDirectory(
            at: fixture.library.sidecarURL(of: photo).deletingLastPathComponent().appendingPathComponent(".\(photo.id.lowercased).xmp.tmp"),
            withIntermediateDirectories: true)
        let error = #expect(throws: LibraryError.self) { try fixture.library.setCaption(Self.zoe, of: photo.id) }
        #expect(error?.code == .fileFailure, "\(String(describing: error))")
        #expect(try fixture.library.gallery.photo(id: photo.id)?.caption.text == "Anna")
    }

    @Test("A change the catalog refuses puts the sidecar back, so the next start does not make it")
    func refusedChangeRestoresSidecar() throws {
        let fixture = try LibraryFixture()
        let photo = try fixture.add(caption: "Anna")
        try fixture.library.catalog.database.write { db in
            try db.execute(sql: "CREATE TEMP TRIGGER refuse BEFORE UPDATE ON photo BEGIN SELECT RAISE(ABORT, 'refused by the test'); END")
        }
        let error = #expect(throws: LibraryError.self) { try fixture.library.setCaption(Self.zoe, of: photo.id) }
        #expect(error?.code == .databaseFailure, "\(String(describing: error))")
        #expect(try fixture.sidecar(of: photo)?.caption.text == "Anna")
        #expect(try fixture.library.maintenance.reconcile().isEmpty)
        #expect(try fixture.library.gallery.photo(id: photo.id)?.caption.text == "Anna")
    }

    @Test("Names and hides of one photo from many threads at once: each succeeds, and sidecar and catalog agree")
    func concurrentChanges() throws {
        let fixture = try LibraryFixture()
        let photo = try fixture.add(caption: "Anna")
        let library = fixture.library
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 200) { index in
            do {
                if index.isMultiple(of: 2) {
                    try library.setCaption(Caption(sanitizing: "Name \(index)")!, of: photo.id)
                } else {
                    try library.setHidden(index % 4 == 1, of: photo.id)
                }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        #expect(try fixture.library.maintenance.check().isClean, "the sidecar says what the catalog says")
    }

    @Test("A catalog that lost changes (its write-ahead log) gets the names, hidden flags and rows back from the sidecars")
    func reconcileRestores() throws {
        let fixture = try LibraryFixture()
        let renamed = try fixture.add(caption: "Photo 1")
        let dropped = try fixture.add(caption: "Ben", secondsAgo: 30)
        try fixture.library.setCaption(Self.zoe, of: renamed.id)
        try fixture.library.setHidden(true, of: dropped.id)
        // What a lost write-ahead log does: the catalog is back as it was, or without the row.
        try fixture.library.catalog.database.write { db in
            try db.execute(sql: "UPDATE photo SET caption = 'Photo 1' WHERE id = ?", arguments: [renamed.id.lowercased])
            try db.execute(sql: "DELETE FROM photo WHERE id = ?", arguments: [dropped.id.lowercased])
        }
        let report = try fixture.library.maintenance.check()
        #expect(report.problems.contains(.sidecarDiffers(renamed, caption: Self.zoe, hidden: false, favourite: false)))
        #expect(report.problems.contains(.unrecorded(file: dropped.file)))

        let actions = try fixture.library.maintenance.reconcile()
        #expect(actions.contains { $0.contains("restored the name \"\(Self.zoe)\"") }, "\(actions)")
        #expect(actions.contains { $0.contains("adopted \(dropped.file) as \"Ben\"") && $0.contains("from its sidecar") }, "\(actions)")
        #expect(try fixture.library.gallery.photo(id: renamed.id)?.caption == Self.zoe)
        let adopted = try #require(try fixture.library.gallery.photo(id: dropped.id, includingHidden: true))
        #expect(adopted == dropped, "same id, number, name and time")
        #expect(try fixture.library.gallery.photo(id: dropped.id) == nil, "still hidden")
        #expect(try fixture.library.maintenance.check().isClean)
        #expect(fixture.library.reservePhotoNumber() > dropped.number)
    }

    @Test("A library without sidecars (an earlier version's) gets them at start; check and repair find and write missing ones")
    func missingSidecars() throws {
        let fixture = try LibraryFixture()
        let photos = try (0..<3).map { try fixture.add(caption: "P\($0)", secondsAgo: Double($0)) }
        for photo in photos { try FileManager.default.removeItem(at: fixture.library.sidecarURL(of: photo)) }
        #expect(try fixture.library.maintenance.check().problems == photos.sorted { $0.file < $1.file }.map { .missingSidecar($0) })
        #expect(try fixture.library.maintenance.reconcile() == ["wrote the sidecars of 3 photos that had none (<uuid>.xmp beside each original)"])
        #expect(try photos.allSatisfy { try fixture.sidecar(of: $0)?.caption == $0.caption })

        try FileManager.default.removeItem(at: fixture.library.sidecarURL(of: photos[0]))
        let actions = try fixture.library.maintenance.repair(try fixture.library.maintenance.check())
        #expect(actions == ["wrote the sidecar of photo \(photos[0].id.lowercased) \"P0\""])
        #expect(try fixture.library.maintenance.check().isClean)
    }

    @Test("A sidecar that does not read is kept as <uuid>.xmp.unreadable, not overwritten, when the catalog writes a new one")
    func unreadableSidecarKept() throws {
        let fixture = try LibraryFixture()
        let photos = try (0..<2).map { try fixture.add(caption: "P\($0)", secondsAgo: Double($0)) }
        let foreign = Data("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">a tool's own tags".utf8)
        for photo in photos { try foreign.write(to: fixture.library.sidecarURL(of: photo)) }

        #expect(try fixture.library.maintenance.reconcile() == ["wrote the sidecars of 2 photos that had none (<uuid>.xmp beside each original)"])
        let kept = fixture.library.sidecarURL(of: photos[0]).appendingPathExtension("unreadable")
        #expect(try Data(contentsOf: kept) == foreign)
        #expect(try fixture.sidecar(of: photos[0])?.caption == photos[0].caption)

        try foreign.write(to: fixture.library.sidecarURL(of: photos[1]))
        #expect(
            try fixture.library.maintenance.repair(try fixture.library.maintenance.check()) == [
                "wrote the sidecar of photo \(photos[1].id.lowercased) \"P1\""
            ])
        #expect(try Data(contentsOf: fixture.library.sidecarURL(of: photos[1]).appendingPathExtension("unreadable")) == foreign)
        #expect(try fixture.library.maintenance.check().isClean)
    }

    @Test("A damaged catalog is set aside and rebuilt: names from the sidecars, else from the rows it still yields")
    func rebuild() throws {
        let fixture = try LibraryFixture()
        let anna = try fixture.add(caption: "Anna", secondsAgo: 20)
        let ben = try fixture.add(caption: "Ben", secondsAgo: 10)
        let gone = try fixture.add(caption: "Gone")
        try fixture.library.setHidden(true, of: ben.id)
        // Ben's sidecar is lost too: his name must come from the old catalog's row.
        try FileManager.default.removeItem(at: fixture.library.sidecarURL(of: ben))
        try FileManager.default.removeItem(at: fixture.url(gone.file))
        fixture.library.close()

        let actions = try LibraryMaintenance.rebuildCatalog(
            in: fixture.directory, thumbnailer: JPEGThumbnailer(), logger: Logger(label: "test"), boothName: "Booth 2")
        #expect(actions.first?.hasPrefix("set the damaged catalog aside as photobooth.damaged-") == true)
        #expect(
            actions.last == """
                rebuilt the catalog from 2 originals: 1 named from their sidecars, 1 from the damaged catalog, 0 given a default name; \
                1 salvaged row without an original kept as lost
                """, "\(actions)")
        #expect(fixture.files().contains { $0.hasPrefix("photobooth.damaged-") && $0.hasSuffix(".sqlite") })
        let library = try LibraryFixture.open(fixture.directory)
        #expect(try library.gallery.photo(id: anna.id) == anna)
        #expect(try library.gallery.photo(id: ben.id, includingHidden: true) == ben)
        #expect(try library.gallery.photo(id: ben.id) == nil, "hidden, as the old row said")
        #expect(try library.catalog.read("") { db in try String.fetchAll(db, sql: "SELECT caption FROM lost_photo") } == ["Gone"])
        let report = try library.maintenance.check()
        #expect(report.isClean, "\(report.problems)")
    }

    @Test("A rebuild cut short leaves the damaged catalog where it was, and the next one starts over")
    func interruptedRebuild() throws {
        let fixture = try LibraryFixture()
        let anna = try fixture.add(caption: "Anna")
        try FileManager.default.removeItem(at: fixture.library.sidecarURL(of: anna))
        fixture.library.close()
        let garbage = Data(repeating: 0x55, count: 4096)
        try garbage.write(to: fixture.url(PhotoLibrary.catalogName))
        // A folder where the sidecar's temporary file goes: writing Anna's new sidecar fails.
        let blocker = fixture.library.sidecarURL(of: anna).deletingLastPathComponent().appendingPathComponent(".\(anna.id.lowercased).xmp.tmp")
        try FileManager.default.createDirectory(at: blocker, withIntermediateDirectories: true)

        let error = #expect(throws: LibraryError.self) {
            try LibraryMaintenance.rebuildCatalog(in: fixture.directory, thumbnailer: JPEGThumbnailer(), logger: Logger(label: "test"))
        }
        #expect(error?.code == .fileFailure, "\(String(describing: error))")
        #expect(try Data(contentsOf: fixture.url(PhotoLibrary.catalogName)) == garbage)
        #expect(!fixture.files().contains { $0.hasPrefix("photobooth.damaged-") || $0.hasPrefix("photobooth.rebuilding") }, "\(fixture.files())")

        try FileManager.default.removeItem(at: blocker)
        _ = try LibraryMaintenance.rebuildCatalog(in: fixture.directory, thumbnailer: JPEGThumbnailer(), logger: Logger(label: "test"))
        #expect(try LibraryFixture.open(fixture.directory).gallery.photos().count == 1)
        #expect(!fixture.files().contains { $0.hasPrefix("photobooth.rebuilding") }, "\(fixture.files())")
    }

    @Test("A rebuild gives no number twice: described photos keep theirs, one described by nothing gets the next free one")
    func rebuildKeepsNumbers() throws {
        let fixture = try LibraryFixture()
        let photos = try (0..<3).map { try fixture.add(caption: "Photo \($0 + 1)", secondsAgo: Double(30 - $0)) }
        // The first in the folder's order has neither sidecar nor a row that can be salvaged.
        let bare = "photos/2000/01/01/\(UUID().lowercased).jpg"
        try FileManager.default.createDirectory(at: fixture.url(bare).deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: fixture.url(photos[0].file), to: fixture.url(bare))
        fixture.library.close()
        try Data(repeating: 0x55, count: 4096).write(to: fixture.url(PhotoLibrary.catalogName))

        _ = try LibraryMaintenance.rebuildCatalog(in: fixture.directory, thumbnailer: JPEGThumbnailer(), logger: Logger(label: "test"))
        let library = try LibraryFixture.open(fixture.directory)
        for photo in photos { #expect(try library.gallery.photo(id: photo.id) == photo, "number and name kept") }
        let adopted = try #require(try library.gallery.photos().first { $0.file == bare })
        #expect(adopted.number == 4 && adopted.caption.text == "Photo 4")
        #expect(library.reservePhotoNumber() == 5)
    }
}

extension LibraryFixture {
    /// The sidecar of `photo` as it is on disk.
    func sidecar(of photo: Photo) throws -> PhotoSidecar? {
        PhotoSidecar(xmp: try Data(contentsOf: library.sidecarURL(of: photo)))
    }
}
