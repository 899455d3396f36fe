import BoothCore
import Foundation
import GRDB
import Glibc
import Logging
import Synchronization

/// The photo library: originals as files under `photos/`, each with an XMP sidecar that says
/// what the library knows of it, and a SQLite catalog of them.
///
/// ```
/// <directory>/
///   photobooth.sqlite (+ -wal, -shm)
///   photos/YYYY/MM/DD/<uuid>.jpg, <uuid>.xmp
/// ```
///
/// The sidecar is written before the catalog, at each save and each change: it is never older
/// than the catalog's row, so originals and sidecars alone can rebuild the catalog
/// (``reconcile()``, ``rebuildCatalog(in:thumbnailer:logger:)``).
///
/// The catalog runs in WAL mode with `synchronous=FULL`: each commit is on disk when it
/// returns, so a photo the booth reported as saved survives a power cut, not only a crash.
/// NORMAL would be faster but may lose the last commits on power loss. A photo is committed
/// once per shot, so the extra `fsync` costs nothing a guest notices.
public final class PhotoLibrary: Sendable {
    /// The catalog's file name inside the library folder.
    public static let catalogName = "photobooth.sqlite"
    /// The folder of originals inside the library folder.
    public static let photosFolder = "photos"

    /// The library folder.
    public let directory: URL
    let database: any DatabaseWriter
    /// The catalog file, as messages name it.
    let catalogPath: String
    /// Whether the catalog is open for reading only: its disk was full (or read-only, or not the
    /// booth's to write) when it was opened, so SQLite could not set up the shared memory a
    /// writer needs. Everything that reads works; writes throw ``LibraryError/storageFull``.
    /// Opening it again once the disk can take writes gives a writable catalog.
    public let isReadOnly: Bool
    let thumbnailer: any Thumbnailer
    let logger: Logger
    /// The booth the photos saved here are from, for their sidecars.
    let boothName: String
    /// The next photo number to hand out. Numbers are never reused, not even those of lost photos.
    private let nextNumber: Mutex<Int>
    /// Held while a photo is changed or recycled, from reading its row to writing the catalog:
    /// two changes (a name from the keypad, a hide over the web) must not each write a sidecar
    /// from the row before the other, nor share its temporary file, and a change must not write
    /// a sidecar back into photos/ after a deletion moved it away.
    let changing = Mutex(())
    /// The count of changes last written to `photobooth.changes` (``mirrorChanges(_:)``); `nil`
    /// until the first commit reads the file.
    let mirroredChanges = Mutex<Int64?>(nil)
    /// Called with the name of each step of an operation that writes into photos/, between the
    /// steps: tests copy the library folder there, as a crash at that instant would leave it.
    let stepReached = Mutex<(@Sendable (String) -> Void)?>(nil)
    /// Raised after every commit that queued something for the event's bucket, so that the sync
    /// worker wakes at once rather than at its next poll.
    public let queuedForSync = LatestValue<Int>()
    private let queuedCount = Mutex(0)
    /// Raised after every commit that changed the `photo` table (a save, an import, a rename,
    /// a hide, a favourite, a deletion, a repair): what the web gallery keeps of its answers is
    /// good only for the generation it was made in.
    public let changes = PhotoChanges()
    /// How many catalog rows had an id that is not a photo id (``wellFormedID``) when the
    /// library was opened. The booth never writes one (a hand edit or damage does): such a row
    /// has no identity to show it by, so every listing and count leaves it out alike and
    /// ``check()`` reports it. The test costs a pattern match per row, so queries make it only
    /// when there is such a row.
    let malformedRowCount: Int

    /// Opens the library in `directory` and brings its catalog to the current schema. On a disk
    /// so full that SQLite cannot open the catalog for writing, or one that cannot be written at
    /// all, it is opened for reading only (``isReadOnly``): the photos can still be listed,
    /// shown, exported and checked.
    ///
    /// - Parameters:
    ///   - create: create the folder and catalog when they do not exist (the booth does); when
    ///     `false`, a missing catalog is an error (a typo in `--data-dir` should not look like an
    ///     empty library).
    ///   - boothName: the booth the photos added here are from, as their sidecars say.
    public convenience init(
        directory: URL, thumbnailer: any Thumbnailer, logger: Logger, create: Bool, boothName: String = ""
    ) throws(LibraryError) {
        try self.init(
            directory: directory, catalogFile: Self.catalogName, thumbnailer: thumbnailer, logger: logger, create: create,
            boothName: boothName)
    }

    /// Opens the library with its catalog in `catalogFile`: a rebuild makes the new catalog
    /// under another name and puts it in place once it is whole.
    init(
        directory: URL, catalogFile: String, thumbnailer: any Thumbnailer, logger: Logger, create: Bool, boothName: String
    ) throws(LibraryError) {
        self.directory = directory.standardizedFileURL
        self.thumbnailer = thumbnailer
        self.logger = logger
        self.boothName = boothName
        let catalog = self.directory.appendingPathComponent(catalogFile).path
        catalogPath = catalog
        if create {
            try DurableFile.makeFolders(self.directory.appendingPathComponent(Self.photosFolder))
        } else if !FileManager.default.fileExists(atPath: catalog) {
            throw LibraryError.noLibrary(at: self.directory)
        }
        do {
            database = try Self.openForWriting(catalog)
            isReadOnly = false
        } catch let error where Self.readOnlyReason(error, at: self.directory) != nil {
            let reason = Self.readOnlyReason(error, at: self.directory)!
            do {
                database = try Self.openForReading(catalog)
                isReadOnly = true
            } catch {
                throw reason == .full
                    ? LibraryError.storageFull("open the catalog", catalog)
                    : LibraryError.database(error, while: "open the catalog", at: catalog)
            }
            let advice = reason == .full ? LibraryError.freeSpaceAdvice(for: self.directory.path) : reason.description
            logger.warning(
                """
                The catalog \(catalog) is open for reading only: photos can be looked at but not saved. \(advice)
                """)
        } catch {
            throw LibraryError.database(error, while: "open the catalog", at: catalog)
        }
        do {
            let (highest, malformed) = try database.read { db in
                (
                    try Int.fetchOne(
                        db, sql: "SELECT MAX(highest) FROM (SELECT MAX(number) AS highest FROM photo UNION ALL SELECT MAX(number) FROM lost_photo)"),
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM photo WHERE NOT (\(Self.wellFormedID))") ?? 0
                )
            }
            nextNumber = Mutex((highest ?? 0) + 1)
            malformedRowCount = malformed
        } catch {
            throw LibraryError.database(error, while: "open the catalog", at: catalog)
        }
        // Every writer of the `photo` table, now and to come, goes through this connection.
        if !isReadOnly { database.add(transactionObserver: changes, extent: .databaseLifetime) }
        if malformedRowCount > 0 {
            logger.warning(
                """
                The catalog \(catalog) has \(malformedRowCount) photo row\(malformedRowCount == 1 ? "" : "s") whose id is not a photo id; \
                the gallery and every list leave \(malformedRowCount == 1 ? "it" : "them") out. `photobooth check` names \
                \(malformedRowCount == 1 ? "it" : "them"), and `photobooth check --repair` records the photo\(malformedRowCount == 1 ? "" : "s") again from \
                the original\(malformedRowCount == 1 ? "" : "s") and sidecar\(malformedRowCount == 1 ? "" : "s").
                """)
        }
    }

    /// The catalog in WAL mode, migrated, with every commit durable.
    ///
    /// Opening writes when the write-ahead log is missing or empty (GRDB makes one, in a
    /// transaction), so it waits for another process that holds the catalog as ``migrate(_:with:)``
    /// does: up to ``longestMigrationWait``, a step of another opener's migration included.
    private static func openForWriting(_ path: String) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        let started = ContinuousClock.now
        let database = try retryingWhileBusy(since: started) { try DatabasePool(path: path, configuration: configuration) }
        // On the writer, the one connection that commits, and only once the pool is open:
        // GRDB sets synchronous=NORMAL there when it turns WAL on, after prepareDatabase.
        try database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        try migrate(database)
        return database
    }

    /// How long an opener waits, in all, for another process's migration of the catalog.
    static let longestMigrationWait = Duration.seconds(600)

    /// `body`'s result, tried again while it fails because another connection holds the
    /// catalog (each try already waits out the busy timeout), until ``longestMigrationWait``
    /// after `started`.
    private static func retryingWhileBusy<Value>(since started: ContinuousClock.Instant, _ body: () throws -> Value) throws -> Value {
        while true {
            do {
                return try body()
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && ContinuousClock.now - started < longestMigrationWait {
                continue
            }
        }
    }

    /// Brings the catalog up to date, also when another process (the booth and `photobooth list`
    /// started together after an upgrade) does the same at the same time. The migrator reads
    /// which migrations are applied before it runs each in a transaction of its own; two
    /// processes both read "up to v6", one applies v7, and the other's v7 then fails ("duplicate
    /// column"). That failure rolls back; read again, the list has grown, and the migrator has
    /// less or nothing left to do. A failure with nobody else migrating is thrown as it is.
    ///
    /// One step of another process's migration may hold the catalog longer than the busy timeout
    /// (10 s): building the name index of a large library on an SD card, or any library on a
    /// loaded machine. While the catalog is busy and not yet up to date, the wait goes on, up to
    /// ``longestMigrationWait`` in all.
    static func migrate(_ database: some DatabaseWriter, with migrator: DatabaseMigrator = LibrarySchema.migrator) throws {
        let started = ContinuousClock.now
        while true {
            let applied = try database.read { try migrator.appliedIdentifiers($0) }
            do {
                // Inside the retry: another process's migration may hold the catalog past the busy
                // timeout, and has then made progress.
                if try database.read({ try !migrator.hasCompletedMigrations($0) }) {
                    try database.write { try LibrarySchema.noteMigrating($0) }
                }
                try migrator.migrate(database)
                return
            } catch {
                let now = try database.read { try migrator.appliedIdentifiers($0) }
                let busy = (error as? DatabaseError)?.resultCode == .SQLITE_BUSY
                guard now.count > applied.count || (busy && ContinuousClock.now - started < longestMigrationWait) else { throw error }
            }
        }
    }

    /// The catalog for reading only, on a disk too full to grow SQLite's shared-memory file: with
    /// `readonly_shm` SQLite reads the write-ahead log into memory instead. That needs the
    /// `-shm` file to exist, which an empty one does (it takes an inode, no space); it is made
    /// as SQLite makes it, owned like the catalog.
    private static func openForReading(_ path: String) throws -> DatabaseQueue {
        let shm = path + "-shm"
        if !FileManager.default.fileExists(atPath: shm) {
            var owner = stat()
            guard stat(path, &owner) == 0 else { throw DatabaseError(resultCode: .SQLITE_CANTOPEN) }
            let descriptor = open(shm, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, owner.st_mode & 0o777)
            if descriptor >= 0 {
                if geteuid() == 0 { _ = fchown(descriptor, owner.st_uid, owner.st_gid) }
                Glibc.close(descriptor)
            }
        }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "/-._~"))
        let uri = "file:" + (path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path) + "?mode=ro&readonly_shm=1"
        let database = try DatabaseQueue(path: uri, configuration: configuration)
        // A catalog of an older version cannot be brought up to date without writing.
        guard try database.read({ try LibrarySchema.migrator.hasCompletedMigrations($0) }) else {
            throw DatabaseError(resultCode: .SQLITE_READONLY, message: "the catalog needs an upgrade, which needs free space")
        }
        return database
    }

    /// Why opening the catalog for writing failed, when the library's disk is to blame: SQLite
    /// could not write (full, read-only, an I/O error growing its shared memory) and the disk
    /// has next to nothing left, or cannot be written. `nil` for any other failure.
    private static func readOnlyReason(_ error: any Error, at directory: URL) -> StorageHealth.Problem? {
        guard let code = (error as? DatabaseError)?.resultCode,
            [ResultCode.SQLITE_FULL, .SQLITE_IOERR, .SQLITE_CANTOPEN, .SQLITE_READONLY].contains(code)
        else { return nil }
        return StorageHealth.check(directory, reserveBytes: 0).problem
    }

    /// Closes the catalog; the library cannot be used afterwards. Before its files are set aside
    /// (``rebuildCatalog(in:thumbnailer:logger:boothName:)``), so that no connection of this
    /// library touches them any more.
    public func close() {
        try? database.close()
    }

    /// Moves everything in the write-ahead log into the catalog file, then closes it: the file
    /// alone is then the whole catalog.
    func closeCheckpointed() throws(LibraryError) {
        do {
            try database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
            try database.close()
        } catch {
            throw LibraryError.database(error, while: "close the catalog", at: catalogPath)
        }
    }

    /// Hands out the next photo number (for the default caption "Photo 42").
    public func reservePhotoNumber() -> Int {
        nextNumber.withLock { number in
            defer { number += 1 }
            return number
        }
    }

    /// Where the original of `photo` is.
    public func url(of photo: Photo) -> URL {
        directory.appendingPathComponent(photo.file)
    }

    /// Where the sidecar of `photo` is: beside its original, `<uuid>.xmp`.
    public func sidecarURL(of photo: Photo) -> URL {
        directory.appendingPathComponent(Self.sidecarPath(of: photo.file))
    }

    /// Numbers of adopted photos come from their sidecars: the next number handed out is above
    /// them all.
    func numberTaken(_ number: Int) {
        nextNumber.withLock { $0 = max($0, number + 1) }
    }

    /// How long the steps of ``add(_:thumbnail:id:number:caption:createdAt:camera:perceptualHash:)`` took.
    public struct SaveTimings: Sendable {
        /// The catalog transaction of the save's intent (``beginOperation(_:of:file:)``).
        public var intent: Duration
        /// Writing the temporary file, `fsync`, rename and `fsync` of the folder.
        public var write: Duration
        /// The catalog transaction of the row (which ends the intent).
        public var commit: Duration
    }

    /// Stores a new photo durably: its intent first (``beginOperation(_:of:file:)``), then the
    /// original and its sidecar (temporary files, `fsync`, renames, `fsync` of the folder), then
    /// its catalog row in one transaction with the intent's end. When this returns, the photo
    /// survives a crash or power cut. The original is never rewritten afterwards.
    ///
    /// `perceptualHash` is the picture's fingerprint for near-duplicates, when the caller made
    /// it from the decode it already did; a photo without one gets it at the next start.
    public func add(
        _ jpeg: Data, thumbnail: Thumbnail, id: UUID, number: Int, caption: Caption, createdAt: Date, camera: CameraModel? = nil,
        perceptualHash: UInt64? = nil
    ) throws(LibraryError) -> (Photo, SaveTimings) {
        let createdAt = createdAt.roundedToMilliseconds
        let file = Self.relativePath(for: id, createdAt: createdAt)
        let photo = Photo(
            id: id, number: number, caption: caption, createdAt: createdAt,
            width: thumbnail.sourceWidth, height: thumbnail.sourceHeight, byteCount: jpeg.count, file: file, camera: camera,
            booth: boothName)
        let clock = ContinuousClock()
        let started = clock.now
        let original = directory.appendingPathComponent(file)
        let sidecar = directory.appendingPathComponent(Self.sidecarPath(of: file))
        guard !isReadOnly else { throw LibraryError.readOnlyCatalog("save a photo", catalogPath) }
        let intent = try beginOperation(.save, of: id, file: file)
        let intended = clock.now
        try DurableFile.write([
            (jpeg, original, Self.temporaryName(for: id)),
            (PhotoSidecar(photo, booth: boothName, hidden: false).xmp, sidecar, Self.temporaryName(for: id, extension: "xmp")),
        ])
        reached("save: files in place")
        let written = clock.now
        do {
            try insert(photo, thumbnail: thumbnail.jpeg, booth: boothName, perceptualHash: perceptualHash, closing: intent)
        } catch {
            // The guest is told that this photo was not saved: the original must not be adopted
            // at the next start, and its space goes back to the photos that can be saved.
            do {
                try DurableFile.remove(original)
                try DurableFile.remove(sidecar)
                try DurableFile.syncFolder(original.deletingLastPathComponent())
            } catch let removal {
                logger.error(
                    "The original of photo \(id.lowercased), which was not saved, could not be removed (\(removal)); the next start adopts it.")
            }
            throw error
        }
        return (photo, SaveTimings(intent: intended - started, write: written - intended, commit: clock.now - written))
    }

    /// Changes the caption of a photo: its sidecar first, then the catalog.
    public func setCaption(_ caption: Caption, of id: UUID) throws(LibraryError) {
        try change(id, "rename a photo", sidecar: { $0.caption = caption }) { db in
            try db.execute(
                sql: "UPDATE photo SET caption = ?, name_key = ?, search_text = ? WHERE id = ?",
                arguments: [
                    caption.text, NameKey.of(caption, number: try Self.number(of: id, in: db)), NameKey.fold(caption.text),
                    id.lowercased,
                ])
        }
    }

    /// Applies a change to a photo: `sidecar` to its sidecar, written durably, then `update`
    /// to the catalog, with an intent around both (``beginOperation(_:of:file:)``). A change
    /// whose sidecar cannot be written is not made at all, so the sidecar is never older than
    /// the row.
    ///
    /// When the catalog refuses the change, the sidecar is put back as it was, so that the next
    /// start does not make a change the caller was told failed.
    ///
    /// A photo imported from another booth of the event is changed only by what that booth
    /// publishes (`imported`); anyone else is refused, since the next import would undo it.
    func change(
        _ id: UUID, _ operation: String, imported: Bool = false, sidecar modify: (inout PhotoSidecar) -> Void,
        update: (Database) throws -> Void
    ) throws(LibraryError) {
        try changing.withLock { _ throws(LibraryError) in
            guard let (photo, booth, hidden) = try row(of: id) else { throw LibraryError.unknownPhoto(id.lowercased) }
            if let origin = photo.origin, !imported { throw LibraryError.notOurs(operation, photo.id.lowercased, booth: booth, origin: origin) }
            let before = PhotoSidecar(photo, booth: booth, hidden: hidden)
            var sidecar = before
            modify(&sidecar)
            guard !isReadOnly else { throw LibraryError.readOnlyCatalog(operation, catalogPath) }
            let intent = try beginOperation(.change, of: id, file: photo.file)
            let temporaryName = Self.temporaryName(for: id, extension: "xmp")
            try DurableFile.replace(sidecarURL(of: photo), with: sidecar.xmp, temporaryName: temporaryName)
            reached("change: sidecar replaced")
            do throws(LibraryError) {
                try write(operation) { db in
                    try update(db)
                    try Self.queueForSync(id, in: db, thumbnail: false)
                    try Self.closeOperation(intent, in: db)
                }
                noteQueuedForSync()
            } catch {
                do {
                    try DurableFile.replace(sidecarURL(of: photo), with: before.xmp, temporaryName: temporaryName)
                } catch let restoring {
                    logger.error(
                        "The sidecar of photo \(id.lowercased) could not be put back after a failed change (\(restoring)); the next start applies the change from it."
                    )
                }
                throw error
            }
        }
    }

    /// A photo, hidden or not, with the booth it is from and whether it is hidden.
    func row(of id: UUID) throws(LibraryError) -> (Photo, booth: String, hidden: Bool)? {
        try read("look up a photo") { db in
            try Row.fetchOne(
                db, sql: "SELECT \(Self.photoColumns), booth, hidden FROM photo WHERE id = ?", arguments: [id.lowercased]
            ).map { (try Self.photo(from: $0), $0["booth"], $0["hidden"]) }
        }
    }

    /// The photos, newest first: a page of `limit` after the first `offset` (all when `limit`
    /// is nil). Hidden photos are left out unless `includingHidden` (see ``setHidden(_:of:)``).
    public func photos(skipping offset: Int = 0, limit: Int? = nil, includingHidden: Bool = false) throws(LibraryError) -> [Photo] {
        try read("list photos") { db in
            try Row.fetchAll(
                db,
                sql: "SELECT \(Self.photoColumns) FROM photo WHERE \(shown(includingHidden)) ORDER BY \(Self.newestFirst) LIMIT ? OFFSET ?",
                arguments: [limit ?? -1, max(offset, 0)]
            ).map(Self.photo(from:))
        }
    }

    /// The photos hidden from guests, newest first: what an operator looks through to unhide one.
    public func hiddenPhotos() throws(LibraryError) -> [Photo] {
        try read("list hidden photos") { db in
            try Row.fetchAll(
                db, sql: "SELECT \(Self.photoColumns) FROM photo WHERE hidden = 1 AND \(wellFormed) ORDER BY \(Self.newestFirst)"
            ).map(Self.photo(from:))
        }
    }

    /// How many photos the library holds; hidden ones count only when `includingHidden`.
    public func count(includingHidden: Bool = false) throws(LibraryError) -> Int {
        try read("count photos") { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM photo WHERE \(shown(includingHidden))") ?? 0
        }
    }

    /// How many visible photos come before `photo` in the newest-first order: its index in the
    /// list that ``photos(skipping:limit:includingHidden:)`` pages through.
    public func position(of photo: Photo) throws(LibraryError) -> Int {
        try read("find a photo's page") { db in
            try countNewer(than: (photo.createdAt.utcTimestamp, photo.number), in: db)
        }
    }

    /// The condition that picks the photos newer than one, in the newest-first order; its
    /// arguments are the photo's `created_at` twice, then its number (``place(_:)``).
    static let newerThan = "(created_at > ? OR (created_at = ? AND number > ?))"

    /// The arguments of ``newerThan`` for the photo at `place` (its `created_at`, its number).
    static func place(_ place: (createdAt: String, number: Int)) -> StatementArguments {
        [place.createdAt, place.createdAt, place.number]
    }

    /// How many visible photos that `condition` picks are newer than the photo at `place`: its
    /// index in their newest-first listing.
    func countNewer(
        than place: (createdAt: String, number: Int), in db: Database, condition: String = "1", arguments: StatementArguments = []
    ) throws -> Int {
        try Int.fetchOne(
            db, sql: "SELECT COUNT(*) FROM photo WHERE \(shown(false)) AND \(condition) AND \(Self.newerThan)",
            arguments: arguments + Self.place(place)) ?? 0
    }

    /// Newest first; photos taken in the same millisecond by their number. The order of the
    /// `photo_newest_first` index (and of `photo_visible_newest_first`, which holds only the
    /// visible photos), so a page never sorts the catalog.
    static let newestFirst = "created_at DESC, number DESC"

    /// The condition that picks the photos a query may see: visible ones unless
    /// `includingHidden`, and never a row without a photo id (``malformedRowCount``). It is
    /// written into the SQL, not bound, because SQLite uses the partial index
    /// `photo_visible_newest_first` only for a query that states the index's own condition.
    func shown(_ includingHidden: Bool) -> String {
        switch (includingHidden, malformedRowCount > 0) {
        case (true, false): "1"
        case (true, true): Self.wellFormedID
        case (false, false): "hidden = 0"
        case (false, true): "hidden = 0 AND \(Self.wellFormedID)"
        }
    }

    /// The condition that leaves out rows without a photo id, when the catalog has any.
    var wellFormed: String {
        malformedRowCount > 0 ? Self.wellFormedID : "1"
    }

    /// Whether a row's id is a photo id as the catalog writes them: a UUID in lowercase
    /// (`UUID.lowercased`), which is what lookups by id compare with.
    static let wellFormedID: String = {
        let hex = "[0-9a-f]"
        let groups = [8, 4, 4, 4, 12].map { String(repeating: hex, count: $0) }
        return "id GLOB '\(groups.joined(separator: "-"))'"
    }()

    /// The photo with this id, or `nil`; a hidden photo is `nil` unless `includingHidden`.
    public func photo(id: UUID, includingHidden: Bool = false) throws(LibraryError) -> Photo? {
        try read("look up a photo") { db in
            try Row.fetchOne(
                db, sql: "SELECT \(Self.photoColumns) FROM photo WHERE \(shown(includingHidden)) AND id = ?",
                arguments: [id.lowercased]
            ).map(Self.photo(from:))
        }
    }

    /// Marks a photo as one of the event's best, or no longer: favourites come first in the
    /// slideshow and make an album of their own. Kept in the sidecar like the name.
    public func setFavourite(_ favourite: Bool, of id: UUID) throws(LibraryError) {
        try change(id, favourite ? "mark a favourite" : "unmark a favourite", sidecar: { $0.favourite = favourite }) { db in
            try db.execute(sql: "UPDATE photo SET favourite = ? WHERE id = ?", arguments: [favourite, id.lowercased])
        }
    }

    /// Takes a photo out of the guests' sight (gallery, lists, direct links) or brings it back.
    /// The original and the row stay; the booth's operator still sees it (`includingHidden`).
    public func setHidden(_ hidden: Bool, of id: UUID) throws(LibraryError) {
        try change(id, hidden ? "hide a photo" : "unhide a photo", sidecar: { $0.hidden = hidden }) { db in
            try db.execute(sql: "UPDATE photo SET hidden = ? WHERE id = ?", arguments: [hidden, id.lowercased])
        }
    }

    /// The photo whose id is `reference` or starts with it (as with git commits, a few
    /// characters are enough when they are unique).
    public func photo(matching reference: String) throws(LibraryError) -> Photo {
        let prefix = reference.lowercased().trimmingCharacters(in: .whitespaces)
        guard !prefix.isEmpty, prefix.allSatisfy({ $0.isHexDigit || $0 == "-" }) else {
            throw LibraryError.unknownPhoto(reference)
        }
        let matches = try read("look up a photo") { db in
            try Row.fetchAll(
                db, sql: "SELECT \(Self.photoColumns) FROM photo WHERE \(wellFormed) AND substr(id, 1, ?) = ? LIMIT 2",
                arguments: [prefix.count, prefix]
            ).map(Self.photo(from:))
        }
        switch matches.count {
        case 0: throw LibraryError.unknownPhoto(reference)
        case 1: return matches[0]
        default: throw LibraryError.ambiguousPhoto(reference)
        }
    }

    /// The thumbnail JPEG of a photo; `nil` for an unknown photo, and for a hidden one unless
    /// `includingHidden`.
    public func thumbnail(of id: UUID, includingHidden: Bool = false) throws(LibraryError) -> Data? {
        try read("read a thumbnail") { db in
            try Data.fetchOne(
                db, sql: "SELECT thumbnail FROM photo WHERE \(shown(includingHidden)) AND id = ?",
                arguments: [id.lowercased])
        }
    }

    /// Frees what SQLite keeps in memory for the catalog: the writer's cache of pages, and the
    /// reader connections with theirs (each up to 2 MB, filled with thumbnails by a burst of
    /// photos), which open again when next needed. It waits for a write under way: call it off
    /// Swift's cooperative pool, when the booth is quiet.
    public func releaseMemory() {
        switch database {
        case let pool as DatabasePool: pool.releaseMemory()
        case let queue as DatabaseQueue: queue.releaseMemory()
        default: break
        }
    }

    /// The catalog's journal mode, as SQLite reports it ("wal").
    public func journalMode() throws(LibraryError) -> String {
        try read("read the journal mode") { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "" }
    }

    // MARK: Internals shared with reconciliation and repair

    /// Records a photo whose original and sidecar are on disk; a photo taken here is queued for
    /// the event's bucket in the same transaction, which also ends the operation's intent
    /// (`closing`), when it has one, and does what else the photo needs kept with it (`also`).
    func insert(
        _ photo: Photo, thumbnail: Data, booth: String, hidden: Bool = false, perceptualHash: UInt64? = nil, closing intent: Int64? = nil,
        also: (Database) throws -> Void = { _ in }
    ) throws(LibraryError) {
        try write("record the photo \(photo.id.lowercased)") { db in
            try db.execute(
                sql: """
                    INSERT INTO photo (id, number, caption, created_at, thumbnail, width, height, byte_count, file, booth, hidden,
                                       camera_make, camera_model, origin, name_key, search_text, favourite, perceptual_hash)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    photo.id.lowercased, photo.number, photo.caption.text, photo.createdAt.utcTimestamp, thumbnail, photo.width,
                    photo.height, photo.byteCount, photo.file, booth, hidden, photo.camera?.make, photo.camera?.model, photo.origin,
                    NameKey.of(photo.caption, number: photo.number), NameKey.fold(photo.caption.text), photo.favourite,
                    perceptualHash.map { Int64(bitPattern: $0) },
                ])
            try Self.queueForSync(photo.id, in: db, thumbnail: true)
            try also(db)
            try Self.closeOperation(intent, in: db)
        }
        noteQueuedForSync()
        numberTaken(photo.number)
    }

    /// Wakes the sync worker after a commit that queued a photo.
    func noteQueuedForSync() {
        queuedForSync.publish(
            queuedCount.withLock { count in
                count += 1
                return count
            })
    }

    func read<T>(_ operation: String, _ body: (Database) throws -> T) throws(LibraryError) -> T {
        do {
            return try database.read(body)
        } catch {
            throw LibraryError.database(error, while: operation, at: catalogPath)
        }
    }

    /// Commits `body` as one transaction, on disk when this returns, then mirrors the catalog's
    /// count of changes beside it (``mirrorChanges(_:)``).
    func write<T>(_ operation: String, _ body: (Database) throws -> T) throws(LibraryError) -> T {
        guard !isReadOnly else { throw LibraryError.readOnlyCatalog(operation, catalogPath) }
        do {
            let (result, state) = try database.write { db in (try body(db), try Self.changeState(in: db)) }
            mirrorChanges(state)
            return result
        } catch {
            throw LibraryError.database(error, while: operation, at: catalogPath)
        }
    }

    static let photoColumns =
        "id, number, caption, created_at, width, height, byte_count, file, camera_make, camera_model, origin, booth, favourite"

    /// The number of photo `id`, inside a transaction that changes it (its name key needs it).
    static func number(of id: UUID, in db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT number FROM photo WHERE id = ?", arguments: [id.lowercased]) ?? 0
    }

    /// The photo of a catalog row. A row whose id is not a photo id (``wellFormedID``) has no
    /// identity to give it: queries leave such rows out (``shown(_:)``), and one that gets here
    /// all the same is an error, never a photo with a made-up id.
    static func photo(from row: Row) throws(MalformedRow) -> Photo {
        let number: Int = row["number"]
        let text: String = row["id"]
        guard let id = UUID(uuidString: text), id.lowercased == text else {
            throw MalformedRow(id: text, file: row["file"])
        }
        return Photo(
            id: id,
            number: number,
            caption: Caption(sanitizing: row["caption"] as String) ?? .placeholder(number: number),
            createdAt: Date(utcTimestamp: row["created_at"]) ?? Date(timeIntervalSince1970: 0),
            width: row["width"], height: row["height"], byteCount: row["byte_count"], file: row["file"],
            camera: (row["camera_model"] as String?).map { CameraModel(make: row["camera_make"], model: $0) },
            origin: row["origin"], booth: row["booth"], favourite: row["favourite"])
    }

    /// `photos/YYYY/MM/DD/<uuid>.jpg`, dated in UTC like `created_at`.
    static func relativePath(for id: UUID, createdAt: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let day = calendar.dateComponents([.year, .month, .day], from: createdAt)
        let folder = String(format: "%04d/%02d/%02d", day.year!, day.month!, day.day!)
        return "\(photosFolder)/\(folder)/\(id.lowercased).jpg"
    }

    /// The sidecar beside the original `file`: the same path, ending in `.xmp`.
    static func sidecarPath(of file: String) -> String {
        (file.hasSuffix(".jpg") ? String(file.dropLast(4)) : file) + ".xmp"
    }

    /// Temporary files are hidden and end in `.tmp`, so that reconciliation recognises them.
    static func temporaryName(for id: UUID, extension fileExtension: String = "jpg") -> String {
        ".\(id.lowercased).\(fileExtension).tmp"
    }
}

/// A catalog row whose id is not a photo id: a hand edit or damage, never the booth.
struct MalformedRow: Error, CustomStringConvertible {
    /// The row's id, as the catalog has it.
    var id: String
    /// The original the row names.
    var file: String

    var description: String {
        "the catalog row of \(file) has the id \"\(id)\", which is not a photo id; `photobooth check` reports it"
    }
}
