import BoothCore
import Foundation
import GRDB
import Glibc
import Logging

/// The library's SQLite catalog, and the one way the library's types read and write it.
///
/// It runs in WAL mode with `synchronous=FULL`: each commit is on disk when it returns, so a
/// photo the booth reported as saved survives a power cut, not only a crash. NORMAL would be
/// faster but may lose the last commits on power loss. A photo is committed once per shot, so
/// the extra `fsync` costs nothing a guest notices.
///
/// Every commit goes through ``write(_:_:)``, which reads the catalog's counters in its own
/// transaction: after the commit it moves the gallery's change signal (``GalleryChanges``)
/// when what guests see changed, and writes the count of commits beside the catalog
/// (``CommitMirror``), by which a start sees that the catalog lost some.
final class Catalog: Sendable {
    let database: any DatabaseWriter
    /// The catalog file, as messages name it.
    let path: String
    /// Whether the catalog is open for reading only: its disk was full (or read-only, or not the
    /// booth's to write) when it was opened, so SQLite could not set up the shared memory a
    /// writer needs. Everything that reads works; writes throw ``LibraryError/storageFull``.
    /// Opening it again once the disk can take writes gives a writable catalog.
    let isReadOnly: Bool
    /// What the gallery shows, as a number that moves with it.
    let changes: GalleryChanges
    /// The count of commits beside the catalog; `nil` for a catalog being rebuilt under
    /// another name, which has no such file until it takes the catalog's place.
    let commits: CommitMirror?

    /// Opens the catalog `file` in `directory` and brings it to the current schema. On a disk so
    /// full that SQLite cannot open it for writing, or one that cannot be written at all, it is
    /// opened for reading only (``isReadOnly``), and `logger` says so.
    init(directory: URL, file: String, isTheLibrarys: Bool, logger: Logger) throws(LibraryError) {
        let path = directory.appendingPathComponent(file).path
        self.path = path
        do {
            database = try Self.openForWriting(path)
            isReadOnly = false
        } catch let error where Self.readOnlyReason(error, at: directory) != nil {
            let reason = Self.readOnlyReason(error, at: directory)!
            do {
                database = try Self.openForReading(path)
                isReadOnly = true
            } catch {
                throw reason == .full
                    ? LibraryError.storageFull("open the catalog", path)
                    : LibraryError.database(error, while: "open the catalog", at: path)
            }
            let advice = reason == .full ? LibraryError.freeSpaceAdvice(for: directory.path) : reason.description
            logger.warning(
                """
                The catalog \(path) is open for reading only: photos can be looked at but not saved. \(advice)
                """)
        } catch {
            throw LibraryError.database(error, while: "open the catalog", at: path)
        }
        do {
            changes = try GalleryChanges(database, files: [path, path + "-wal"])
        } catch {
            throw LibraryError.database(error, while: "open the catalog", at: path)
        }
        commits = isTheLibrarys ? CommitMirror(directory: directory) : nil
    }

    /// `body`'s result, read in one transaction.
    func read<T>(_ operation: String, _ body: (Database) throws -> T) throws(LibraryError) -> T {
        do {
            return try database.read(body)
        } catch {
            throw LibraryError.database(error, while: operation, at: path)
        }
    }

    /// Commits `body` as one transaction, on disk when this returns. Then the gallery's change
    /// signal moves, if the transaction changed what guests see, and the count of commits is
    /// written beside the catalog (``CommitMirror/mirror(_:)``), before the caller is told.
    @discardableResult
    func write<T>(_ operation: String, _ body: (Database) throws -> T) throws(LibraryError) -> T {
        guard !isReadOnly else { throw LibraryError.readOnlyCatalog(operation, path) }
        do {
            let (result, state) = try database.write { db in (try body(db), try CatalogStateRecord.current(db)) }
            changes.committed(state.galleryCount)
            commits?.mirror(state.commitCount)
            return result
        } catch {
            throw LibraryError.database(error, while: operation, at: path)
        }
    }

    /// Closes the catalog; it cannot be used afterwards.
    func close() {
        try? database.close()
    }

    /// Moves everything in the write-ahead log into the catalog file, then closes it: the file
    /// alone is then the whole catalog.
    func closeCheckpointed() throws(LibraryError) {
        do {
            try database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
            try database.close()
        } catch {
            throw LibraryError.database(error, while: "close the catalog", at: path)
        }
    }

    /// Frees what SQLite keeps in memory for the catalog: the writer's cache of pages, and the
    /// reader connections with theirs, which open again when next needed.
    func releaseMemory() {
        switch database {
        case let pool as DatabasePool: pool.releaseMemory()
        case let queue as DatabaseQueue: queue.releaseMemory()
        default: break
        }
    }

    // MARK: Opening

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
}
