import BoothCore
import BoothImaging
import Foundation
import GRDB
import Logging
import Synchronization
import Testing

@testable import BoothStore

/// The library's folder copied at each step of its operations, as a crash (SIGKILL or a power
/// cut: every commit is durable, every file synced before the step) at that instant leaves it.
/// The copy is made between two steps, never inside a transaction; SQLite's `-shm` is not
/// copied (a start rebuilds it from the write-ahead log).
final class CrashCopies: Sendable {
    private let copies = Mutex<[(step: String, folder: URL)]>([])

    convenience init(of fixture: LibraryFixture) {
        self.init(directory: fixture.directory, library: fixture.library)
    }

    /// Copies of the library in `directory`, opened as `library`, at each step it reaches.
    init(directory source: URL, library: PhotoLibrary) {
        library.stepReached.withLock {
            $0 = { [weak self] step in
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent("photobooth-crash-\(UUID().lowercased)")
                do {
                    try FileManager.default.copyItem(at: source, to: folder)
                    try? FileManager.default.removeItem(at: folder.appendingPathComponent(PhotoLibrary.catalogName + "-shm"))
                } catch {
                    Issue.record("the library could not be copied at \(step): \(error)")
                }
                self?.copies.withLock { $0.append((step, folder)) }
            }
        }
    }

    deinit {
        for (_, folder) in copies.withLock({ $0 }) { try? FileManager.default.removeItem(at: folder) }
    }

    /// The copies taken so far, in order, by step.
    var taken: [(step: String, folder: URL)] { copies.withLock { $0 } }

    /// The copy taken at `step`.
    func folder(at step: String) throws -> URL {
        try #require(taken.first { $0.step == step }?.folder, "no copy at \(step); taken: \(taken.map(\.step))")
    }

    /// Another copy of the copy at `step`, changed by `change`, for a crash between the steps the
    /// library names (inside ``DurableFile/write(_:)``: the temporary files written, one renamed).
    /// To be made before the copy at `step` is started, which changes it.
    func variant(of step: String, _ change: (URL) throws -> Void) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("photobooth-crash-\(UUID().lowercased)")
        try FileManager.default.copyItem(at: try self.folder(at: step), to: folder)
        copies.withLock { $0.append(("variant of \(step)", folder)) }
        try change(folder)
        return folder
    }
}

@Suite("The start's check: the operations a crash interrupted, not the whole library")
struct StartupTests {
    /// What migration v9 adds (and v11, which counts in its table, and v12 after it), taken
    /// away: the catalog as a booth of before intents left it.
    static let toVersion8 = """
        DROP TRIGGER gallery_photo_insert; DROP TRIGGER gallery_photo_delete; DROP TRIGGER gallery_photo_update;
        DROP TABLE photo_part; ALTER TABLE photo DROP COLUMN kind; ALTER TABLE photo DROP COLUMN layout;
        DELETE FROM grdb_migrations WHERE identifier LIKE 'v12%';
        DELETE FROM grdb_migrations WHERE identifier LIKE 'v11%';
        DROP TRIGGER count_photo_insert; DROP TRIGGER count_photo_delete; DROP TRIGGER count_photo_update; DROP TRIGGER count_intent;
        DROP TABLE in_flight; DROP TABLE catalog_state; DROP INDEX photo_malformed_id; DROP INDEX photo_without_hash;
        DELETE FROM grdb_migrations WHERE identifier LIKE 'v9%';

        """
    /// A library past its first start (a new catalog's start checks every photo).
    static func started(boothName: String = "") throws -> LibraryFixture {
        let fixture = try LibraryFixture(boothName: boothName)
        #expect(try fixture.library.maintenance.reconcileAtStart().fullCheck != nil, "a new catalog's first start checks every photo")
        return fixture
    }

    /// Starts the library in `folder` as the booth does after a crash; expects a quick start
    /// that leaves `check` clean and no intent behind. Returns the library and what it did.
    static func restart(_ folder: URL, sourceLocation: SourceLocation = #_sourceLocation) throws -> (PhotoLibrary, [String]) {
        let library = try LibraryFixture.open(folder, create: false)
        let start = try library.maintenance.reconcileAtStart()
        #expect(start.fullCheck == nil, "\(start)", sourceLocation: sourceLocation)
        let report = try library.maintenance.check()
        #expect(report.isClean, "\(report.problems)", sourceLocation: sourceLocation)
        let intents = try library.catalog.database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM in_flight") }
        #expect(intents == 0, sourceLocation: sourceLocation)
        return (library, start.actions)
    }

    /// Every file under `folder`, relative to it.
    static func files(in folder: URL) -> Set<String> {
        Set(((try? DurableFile.regularFiles(under: folder)) ?? []))
    }

    @Test("A save cut short at any step: the next start removes its temporary files or adopts its original, and check is clean")
    func interruptedSave() throws {
        let fixture = try Self.started()
        let kept = try fixture.add(caption: "Kept")
        let crashes = CrashCopies(of: fixture)
        let photo = try fixture.add(caption: "Anna")
        #expect(crashes.taken.map(\.step) == ["save: intent committed", "save: files in place"])
        let sidecar = PhotoLibrary.sidecarPath(of: photo.file)
        let folder = URL(fileURLWithPath: photo.file).deletingLastPathComponent().relativePath
        let (jpegTemporary, xmpTemporary) = (
            "\(folder)/\(PhotoLibrary.temporaryName(for: photo.id))", "\(folder)/\(PhotoLibrary.temporaryName(for: photo.id, extension: "xmp"))"
        )
        let moveBack = { (base: URL, from: String, to: String) in
            try FileManager.default.moveItem(at: base.appendingPathComponent(from), to: base.appendingPathComponent(to))
        }

        // Before the files: nothing to do, and the photo was never acknowledged.
        let (before, nothing) = try Self.restart(try crashes.folder(at: "save: intent committed"))
        #expect(nothing.isEmpty)
        #expect(try before.gallery.photos().map(\.id) == [kept.id])

        // The temporary files written, none renamed; or the original renamed and not its sidecar.
        let written = try crashes.variant(of: "save: files in place") { base in
            try moveBack(base, photo.file, jpegTemporary)
            try moveBack(base, sidecar, xmpTemporary)
        }
        let (unsaved, removed) = try Self.restart(written)
        #expect(Set(removed) == Set([jpegTemporary, xmpTemporary].map { "removed the temporary file \($0) left by an interrupted save" }))
        #expect(try unsaved.gallery.photos().map(\.id) == [kept.id])
        #expect(!Self.files(in: written).contains { $0.contains(photo.id.lowercased) })

        let halfRenamed = try crashes.variant(of: "save: files in place") { base in try moveBack(base, sidecar, xmpTemporary) }
        let (adoptedBare, bare) = try Self.restart(halfRenamed)
        #expect(bare.count == 2 && bare[1].hasPrefix("adopted \(photo.file) as \"Photo \(photo.number)\""), "\(bare)")
        #expect(try adoptedBare.gallery.photo(id: photo.id) != nil)

        // Both in place, the row not committed: adopted with its sidecar's name, number and time.
        let (adopted, actions) = try Self.restart(try crashes.folder(at: "save: files in place"))
        #expect(actions.count == 1 && actions[0].contains("from its sidecar"), "\(actions)")
        #expect(try adopted.gallery.photo(id: photo.id) == photo)
    }

    @Test("A name, hide or favourite cut short: the next start gives the row what the sidecar says, or nothing changed")
    func interruptedChanges() throws {
        let fixture = try Self.started()
        let photo = try fixture.add(caption: "Anna")
        let crashes = CrashCopies(of: fixture)
        try fixture.library.setCaption(Caption(sanitizing: "Zoë")!, of: photo.id)
        try fixture.library.setHidden(true, of: photo.id)
        try fixture.library.setFavourite(true, of: photo.id)
        #expect(crashes.taken.map(\.step) == Array(repeating: ["change: intent committed", "change: sidecar replaced"], count: 3).flatMap { $0 })

        // Killed while the new sidecar was being written (made before the copy it starts from is restarted).
        let temporary =
            "\(URL(fileURLWithPath: photo.file).deletingLastPathComponent().relativePath)/\(PhotoLibrary.temporaryName(for: photo.id, extension: "xmp"))"
        let writing = try crashes.variant(of: "change: intent committed") { base in
            try Data("<x:xmpmeta half".utf8).write(to: base.appendingPathComponent(temporary))
        }
        let (unchanged, nothing) = try Self.restart(crashes.taken[0].folder)
        #expect(nothing.isEmpty)
        #expect(try unchanged.gallery.photo(id: photo.id)?.caption.text == "Anna")

        let (renamed, restored) = try Self.restart(crashes.taken[1].folder)
        #expect(restored == ["restored the name \"Zoë\" (the catalog had \"Anna\") of photo \(photo.id.lowercased) from its sidecar"])
        #expect(try renamed.gallery.photo(id: photo.id)?.caption.text == "Zoë")

        let (hidden, hiding) = try Self.restart(crashes.taken[3].folder)
        #expect(hiding == ["restored its hidden flag of photo \(photo.id.lowercased) from its sidecar"])
        #expect(try hidden.gallery.photo(id: photo.id) == nil && hidden.gallery.photo(id: photo.id, includingHidden: true) != nil)

        let (marked, marking) = try Self.restart(crashes.taken[5].folder)
        #expect(marking == ["restored its favourite mark of photo \(photo.id.lowercased) from its sidecar"])
        #expect(try marked.gallery.photo(id: photo.id, includingHidden: true)?.favourite == true)

        // Its temporary file goes, the old sidecar stays.
        let (_, cleaned) = try Self.restart(writing)
        #expect(cleaned == ["removed the temporary file \(temporary) left by an interrupted save"])

    }

    @Test("A deletion cut short at any step: before its record the photo stays, after it the deletion is finished")
    func interruptedDeletion() throws {
        let fixture = try Self.started()
        let photo = try fixture.add(caption: "Anna")
        let crashes = CrashCopies(of: fixture)
        try fixture.library.recycle(photo.id)
        #expect(
            crashes.taken.map(\.step) == [
                "recycle: intent committed", "recycle: record written", "recycle: original moved", "recycle: sidecar moved",
            ])

        // Killed while the record was being written.
        let recordTemporary = "recycle/.\(photo.id.lowercased).json.tmp"
        let recording = try crashes.variant(of: "recycle: intent committed") { base in
            try FileManager.default.createDirectory(at: base.appendingPathComponent("recycle"), withIntermediateDirectories: true)
            try Data("{".utf8).write(to: base.appendingPathComponent(recordTemporary))
        }
        let (kept, nothing) = try Self.restart(try crashes.folder(at: "recycle: intent committed"))
        #expect(nothing.isEmpty)
        #expect(try kept.gallery.photo(id: photo.id) != nil)
        let (_, removed) = try Self.restart(recording)
        #expect(removed == ["removed the temporary file \(recordTemporary) left by an interrupted deletion"])

        for step in ["recycle: record written", "recycle: original moved", "recycle: sidecar moved"] {
            let folder = try crashes.folder(at: step)
            let (library, actions) = try Self.restart(folder)
            #expect(actions.count == 1 && actions[0].hasPrefix("deleted photo \(photo.id.lowercased)"), "\(step): \(actions)")
            #expect(try library.gallery.photo(id: photo.id, includingHidden: true) == nil)
            #expect(Self.files(in: folder).isSuperset(of: ["recycle/\(photo.id.lowercased).jpg", "recycle/\(photo.id.lowercased).xmp"]))
        }
    }

    @Test("An import, and the removal of an imported photo, cut short: adopted with its origin, or its files removed")
    func interruptedImports() throws {
        let fixture = try Self.started()
        let jpeg = try LibraryFixture.jpeg(frame: 3)
        var record = PhotoSidecar(
            id: UUID(), number: 3, caption: Caption(sanitizing: "From afar")!, createdAt: Date(timeIntervalSince1970: 1_795_000_000),
            booth: "Other Booth", hidden: false)
        record.width = 320
        record.height = 240
        let crashes = CrashCopies(of: fixture)
        let imported = try fixture.library.importPhoto(
            jpeg, thumbnail: try JPEGThumbnailer().thumbnail(of: jpeg), record: record, origin: "other-booth")
        #expect(try fixture.library.removeImported(imported.id, from: "other-booth"))
        #expect(
            crashes.taken.map(\.step) == [
                "import: intent committed", "import: files in place", "remove imported: row deleted", "remove imported: files removed",
            ])

        let (none, nothing) = try Self.restart(try crashes.folder(at: "import: intent committed"))
        #expect(nothing.isEmpty)
        #expect(try none.gallery.count(includingHidden: true) == 0)
        let (adopting, adopted) = try Self.restart(try crashes.folder(at: "import: files in place"))
        #expect(adopted.count == 1 && adopted[0].contains("from its sidecar"), "\(adopted)")
        #expect(try adopting.gallery.photo(id: imported.id) == imported, "its origin and booth too")

        let removing = try crashes.folder(at: "remove imported: row deleted")
        let (_, removed) = try Self.restart(removing)
        #expect(removed.count == 1 && removed[0].hasPrefix("removed \(imported.file) and its sidecar"), "\(removed)")
        #expect(!Self.files(in: removing).contains { $0.contains(imported.id.lowercased) })
        let (_, done) = try Self.restart(try crashes.folder(at: "remove imported: files removed"))
        #expect(done.isEmpty)
    }

    @Test("The quick start reads no sidecar of a photo no operation touched: an unreadable one and a stray original wait for check")
    func untouchedPhotosAreNotRead() throws {
        let fixture = try Self.started()
        let untouched = try fixture.add(caption: "Untouched")
        let renamed = try fixture.add(caption: "Anna", secondsAgo: 10)
        let crashes = CrashCopies(of: fixture)
        try fixture.library.setCaption(Caption(sanitizing: "Ben")!, of: renamed.id)
        // In the crash's copy: a sidecar that does not read, and an original no booth saved.
        let stray = "photos/2025/12/31/\(UUID().lowercased).jpg"
        let folder = try crashes.variant(of: "change: sidecar replaced") { base in
            try Data("not a sidecar".utf8).write(to: base.appendingPathComponent(PhotoLibrary.sidecarPath(of: untouched.file)))
            try FileManager.default.createDirectory(
                at: base.appendingPathComponent(stray).deletingLastPathComponent(), withIntermediateDirectories: true)
            try LibraryFixture.jpeg(frame: 5).write(to: base.appendingPathComponent(stray))
        }
        let library = try LibraryFixture.open(folder, create: false)
        let start = try library.maintenance.reconcileAtStart()
        #expect(start.fullCheck == nil)
        #expect(start.actions.count == 1 && start.actions[0].hasPrefix("restored the name \"Ben\""), "\(start.actions)")
        #expect(try Data(contentsOf: folder.appendingPathComponent(PhotoLibrary.sidecarPath(of: untouched.file))) == Data("not a sidecar".utf8))
        let problems = try library.maintenance.check().problems
        #expect(problems.contains(.missingSidecar(untouched)) && problems.contains(.unrecorded(file: stray)), "\(problems)")
        #expect(problems.count == 2)
    }

    @Test("A lost write-ahead log is still healed at start: photobooth.changes is ahead of the catalog, and every photo is checked once")
    func lostWriteAheadLog() throws {
        let fixture = try Self.started()
        let early = try fixture.add(caption: "Early", secondsAgo: 60)
        let other = try fixture.add(caption: "Other", secondsAgo: 30)
        try fixture.library.catalog.database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        try fixture.library.setCaption(Caption(sanitizing: "Zoë")!, of: early.id)
        let late = try fixture.add(caption: "Late")
        // The copy of a booth killed now, then its write-ahead log deleted.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("photobooth-lost-wal-\(UUID().lowercased)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: fixture.directory, to: folder)
        for suffix in ["-wal", "-shm"] {
            try FileManager.default.removeItem(at: folder.appendingPathComponent(PhotoLibrary.catalogName + suffix))
        }

        // A full check cut short (here the catalog refuses the adoption) after its restorations
        // raised the count: the next start checks every photo all the same.
        let cut = FileManager.default.temporaryDirectory.appendingPathComponent("photobooth-lost-wal-\(UUID().lowercased)")
        defer { try? FileManager.default.removeItem(at: cut) }
        try FileManager.default.copyItem(at: folder, to: cut)
        let refusing = try LibraryFixture.open(cut, create: false)
        try refusing.catalog.database.write { db in
            try db.execute(sql: "CREATE TEMP TRIGGER refuse BEFORE INSERT ON photo BEGIN SELECT RAISE(ABORT, 'refused by the test'); END")
        }
        #expect(throws: LibraryError.self) { try refusing.maintenance.reconcileAtStart() }
        refusing.close()
        let resumed = try LibraryFixture.open(cut, create: false).maintenance.reconcileAtStart()
        #expect(resumed.fullCheck?.contains("lost its last commits") == true, "\(String(describing: resumed.fullCheck))")
        #expect(resumed.actions.contains { $0.hasPrefix("adopted \(late.file) as \"Late\"") }, "\(resumed.actions)")

        let library = try LibraryFixture.open(folder, create: false)
        // Another command writing before the booth starts does not hide the loss.
        try library.setFavourite(true, of: other.id)
        let start = try library.maintenance.reconcileAtStart()
        #expect(start.fullCheck?.contains("lost its last commits") == true, "\(String(describing: start.fullCheck))")
        #expect(start.actions.contains { $0.hasPrefix("restored the name \"Zoë\"") }, "\(start.actions)")
        #expect(start.actions.contains { $0.hasPrefix("adopted \(late.file) as \"Late\"") }, "\(start.actions)")
        #expect(try library.maintenance.check().isClean)
        #expect(try library.maintenance.reconcileAtStart() == LibraryMaintenance.StartReconciliation(actions: [], fullCheck: nil), "once")
        #expect(try LibraryFixture.open(folder, create: false).maintenance.reconcileAtStart().fullCheck == nil, "nor in another process")
    }

    @Test("A catalog of the previous version (no intents) gets one full check, which writes the sidecars it lacks")
    func migratedCatalog() throws {
        let fixture = try Self.started()
        let photos = try (0..<3).map { try fixture.add(caption: "P\($0)", secondsAgo: Double($0)) }
        for photo in photos { try FileManager.default.removeItem(at: fixture.library.sidecarURL(of: photo)) }
        // Back to version 8's schema, as an earlier booth left it.
        try fixture.library.catalog.database.write { db in try db.execute(sql: Self.toVersion8) }
        fixture.library.close()

        let library = try LibraryFixture.open(fixture.directory, create: false)
        let start = try library.maintenance.reconcileAtStart()
        #expect(start.fullCheck?.contains("earlier version") == true)
        #expect(start.actions == ["wrote the sidecars of 3 photos that had none (<uuid>.xmp beside each original)"])
        #expect(try library.maintenance.check().isClean)
        #expect(try library.maintenance.reconcileAtStart() == LibraryMaintenance.StartReconciliation(actions: [], fullCheck: nil))

        // Taken back by hand to before a later migration, which comes again: the favourite
        // mark it lost (the column's default) comes back from the sidecar.
        try library.setFavourite(true, of: photos[0].id)
        try library.catalog.database.write { db in
            try db.execute(sql: "UPDATE photo SET favourite = 0; DELETE FROM grdb_migrations WHERE identifier LIKE 'v8%'")
        }
        library.close()
        let upgraded = try LibraryFixture.open(fixture.directory, create: false)
        let again = try upgraded.maintenance.reconcileAtStart()
        #expect(again.fullCheck == "the catalog was brought up to date from an earlier version")
        #expect(again.actions == ["restored its favourite mark of photo \(photos[0].id.lowercased) from its sidecar"])
    }

    @Test("A failed change leaves its intent; the next start finds nothing to do and removes it")
    func failedOperationLeavesIntent() throws {
        let fixture = try Self.started()
        let photo = try fixture.add(caption: "Anna")
        try fixture.library.catalog.database.write { db in
            try db.execute(sql: "CREATE TEMP TRIGGER refuse BEFORE UPDATE ON photo BEGIN SELECT RAISE(ABORT, 'refused by the test'); END")
        }
        #expect(throws: LibraryError.self) { try fixture.library.setCaption(Caption(sanitizing: "Zoë")!, of: photo.id) }
        fixture.library.close()
        let (library, actions) = try Self.restart(fixture.directory)
        #expect(actions.isEmpty)
        #expect(try library.gallery.photo(id: photo.id)?.caption.text == "Anna")
    }

    @Test("photobooth.changes is written after each commit and never goes back; one that does not read says nothing")
    func changesFile() throws {
        let fixture = try Self.started()
        let file = fixture.url(CommitMirror.fileName)
        let first = try #require(fixture.library.catalog.commits?.read())
        let photo = try fixture.add()
        let second = try #require(fixture.library.catalog.commits?.read())
        #expect(second.identity == first.identity && second.changes == first.changes + 2, "the intent and the row")
        try fixture.library.setFavourite(true, of: photo.id)
        #expect(fixture.library.catalog.commits?.read()?.changes == second.changes + 2)
        try fixture.library.outbox.updateState { $0.lastUpload = Date() }
        #expect(fixture.library.catalog.commits?.read()?.changes == second.changes + 2, "a commit that touches no photo changes nothing")

        try Data("photobooth catalog \(first.identity) changes 99".utf8).write(to: file)
        #expect(fixture.library.catalog.commits?.read() == nil, "cut short")
        try Data().write(to: file)
        fixture.library.close()
        #expect(try LibraryFixture.open(fixture.directory, create: false).maintenance.reconcileAtStart().fullCheck == nil)
    }

    @Test("What every start asks the catalog (rows without a photo id, photos without a hash) is answered from an index, not by reading every row")
    func startQueriesUseIndexes() throws {
        let fixture = try Self.started()
        let library = fixture.library
        // The queries of PhotoLibrary.init and LibraryMaintenance.photosWithoutPerceptualHash(limit:).
        #expect(
            try LibraryFixture.plan(of: PhotoRecord.all().malformed().select(literal: "COUNT(*)"), in: library).joined().contains(
                "photo_malformed_id"))
        let withoutHash = library.gallery.shown(includingHidden: true).withoutPerceptualHash().oldestFirst().limit(32)
        #expect(try LibraryFixture.plan(of: withoutHash, in: library).joined().contains("photo_without_hash"))
    }

    @Test("A rebuilt catalog needs no second full check at its first start")
    func rebuiltCatalog() throws {
        let fixture = try Self.started()
        try fixture.add(caption: "Anna")
        fixture.library.close()
        _ = try LibraryMaintenance.rebuildCatalog(in: fixture.directory, thumbnailer: JPEGThumbnailer(), logger: .init(label: "test"))
        let (library, actions) = try Self.restart(fixture.directory)
        #expect(actions.isEmpty)
        #expect(try library.gallery.photos().map(\.caption.text) == ["Anna"])
    }
}
