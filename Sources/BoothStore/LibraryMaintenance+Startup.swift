import BoothCore
import Foundation
import GRDB
import Glibc

/// What a start looks at, and why it is not every photo.
///
/// A crash (SIGKILL, a power cut) can only leave behind the files of the operations that were
/// under way. So every operation that writes into photos/ (a save, an import, a change of name,
/// hidden flag or favourite, a deletion, the removal of an imported photo) first commits an
/// intent to the catalog's `in_flight` table, durably like every commit, then does its file
/// work, and removes the intent in its own last commit, together with the row it writes. A
/// start (``reconcileAtStart()``) looks at the photos of the intents left, and nothing else:
/// their temporary files, their original and sidecar against their row (adopted, restored from
/// the sidecar, or a sidecar written). An operation that failed without a crash may leave its
/// intent too; the next start finds nothing to do for it, or what the operation said it would
/// leave (an original it could not remove after a refused commit, a sidecar it could not put
/// back).
///
/// Two things are no crash's doing, yet a start has always healed them, and still does, with
/// the full check (``reconcile()``) that reads every sidecar:
/// - A catalog that lost commits (its write-ahead log deleted, a copy from before): the catalog
///   counts the commits that changed photos and intents (triggers raise `catalog_state.changes`),
///   and after each commit that count is written beside it, in `photobooth.changes`
///   (``CommitMirror``). A start that finds the file ahead of the catalog knows the catalog lost
///   commits.
/// - A catalog made here: new (a first start, or a catalog deleted by hand beside its photos),
///   or brought up from a version that kept no intents (whose crashes, and whose photos without
///   sidecars, only a full check finds). The migration says so in
///   `catalog_state.full_check_due`, and so does an unfinished `check --repair`; the full check
///   clears it once done.
extension LibraryMaintenance {
    /// What the start's check of the library did.
    package struct StartReconciliation: Sendable, Equatable {
        /// What it did, one line per action, for the log.
        package var actions: [String]
        /// Why every photo was checked, when it was: `nil` after a check of the operations a
        /// crash interrupted alone.
        package var fullCheck: String?
    }

    /// Cleans up after a crash at start, in a time that does not grow with the library: the
    /// operations a crash interrupted are finished or undone (their temporary files removed,
    /// their original adopted, their row restored from their sidecar or their sidecar written,
    /// a deletion finished), and a storage check's test file is removed. When the catalog lost
    /// commits, or is new or from an earlier version, every photo is checked instead
    /// (``reconcile()``), and the result says why. Call it with the library's lock held.
    package func reconcileAtStart() throws(LibraryError) -> StartReconciliation {
        var actions = try removeStorageProbe()
        let (state, intents) = try catalog.read("read the operations in flight") { db in
            (try CatalogStateRecord.current(db), try IntentRecord.all().inOrder().fetchAll(db))
        }
        let due = state.fullCheckDue
        var reason = due
        if reason == nil, let mirror = CommitMirror(directory: directory).read(), mirror.identity == state.identity,
            mirror.changes > state.changes
        {
            reason =
                "the catalog holds \(state.changes) changes of photos and \(CommitMirror.fileName) says the library had reached \(mirror.changes): "
                + "the catalog lost its last commits, as a deleted write-ahead log does"
        }
        if let reason {
            logger.notice("Checking every photo at this start: \(reason).")
            // Its own adoptions and restorations raise the count past the file's: should it be
            // cut short, the next start must know to check every photo all the same.
            if due == nil { try setFullCheckDue(reason) }
            return StartReconciliation(actions: actions + (try reconcile()), fullCheck: reason)
        }
        for intent in intents { actions += try settle(intent) }
        if let last = intents.last?.seq {
            try catalog.write("close the operations a crash interrupted") { db in try IntentRecord.all().upTo(last).deleteAll(db) }
        }
        return StartReconciliation(actions: actions + (try releaseOrphanParts()), fullCheck: nil)
    }

    /// Finishes or undoes what one intent's operation left; returns what it did.
    private func settle(_ intent: IntentRecord) throws(LibraryError) -> [String] {
        let file = intent.file
        let folder = intent.kind == .savePart ? PhotoLibrary.partsFolder : PhotoLibrary.photosFolder
        guard let id = UUID(uuidString: intent.photoID), id.lowercased == intent.photoID, file.hasPrefix(folder + "/"),
            PhotoLibrary.isOriginal(file), !file.split(separator: "/").contains("..")
        else {
            logger.warning(
                "An operation in flight names no photo of this library (\"\(intent.photoID)\", \"\(file)\"); it is dropped. `photobooth check` looks at every photo."
            )
            return []
        }
        switch intent.kind {
        case .recycle: return try settleRecycling(id)
        case .removeImported: return try settleRemoval(id, file: file)
        case .savePart: return try settlePart(id, file: file)
        case .save, .importing, .change, nil: return try settlePhoto(id, file: file)
        }
    }

    /// A save, an import or a change: the temporary files go; an original without a row is
    /// adopted (with its sidecar's name, when it has one); a row gets the name, hidden flag and
    /// favourite mark of its sidecar (which is never older), or a sidecar when it has none that
    /// reads.
    private func settlePhoto(_ id: UUID, file: String) throws(LibraryError) -> [String] {
        var actions = try removeTemporaries(of: id, beside: file)
        guard access(directory.appendingPathComponent(file).path, F_OK) == 0 else { return actions }
        guard let row = try library.row(of: id) else {
            if let adopted = try adoptAtStart(file, described: readSidecar(of: file)) { actions.append(adopted) }
            return actions
        }
        let (photo, booth, hidden) = (row.photo, row.booth, row.hidden)
        // A row of the same id with another original is no crash's doing: `check` reports it.
        guard photo.file == file else { return actions }
        if let sidecar = readSidecar(of: file), sidecar.id == photo.id {
            if let restored = try restore(photo, hidden: hidden, from: sidecar) { actions.append(restored) }
        } else {
            try setAsideUnreadableSidecar(of: photo)
            try DurableFile.replace(
                library.sidecarURL(of: photo), with: PhotoSidecar(photo, booth: booth, hidden: hidden).xmp,
                temporaryName: PhotoLibrary.temporaryName(for: photo.id, extension: "xmp"))
            actions.append("wrote the sidecar of photo \(photo.id.lowercased) \"\(photo.caption)\"")
        }
        return actions
    }

    /// A deletion: its record's temporary file goes; a deletion whose record is written is
    /// finished (``PhotoLibrary/finishRecycling(_:closing:)``); one without is undone by the crash already.
    private func settleRecycling(_ id: UUID) throws(LibraryError) -> [String] {
        var actions: [String] = []
        let temporary = directory.appendingPathComponent(PhotoLibrary.recycleFolder).appendingPathComponent(".\(id.lowercased).json.tmp")
        if access(temporary.path, F_OK) == 0 {
            try DurableFile.remove(temporary)
            actions.append("removed the temporary file \(PhotoLibrary.recycleFolder)/\(temporary.lastPathComponent) left by an interrupted deletion")
        }
        if let photo = try library.gallery.photo(id: id, includingHidden: true), access(library.recycleURL(id, extension: "json").path, F_OK) == 0 {
            actions.append(try library.finishRecycling(photo))
        }
        return actions
    }

    /// The removal of an imported photo, its row deleted: its files go too.
    private func settleRemoval(_ id: UUID, file: String) throws(LibraryError) -> [String] {
        guard try library.row(of: id) == nil else { return [] }
        var actions = try removeTemporaries(of: id, beside: file)
        let original = directory.appendingPathComponent(file)
        let present = [original, directory.appendingPathComponent(PhotoLibrary.sidecarPath(of: file))].filter { access($0.path, F_OK) == 0 }
        guard !present.isEmpty else { return actions }
        for url in present { try DurableFile.remove(url) }
        try DurableFile.syncFolder(original.deletingLastPathComponent())
        actions.append("removed \(file) and its sidecar: the booth that took the photo deleted it, and its removal here was interrupted")
        return actions
    }

    /// Removes the temporary files of photo `id` beside the original `file`; returns what it did.
    func removeTemporaries(of id: UUID, beside file: String) throws(LibraryError) -> [String] {
        let folder = URL(fileURLWithPath: file).deletingLastPathComponent().relativePath
        var actions: [String] = []
        for fileExtension in ["jpg", "gif", "xmp"] {
            let temporary = "\(folder)/\(PhotoLibrary.temporaryName(for: id, extension: fileExtension))"
            let url = directory.appendingPathComponent(temporary)
            guard access(url.path, F_OK) == 0 else { continue }
            try DurableFile.remove(url)
            actions.append("removed the temporary file \(temporary) left by an interrupted save")
        }
        return actions
    }

    /// Removes the test file of a storage check that a crash interrupted (``StorageHealth``).
    private func removeStorageProbe() throws(LibraryError) -> [String] {
        let probe = "\(PhotoLibrary.photosFolder)/\(DurableFile.probeName)"
        guard access(directory.appendingPathComponent(probe).path, F_OK) == 0 else { return [] }
        try DurableFile.remove(directory.appendingPathComponent(probe))
        return ["removed the temporary file \(probe) left by an interrupted storage check"]
    }

    // MARK: The full check's bookkeeping

    /// The highest intent's number: the full check that begins now settles the intents up to it.
    func lastIntent() throws(LibraryError) -> Int64? {
        try catalog.read("read the operations in flight") { db in
            try IntentRecord.select(max(IntentRecord.Columns.seq), as: Int64.self).fetchOne(db)
        }
    }

    /// Notes that every photo was checked: no full check is due any more, the intents up to
    /// `seq` are settled, and the count of changes moves past what `photobooth.changes` says, so
    /// that the next start does not take the catalog for one that lost commits again.
    func fullCheckDone(settlingUpTo seq: Int64?) throws(LibraryError) {
        let mirror = CommitMirror(directory: directory).read()
        try catalog.write("note the check of every photo") { db in
            if var state = try CatalogStateRecord.fetchOne(db) {
                let floor = mirror.flatMap { $0.identity == state.identity ? $0.changes : nil } ?? 0
                try state.updateChanges(db) { state in
                    state.changes = max(state.changes, floor) + 1
                    state.fullCheckDue = nil
                }
            }
            if let seq { try IntentRecord.all().upTo(seq).deleteAll(db) }
        }
    }

    /// Why the next start checks every photo (`nil`: it need not).
    func fullCheckDue() throws(LibraryError) -> String? {
        try catalog.read("read the catalog's state") { db in try CatalogStateRecord.current(db).fullCheckDue }
    }

    /// Makes the next start check every photo, for `reason`, or no longer (`nil`).
    func setFullCheckDue(_ reason: String?) throws(LibraryError) {
        try catalog.write("note the check due at the next start") { db in
            try CatalogStateRecord.updateAll(db, CatalogStateRecord.Columns.fullCheckDue.set(to: reason))
        }
    }
}
