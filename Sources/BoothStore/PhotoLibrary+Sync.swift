import BoothCore
import Foundation
import GRDB

/// A photo waiting for the event's bucket: taken, changed or deleted here since the store last
/// confirmed it.
public struct OutboxEntry: Sendable, Hashable {
    public let id: UUID
    /// Raised by every change; the entry is done only if no change came while it was uploaded.
    public let version: Int
    /// Whether the thumbnail goes too (a new photo).
    public let thumbnail: Bool
    public let queuedAt: Date
    /// Failed attempts so far.
    public let attempts: Int
}

/// How far the outbox is, for `photobooth sync status`, `/metrics` and the log.
public struct OutboxSummary: Sendable, Hashable {
    public let pending: Int
    public let oldest: Date?
    /// The last error of an entry still waiting, if any.
    public let lastError: String?
}

/// The catalog's side of the event sync: the outbox of photos taken here (written in the same
/// transaction as each change), and the photos imported from the event's other booths.
extension PhotoLibrary {
    /// Queues photo `id` for the bucket, in the transaction of the change itself: a crash or
    /// power cut can never leave a change the bucket will not hear of. Photos imported from
    /// another booth are not queued: only the booth that took a photo writes it to the bucket.
    static func queueForSync(_ id: UUID, in db: Database, thumbnail: Bool) throws {
        try db.execute(
            sql: """
                INSERT INTO sync_outbox (photo_id, thumbnail, queued_at)
                SELECT id, ?, ? FROM photo WHERE id = ? AND origin IS NULL
                ON CONFLICT(photo_id) DO UPDATE SET
                    version = version + 1, thumbnail = thumbnail OR excluded.thumbnail, attempts = 0, next_attempt_at = NULL
                """,
            arguments: [thumbnail, Date().utcTimestamp, id.lowercased])
    }

    /// The oldest entry due at `now` (not waiting for a retry), or `nil`.
    public func nextUpload(at now: Date = Date(), skipping skipped: Set<UUID> = []) throws(LibraryError) -> OutboxEntry? {
        try read("read the sync outbox") { db in
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT photo_id, version, thumbnail, queued_at, attempts FROM sync_outbox
                    WHERE next_attempt_at IS NULL OR next_attempt_at <= ? ORDER BY queued_at, photo_id
                    """,
                arguments: [now.utcTimestamp])
            while let row = try rows.next() {
                guard let id = UUID(uuidString: row["photo_id"]), !skipped.contains(id) else { continue }
                return OutboxEntry(
                    id: id, version: row["version"], thumbnail: row["thumbnail"],
                    queuedAt: Date(utcTimestamp: row["queued_at"]) ?? now, attempts: row["attempts"])
            }
            return nil
        }
    }

    /// When the next entry waiting for a retry is due; `nil` when none waits.
    public func nextRetry() throws(LibraryError) -> Date? {
        try read("read the sync outbox") { db in
            try String.fetchOne(db, sql: "SELECT MIN(next_attempt_at) FROM sync_outbox").flatMap(Date.init(utcTimestamp:))
        }
    }

    /// Makes every entry waiting for a retry due now: at start, and when the operator asks.
    public func retryNow() throws(LibraryError) {
        try write("update the sync outbox") { db in
            try db.execute(sql: "UPDATE sync_outbox SET next_attempt_at = NULL WHERE next_attempt_at IS NOT NULL")
        }
    }

    /// The store confirmed `entry`: it leaves the outbox, unless a change came meanwhile.
    public func uploaded(_ entry: OutboxEntry) throws(LibraryError) {
        try write("update the sync outbox") { db in
            try db.execute(
                sql: "DELETE FROM sync_outbox WHERE photo_id = ? AND version = ?", arguments: [entry.id.lowercased, entry.version])
        }
    }

    /// `entry` failed: it is tried again at `retryAt`, and keeps `error` for the status.
    public func uploadFailed(_ entry: OutboxEntry, error: String, retryAt: Date) throws(LibraryError) {
        try write("update the sync outbox") { db in
            try db.execute(
                sql: "UPDATE sync_outbox SET attempts = attempts + 1, next_attempt_at = ?, last_error = ? WHERE photo_id = ?",
                arguments: [retryAt.utcTimestamp, error, entry.id.lowercased])
        }
    }

    public func outboxSummary() throws(LibraryError) -> OutboxSummary {
        try read("read the sync outbox") { db in
            let row = try Row.fetchOne(db, sql: "SELECT COUNT(*) AS pending, MIN(queued_at) AS oldest FROM sync_outbox")
            let error = try String.fetchOne(
                db, sql: "SELECT last_error FROM sync_outbox WHERE last_error IS NOT NULL ORDER BY next_attempt_at DESC LIMIT 1")
            return OutboxSummary(
                pending: row?["pending"] ?? 0, oldest: (row?["oldest"] as String?).flatMap(Date.init(utcTimestamp:)), lastError: error)
        }
    }

    /// The record of a photo of this booth as the bucket gets it: `nil` when the photo is gone
    /// (its tombstone is then due) or was imported.
    public func syncRecord(of id: UUID, event: String) throws(LibraryError) -> (Photo, PhotoSidecar)? {
        guard let (photo, booth, hidden) = try row(of: id), photo.origin == nil else { return nil }
        var record = PhotoSidecar(photo, booth: booth, hidden: hidden)
        record.event = event
        return (photo, record)
    }

    /// The tombstone of a deleted photo of this booth, from its recycle record when there is one.
    public func tombstone(of id: UUID, event: String) -> PhotoSidecar {
        let record = (try? Data(contentsOf: recycleURL(id, extension: "json")))
            .flatMap { try? JSONDecoder().decode(RecycledPhoto.self, from: $0) }
        return PhotoSidecar.tombstone(
            id: id, number: record?.number ?? 0, createdAt: record.flatMap { Date(utcTimestamp: $0.createdAt) } ?? Date(),
            booth: boothName, event: event)
    }

    // MARK: What the worker remembers

    /// A value the sync worker keeps between runs (last success, last error), or `nil`.
    public func syncState(_ name: String) throws(LibraryError) -> String? {
        try read("read the sync state") { db in
            try String.fetchOne(db, sql: "SELECT value FROM sync_state WHERE name = ?", arguments: [name])
        }
    }

    public func setSyncState(_ values: [String: String?]) throws(LibraryError) {
        try write("write the sync state") { db in
            for (name, value) in values {
                if let value {
                    try db.execute(
                        sql: "INSERT INTO sync_state (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value",
                        arguments: [name, value])
                } else {
                    try db.execute(sql: "DELETE FROM sync_state WHERE name = ?", arguments: [name])
                }
            }
        }
    }

    /// The ETags of the other booths' records already imported, by key.
    public func seenRecords() throws(LibraryError) -> [String: String] {
        try read("read the imported records") { db in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT key, etag FROM sync_seen").map { ($0["key"], $0["etag"]) })
        }
    }

    public func markSeen(_ key: String, etag: String) throws(LibraryError) {
        try write("note an imported record") { db in
            try db.execute(
                sql: "INSERT INTO sync_seen (key, etag) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET etag = excluded.etag",
                arguments: [key, etag])
        }
    }

    // MARK: Photos of the event's other booths

    /// Adds a photo of another booth, durably, as a photo taken here is added: its intent,
    /// original and sidecar first, then the catalog row, marked with `origin`, the booth folder it came from.
    /// The photo keeps its id, name, time, camera and hidden flag; it gets a number of this
    /// library. Importing a photo already here is an error (``LibraryError/unknownPhoto`` is
    /// never thrown; the catalog refuses the duplicate id).
    @discardableResult
    public func importPhoto(_ jpeg: Data, thumbnail: Thumbnail, record: PhotoSidecar, origin: String) throws(LibraryError) -> Photo {
        let createdAt = record.createdAt.roundedToMilliseconds
        let number = reservePhotoNumber()
        let photo = Photo(
            id: record.id, number: number, caption: record.caption, createdAt: createdAt, width: thumbnail.sourceWidth,
            height: thumbnail.sourceHeight, byteCount: jpeg.count, file: Self.relativePath(for: record.id, createdAt: createdAt),
            camera: record.camera, origin: origin, booth: record.booth, favourite: record.favourite)
        guard !isReadOnly else { throw LibraryError.readOnlyCatalog("import a photo", catalogPath) }
        let original = directory.appendingPathComponent(photo.file)
        let sidecar = directory.appendingPathComponent(Self.sidecarPath(of: photo.file))
        let intent = try beginOperation(.importing, of: photo.id, file: photo.file)
        try DurableFile.write([
            (jpeg, original, Self.temporaryName(for: photo.id)),
            (PhotoSidecar(photo, booth: record.booth, hidden: record.hidden).xmp, sidecar, Self.temporaryName(for: photo.id, extension: "xmp")),
        ])
        reached("import: files in place")
        do {
            try insert(
                photo, thumbnail: thumbnail.jpeg, booth: record.booth, hidden: record.hidden, perceptualHash: thumbnail.perceptualHash,
                closing: intent
            ) { db in try Self.keepDeletionKey(of: record, in: db) }
        } catch {
            try? DurableFile.remove(original)
            try? DurableFile.remove(sidecar)
            throw error
        }
        return photo
    }

    /// Applies what the booth that took an imported photo changed: its name or hidden flag, and
    /// the digest of its deletion key. Only the booth the photo came from (`origin`, its folder)
    /// changes it: a record of another booth's folder is ignored. A photo a guest asked to delete
    /// here stays hidden until its booth deletes it. Returns whether anything changed.
    @discardableResult
    public func applyImported(_ record: PhotoSidecar, from origin: String) throws(LibraryError) -> Bool {
        guard let (photo, _, hidden) = try row(of: record.id), photo.origin == origin else { return false }
        let requested = try deletionRequest(of: record.id).map { !$0.settled } ?? false
        let keepsHidden = record.hidden || requested
        let key = try read("read a photo's deletion key") { db in
            try Row.fetchOne(db, sql: "SELECT key_sha256, until FROM imported_deletion_key WHERE photo_id = ?", arguments: [record.id.lowercased])
                .map { ($0["key_sha256"] as String, $0["until"] as String) }
        }
        if key?.0 != record.deletionKeySHA256 || key?.1 != record.deletableUntil?.utcTimestamp {
            try write("keep a photo's deletion key") { db in try Self.keepDeletionKey(of: record, in: db) }
        }
        guard photo.caption != record.caption || hidden != keepsHidden || photo.favourite != record.favourite else { return false }
        try change(
            record.id, "update an imported photo", imported: true,
            sidecar: { sidecar in
                sidecar.caption = record.caption
                sidecar.hidden = keepsHidden
                sidecar.favourite = record.favourite
            }
        ) { db in
            try db.execute(
                sql: "UPDATE photo SET caption = ?, name_key = ?, search_text = ?, hidden = ?, favourite = ? WHERE id = ?",
                arguments: [
                    record.caption.text, NameKey.of(record.caption, number: photo.number), NameKey.fold(record.caption.text),
                    keepsHidden, record.favourite,
                    record.id.lowercased,
                ])
        }
        return true
    }

    /// Removes an imported photo whose booth deleted it: original, sidecar and row, with no copy
    /// kept (a guest's wish to be forgotten reaches every booth). Only the booth the photo came
    /// from (`origin`) deletes it. Returns whether it was here and removed.
    @discardableResult
    public func removeImported(_ id: UUID, from origin: String) throws(LibraryError) -> Bool {
        try changing.withLock { _ throws(LibraryError) -> Bool in
            guard let photo = try photo(id: id, includingHidden: true), photo.origin == origin else { return false }
            // The intent comes with the row's removal: a crash before the files are gone leaves
            // it, and the next start removes them (``reconcileAtStart()``).
            let intent = try write("remove an imported photo") { db in
                try db.execute(sql: "DELETE FROM photo WHERE id = ?", arguments: [id.lowercased])
                return try Self.insertOperation(.removeImported, of: id, file: photo.file, in: db)
            }
            reached("remove imported: row deleted")
            try DurableFile.remove(url(of: photo))
            try DurableFile.remove(sidecarURL(of: photo))
            try DurableFile.syncFolder(url(of: photo).deletingLastPathComponent())
            reached("remove imported: files removed")
            try write("end the removal of an imported photo") { db in try Self.closeOperation(intent, in: db) }
            return true
        }
    }

    // MARK: A guest's deletion of another booth's photo

    /// Keeps (or forgets) the digest of an imported photo's deletion key, as its record gives it.
    static func keepDeletionKey(of record: PhotoSidecar, in db: Database) throws {
        if let digest = record.deletionKeySHA256, let until = record.deletableUntil {
            try db.execute(
                sql: """
                    INSERT INTO imported_deletion_key (photo_id, key_sha256, until) VALUES (?, ?, ?)
                    ON CONFLICT(photo_id) DO UPDATE SET key_sha256 = excluded.key_sha256, until = excluded.until
                    """,
                arguments: [record.id.lowercased, digest, until.utcTimestamp])
        } else {
            try db.execute(sql: "DELETE FROM imported_deletion_key WHERE photo_id = ?", arguments: [record.id.lowercased])
        }
    }

    /// What the booth that took imported photo `id` published of its deletion key: the key's
    /// SHA-256 in hex and its expiry; `nil` when guests cannot delete it (or it is not imported).
    public func deletionKey(of id: UUID) throws(LibraryError) -> (sha256: String, until: Date)? {
        try read("read a photo's deletion key") { db in
            try Row.fetchOne(db, sql: "SELECT key_sha256, until FROM imported_deletion_key WHERE photo_id = ?", arguments: [id.lowercased])
                .flatMap { row in Date(utcTimestamp: row["until"]).map { (row["key_sha256"], $0) } }
        }
    }

    /// A guest's deletion of imported photo `id`, with the `key` the guest gave (checked by the
    /// caller against ``deletionKey(of:)``): the photo is hidden here at once, and the request
    /// queued for the bucket in the same transaction, where the booth that took the photo finds
    /// it, checks the key with its own secret and deletes the photo everywhere.
    public func requestDeletion(of id: UUID, key: String, at time: Date) throws(LibraryError) {
        try change(id, "hide a photo its guest deleted", imported: true, sidecar: { $0.hidden = true }) { db in
            try db.execute(sql: "UPDATE photo SET hidden = 1 WHERE id = ?", arguments: [id.lowercased])
            try db.execute(
                sql: """
                    INSERT INTO deletion_request (photo_id, key, requested_at) VALUES (?, ?, ?)
                    ON CONFLICT(photo_id) DO UPDATE SET key = excluded.key, requested_at = excluded.requested_at, uploaded_at = NULL
                    """,
                arguments: [id.lowercased, key, time.utcTimestamp])
        }
        noteQueuedForSync()
    }

    /// A guest's request to delete photo `id` made here, uploaded or not, settled or not.
    public func deletionRequest(of id: UUID) throws(LibraryError) -> DeletionRequest? {
        try read("read a deletion request") { db in
            try Row.fetchOne(
                db, sql: "SELECT photo_id, key, requested_at, settled_at FROM deletion_request WHERE photo_id = ?",
                arguments: [id.lowercased]
            ).flatMap(DeletionRequest.init(row:))
        }
    }

    /// The deletion requests made here that the bucket does not have yet, oldest first.
    public func deletionRequestsToUpload() throws(LibraryError) -> [DeletionRequest] {
        try read("read the deletion requests") { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT photo_id, key, requested_at, settled_at FROM deletion_request
                    WHERE uploaded_at IS NULL AND settled_at IS NULL ORDER BY requested_at
                    """
            ).compactMap(DeletionRequest.init(row:))
        }
    }

    /// The store has `request`.
    public func deletionRequestUploaded(_ request: DeletionRequest) throws(LibraryError) {
        try write("note an uploaded deletion request") { db in
            try db.execute(
                sql: "UPDATE deletion_request SET uploaded_at = ? WHERE photo_id = ? AND requested_at = ?",
                arguments: [Date().utcTimestamp, request.id.lowercased, request.requestedAt.utcTimestamp])
        }
    }

    /// The request to delete `id` has done its work (the photo's booth deleted it, and the
    /// request left the bucket); it is kept so that the key, given again, is told so.
    public func settleDeletionRequest(of id: UUID) throws(LibraryError) {
        try write("settle a deletion request") { db in
            try db.execute(sql: "UPDATE deletion_request SET settled_at = ? WHERE photo_id = ?", arguments: [Date().utcTimestamp, id.lowercased])
        }
    }
}

/// A guest's wish to delete a photo of another booth, taken by this reader of the bucket.
public struct DeletionRequest: Sendable, Hashable {
    public let id: UUID
    /// The key the guest gave, which only the photo's own booth can check fully.
    public let key: String
    public let requestedAt: Date
    /// Whether the photo's booth deleted it, and the request left the bucket.
    public let settled: Bool

    public init(id: UUID, key: String, requestedAt: Date, settled: Bool = false) {
        self.id = id
        self.key = key
        self.requestedAt = requestedAt.roundedToMilliseconds
        self.settled = settled
    }

    init?(row: Row) {
        guard let id = UUID(uuidString: row["photo_id"]), let time = Date(utcTimestamp: row["requested_at"]) else { return nil }
        self.init(id: id, key: row["key"], requestedAt: time, settled: (row["settled_at"] as String?) != nil)
    }
}
