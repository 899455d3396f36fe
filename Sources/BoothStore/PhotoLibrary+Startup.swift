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
///   counts the changes made to photos and intents (triggers raise `catalog_state.changes`),
///   and after each commit that count is written beside it, in `photobooth.changes`
///   (``mirrorChanges(_:)``). A start that finds the file ahead of the catalog knows the catalog
///   lost commits. The file is written after the commit and without `fsync`: it can lag behind
///   the catalog (a crash right after a commit, a power cut, another process's commit), which
///   only means a loss that goes unnoticed at start (`photobooth check` still finds it), but it
///   can never be ahead of what the catalog durably holds, so it never raises a false alarm. A
///   file that does not read, or names another catalog (a rebuilt one), says nothing.
/// - A catalog made here: new (a first start, or a catalog deleted by hand beside its photos),
///   or brought up from a version that kept no intents (whose crashes, and whose photos without
///   sidecars, only a full check finds). The migration says so in
///   `catalog_state.full_check_due`, and so does an unfinished `check --repair`; the full check
///   clears it once done.
extension PhotoLibrary {
    /// The file beside the catalog that mirrors its count of changes.
    public static let changesFileName = "photobooth.changes"

    /// What the start's check of the library did.
    public struct StartReconciliation: Sendable, Equatable {
        /// What it did, one line per action, for the log.
        public var actions: [String]
        /// Why every photo was checked, when it was: `nil` after a check of the operations a
        /// crash interrupted alone.
        public var fullCheck: String?
    }

    /// Cleans up after a crash at start, in a time that does not grow with the library: the
    /// operations a crash interrupted are finished or undone (their temporary files removed,
    /// their original adopted, their row restored from their sidecar or their sidecar written,
    /// a deletion finished), and a storage check's test file is removed. When the catalog lost
    /// commits, or is new or from an earlier version, every photo is checked instead
    /// (``reconcile()``), and the result says why. Call it with the library's lock held.
    public func reconcileAtStart() throws(LibraryError) -> StartReconciliation {
        var actions = try removeStorageProbe()
        let (state, due, intents) = try read("read the operations in flight") { db in
            (
                try Self.changeState(in: db), try String.fetchOne(db, sql: "SELECT full_check_due FROM catalog_state"),
                try Row.fetchAll(db, sql: "SELECT seq, photo_id, file, operation FROM in_flight ORDER BY seq").map(Intent.init)
            )
        }
        var reason = due
        if reason == nil, let mirror = readChangesFile(), mirror.identity == state.identity, mirror.changes > state.changes {
            reason =
                "the catalog holds \(state.changes) changes of photos and \(Self.changesFileName) says the library had reached \(mirror.changes): "
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
            try write("close the operations a crash interrupted") { db in
                try db.execute(sql: "DELETE FROM in_flight WHERE seq <= ?", arguments: [last])
            }
        }
        return StartReconciliation(actions: actions, fullCheck: nil)
    }

    // MARK: Intents

    /// What an operation in flight does to its photo's files.
    enum Operation: String {
        /// ``add(_:thumbnail:id:number:caption:createdAt:camera:perceptualHash:)``: original and
        /// sidecar written, then the row.
        case save
        /// ``importPhoto(_:thumbnail:record:origin:)``: the same for another booth's photo.
        case importing = "import"
        /// ``change(_:_:imported:sidecar:update:)``: the sidecar replaced, then the row.
        case change
        /// ``recycle(_:)``: the record, the moves to recycle/, then the row deleted.
        case recycle
        /// ``removeImported(_:from:)``: the row deleted, then the original and sidecar.
        case removeImported = "remove imported"
    }

    /// An intent as the catalog holds it.
    struct Intent {
        var seq: Int64
        var photoID: String
        var file: String
        /// `nil` for an operation this version does not know (a newer one's).
        var operation: Operation?

        init(_ row: Row) {
            seq = row["seq"]
            photoID = row["photo_id"]
            file = row["file"]
            operation = Operation(rawValue: row["operation"])
        }
    }

    /// Commits the intent of an operation on photo `id`, whose original is (or is to be) `file`;
    /// returns its number, for the operation's last commit to remove it
    /// (``closeOperation(_:in:)``).
    func beginOperation(_ operation: Operation, of id: UUID, file: String) throws(LibraryError) -> Int64 {
        let seq = try write("note the operation under way") { db in try Self.insertOperation(operation, of: id, file: file, in: db) }
        reached("\(operation.rawValue): intent committed")
        return seq
    }

    /// Inserts an intent inside a transaction of the operation's own (a removal commits its
    /// first step with it); returns its number.
    static func insertOperation(_ operation: Operation, of id: UUID, file: String, in db: Database) throws -> Int64 {
        try db.execute(
            sql: "INSERT INTO in_flight (photo_id, file, operation, started_at) VALUES (?, ?, ?, ?)",
            arguments: [id.lowercased, file, operation.rawValue, Date().utcTimestamp])
        return db.lastInsertedRowID
    }

    /// Removes an intent, inside the transaction that completes its operation.
    static func closeOperation(_ seq: Int64?, in db: Database) throws {
        guard let seq else { return }
        try db.execute(sql: "DELETE FROM in_flight WHERE seq = ?", arguments: [seq])
    }

    /// Tells the tests' observer (``stepReached``) that an operation reached `step`.
    func reached(_ step: String) {
        stepReached.withLock { $0 }?(step)
    }

    /// Finishes or undoes what one intent's operation left; returns what it did.
    private func settle(_ intent: Intent) throws(LibraryError) -> [String] {
        let file = intent.file
        guard let id = UUID(uuidString: intent.photoID), id.lowercased == intent.photoID, file.hasPrefix(Self.photosFolder + "/"),
            file.hasSuffix(".jpg"), !file.split(separator: "/").contains("..")
        else {
            logger.warning(
                "An operation in flight names no photo of this library (\"\(intent.photoID)\", \"\(file)\"); it is dropped. `photobooth check` looks at every photo."
            )
            return []
        }
        switch intent.operation {
        case .recycle: return try settleRecycling(id)
        case .removeImported: return try settleRemoval(id, file: file)
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
        guard let (photo, booth, hidden) = try row(of: id) else {
            if let adopted = try adoptAtStart(file, described: readSidecar(of: file)) { actions.append(adopted) }
            return actions
        }
        // A row of the same id with another original is no crash's doing: `check` reports it.
        guard photo.file == file else { return actions }
        if let sidecar = readSidecar(of: file), sidecar.id == photo.id {
            if let restored = try restore(photo, hidden: hidden, from: sidecar) { actions.append(restored) }
        } else {
            try setAsideUnreadableSidecar(of: photo)
            try DurableFile.replace(
                sidecarURL(of: photo), with: PhotoSidecar(photo, booth: booth, hidden: hidden).xmp,
                temporaryName: Self.temporaryName(for: photo.id, extension: "xmp"))
            actions.append("wrote the sidecar of photo \(photo.id.lowercased) \"\(photo.caption)\"")
        }
        return actions
    }

    /// A deletion: its record's temporary file goes; a deletion whose record is written is
    /// finished (``finishRecycling(_:closing:)``); one without is undone by the crash already.
    private func settleRecycling(_ id: UUID) throws(LibraryError) -> [String] {
        var actions: [String] = []
        let temporary = directory.appendingPathComponent(Self.recycleFolder).appendingPathComponent(".\(id.lowercased).json.tmp")
        if access(temporary.path, F_OK) == 0 {
            try DurableFile.remove(temporary)
            actions.append("removed the temporary file \(Self.recycleFolder)/\(temporary.lastPathComponent) left by an interrupted deletion")
        }
        if let photo = try photo(id: id, includingHidden: true), access(recycleURL(id, extension: "json").path, F_OK) == 0 {
            actions.append(try finishRecycling(photo))
        }
        return actions
    }

    /// The removal of an imported photo, its row deleted: its files go too.
    private func settleRemoval(_ id: UUID, file: String) throws(LibraryError) -> [String] {
        guard try row(of: id) == nil else { return [] }
        var actions = try removeTemporaries(of: id, beside: file)
        let original = directory.appendingPathComponent(file)
        let present = [original, directory.appendingPathComponent(Self.sidecarPath(of: file))].filter { access($0.path, F_OK) == 0 }
        guard !present.isEmpty else { return actions }
        for url in present { try DurableFile.remove(url) }
        try DurableFile.syncFolder(original.deletingLastPathComponent())
        actions.append("removed \(file) and its sidecar: the booth that took the photo deleted it, and its removal here was interrupted")
        return actions
    }

    /// Removes the temporary files of photo `id` beside the original `file`; returns what it did.
    private func removeTemporaries(of id: UUID, beside file: String) throws(LibraryError) -> [String] {
        let folder = URL(fileURLWithPath: file).deletingLastPathComponent().relativePath
        var actions: [String] = []
        for fileExtension in ["jpg", "xmp"] {
            let temporary = "\(folder)/\(Self.temporaryName(for: id, extension: fileExtension))"
            let url = directory.appendingPathComponent(temporary)
            guard access(url.path, F_OK) == 0 else { continue }
            try DurableFile.remove(url)
            actions.append("removed the temporary file \(temporary) left by an interrupted save")
        }
        return actions
    }

    /// Removes the test file of a storage check that a crash interrupted (``StorageHealth``).
    private func removeStorageProbe() throws(LibraryError) -> [String] {
        let probe = "\(Self.photosFolder)/\(DurableFile.probeName)"
        guard access(directory.appendingPathComponent(probe).path, F_OK) == 0 else { return [] }
        try DurableFile.remove(directory.appendingPathComponent(probe))
        return ["removed the temporary file \(probe) left by an interrupted storage check"]
    }

    // MARK: The full check's bookkeeping

    /// The highest intent's number: the full check that begins now settles the intents up to it.
    func lastIntent() throws(LibraryError) -> Int64? {
        try read("read the operations in flight") { db in try Int64.fetchOne(db, sql: "SELECT MAX(seq) FROM in_flight") }
    }

    /// Notes that every photo was checked: no full check is due any more, the intents up to
    /// `seq` are settled, and the count of changes moves past what `photobooth.changes` says, so
    /// that the next start does not take the catalog for one that lost commits again.
    func fullCheckDone(settlingUpTo seq: Int64?) throws(LibraryError) {
        let mirror = readChangesFile()
        try write("note the check of every photo") { db in
            let state = try Self.changeState(in: db)
            let floor = mirror.flatMap { $0.identity == state.identity ? $0.changes : nil } ?? 0
            try db.execute(sql: "UPDATE catalog_state SET changes = MAX(changes, ?) + 1, full_check_due = NULL", arguments: [floor])
            if let seq { try db.execute(sql: "DELETE FROM in_flight WHERE seq <= ?", arguments: [seq]) }
        }
    }

    /// Why the next start checks every photo (`nil`: it need not).
    func fullCheckDue() throws(LibraryError) -> String? {
        try read("read the catalog's state") { db in try String.fetchOne(db, sql: "SELECT full_check_due FROM catalog_state") }
    }

    /// Makes the next start check every photo, for `reason`, or no longer (`nil`).
    func setFullCheckDue(_ reason: String?) throws(LibraryError) {
        try write("note the check due at the next start") { db in
            try db.execute(sql: "UPDATE catalog_state SET full_check_due = ?", arguments: [reason])
        }
    }

    // MARK: The count of changes beside the catalog

    /// The catalog's identity and its count of changes to photos and intents.
    struct ChangeState: Equatable {
        var identity: String
        var changes: Int64
    }

    /// The catalog's ``ChangeState``, inside a transaction.
    static func changeState(in db: Database) throws -> ChangeState {
        let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT identity, changes FROM catalog_state"))
        return ChangeState(identity: row?["identity"] ?? "", changes: row?["changes"] ?? 0)
    }

    /// Writes `state` to `photobooth.changes` after a commit, when its count is higher than what
    /// this library wrote there last (or found there, for the same catalog): never lower, so
    /// that a catalog that lost commits stays known as such until a full check. Through a
    /// temporary file and a rename, so that the file is whole or old; without `fsync`, as a
    /// stale file only lets a loss go unnoticed. Nothing is written for a catalog being
    /// rebuilt, nor said when the write fails.
    func mirrorChanges(_ state: ChangeState) {
        guard catalogPath == directory.appendingPathComponent(Self.catalogName).path else { return }
        mirroredChanges.withLock { mirrored in
            if mirrored == nil {
                mirrored = readChangesFile().flatMap { $0.identity == state.identity ? $0.changes : nil } ?? 0
            }
            guard state.changes > mirrored ?? 0 else { return }
            let path = directory.appendingPathComponent(Self.changesFileName).path
            let temporary = directory.appendingPathComponent(".\(Self.changesFileName).tmp").path
            let text = Array("photobooth catalog \(state.identity) changes \(state.changes)\n".utf8)
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { return }
            let written = text.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            Glibc.close(descriptor)
            guard written == text.count, rename(temporary, path) == 0 else { return }
            mirrored = state.changes
        }
    }

    /// What `photobooth.changes` says; `nil` when it is missing or does not read as written.
    func readChangesFile() -> ChangeState? {
        guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(Self.changesFileName).path),
            data.count < 200, let text = String(data: data, encoding: .utf8), let line = text.split(separator: "\n").first,
            text.hasPrefix(line + "\n")
        else { return nil }
        let words = line.split(separator: " ")
        guard words.count == 5, words[0] == "photobooth", words[1] == "catalog", words[3] == "changes", let changes = Int64(words[4]),
            changes >= 0
        else { return nil }
        return ChangeState(identity: String(words[2]), changes: changes)
    }
}
