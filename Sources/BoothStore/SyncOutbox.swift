import BoothCore
import Foundation
import GRDB
import Synchronization

/// A photo waiting for the event's bucket: taken, changed or deleted here since the store last
/// confirmed it.
package struct OutboxEntry: Sendable, Hashable {
    package let id: UUID
    /// Raised by every change; the entry is done only if no change came while it was uploaded.
    package let version: Int
    /// Whether the thumbnail goes too (a new photo).
    package let thumbnail: Bool
    package let queuedAt: Date
    /// Failed attempts so far.
    package let attempts: Int
}

/// How far the outbox is, for `photobooth sync status`, `/metrics` and the log.
package struct OutboxSummary: Sendable, Hashable {
    package let pending: Int
    package let oldest: Date?
    /// The last error of an entry still waiting, if any.
    package let lastError: String?
}

/// A guest's wish to delete a photo of another booth, taken by this reader of the bucket.
package struct DeletionRequest: Sendable, Hashable {
    package let id: UUID
    /// The key the guest gave, which only the photo's own booth can check fully.
    package let key: String
    package let requestedAt: Date
    /// Whether the photo's booth deleted it, and the request left the bucket.
    package let settled: Bool

    package init(id: UUID, key: String, requestedAt: Date, settled: Bool = false) {
        self.id = id
        self.key = key
        self.requestedAt = requestedAt.roundedToMilliseconds
        self.settled = settled
    }
}

/// The event sync's side of the catalog: the outbox of the photos taken here (each change queued
/// in the transaction of the change, by ``PhotoLibrary``), the guests' deletion requests taken
/// here for photos of other booths, the records of other booths already seen, and what the
/// worker remembers between runs (``SyncState``). None of it is what guests see: its writes
/// never move ``GalleryChanges``.
package final class SyncOutbox: Sendable {
    private let catalog: Catalog
    private let directory: URL
    private let boothName: String
    /// Raised after every commit that queued something for the event's bucket, so that the sync
    /// worker wakes at once rather than at its next poll.
    package let queued = LatestValue<Int>()
    private let queuedCount = Mutex(0)

    init(catalog: Catalog, directory: URL, boothName: String) {
        self.catalog = catalog
        self.directory = directory
        self.boothName = boothName
    }

    /// Wakes the sync worker after a commit that queued a photo or a request.
    func noteQueued() {
        queued.publish(
            queuedCount.withLock { count in
                count += 1
                return count
            })
    }

    // MARK: The outbox

    /// The oldest entry due at `now` (not waiting for a retry), or `nil`.
    package func nextUpload(at now: Date = Date(), skipping skipped: Set<UUID> = []) throws(LibraryError) -> OutboxEntry? {
        let request = OutboxRecord.all().due(at: now).inQueueOrder()
        return try catalog.read("read the sync outbox") { db in
            let entries = try request.fetchCursor(db)
            while let entry = try entries.next() {
                guard let id = UUID(uuidString: entry.photoID), !skipped.contains(id) else { continue }
                return OutboxEntry(
                    id: id, version: entry.version, thumbnail: entry.thumbnail, queuedAt: Date(utcTimestamp: entry.queuedAt) ?? now,
                    attempts: entry.attempts)
            }
            return nil
        }
    }

    /// When the next entry waiting for a retry is due; `nil` when none waits.
    package func nextRetry() throws(LibraryError) -> Date? {
        let request = OutboxRecord.all().select(min(OutboxRecord.Columns.nextAttemptAt), as: String.self)
        return try catalog.read("read the sync outbox") { db in try request.fetchOne(db).flatMap(Date.init(utcTimestamp:)) }
    }

    /// Makes every entry waiting for a retry due now: at start, and when the operator asks.
    package func retryNow() throws(LibraryError) {
        try catalog.write("update the sync outbox") { db in
            try OutboxRecord.all().waitingForRetry().updateAll(db, OutboxRecord.Columns.nextAttemptAt.set(to: nil))
        }
    }

    /// The store confirmed `entry`: it leaves the outbox, unless a change came meanwhile.
    package func uploaded(_ entry: OutboxEntry) throws(LibraryError) {
        try catalog.write("update the sync outbox") { db in
            try OutboxRecord.filter(key: entry.id.lowercased).filter(OutboxRecord.Columns.version == entry.version).deleteAll(db)
        }
    }

    /// `entry` failed: it is tried again at `retryAt`, and keeps `error` for the status.
    package func uploadFailed(_ entry: OutboxEntry, error: String, retryAt: Date) throws(LibraryError) {
        try catalog.write("update the sync outbox") { db in
            try OutboxRecord.filter(key: entry.id.lowercased).updateAll(
                db, OutboxRecord.Columns.attempts.set(to: OutboxRecord.Columns.attempts + 1),
                OutboxRecord.Columns.nextAttemptAt.set(to: retryAt.utcTimestamp),
                OutboxRecord.Columns.lastError.set(to: error))
        }
    }

    /// How many entries wait, since when, and the last error of one of them.
    package func summary() throws(LibraryError) -> OutboxSummary {
        typealias Columns = OutboxRecord.Columns
        return try catalog.read("read the sync outbox") { db in
            let oldest = try OutboxRecord.all().select(min(Columns.queuedAt), as: String.self).fetchOne(db)
            let error = try OutboxRecord.filter(Columns.lastError != nil).order(Columns.nextAttemptAt.desc)
                .select(Columns.lastError, as: String.self).fetchOne(db)
            return OutboxSummary(pending: try OutboxRecord.fetchCount(db), oldest: oldest.flatMap(Date.init(utcTimestamp:)), lastError: error)
        }
    }

    /// The record of a photo of this booth as the bucket gets it: `nil` when the photo is gone
    /// (its tombstone is then due) or was imported.
    package func syncRecord(of id: UUID, event: String) throws(LibraryError) -> (Photo, PhotoSidecar)? {
        let request = ListedPhoto.all().photo(id)
        // A composed picture's record names its shots, which go to the bucket with it.
        let found = try catalog.read("look up a photo") { db in
            try request.fetchOne(db).map { row in (row, try GalleryQueries.withParts([row.photo], in: db)[0]) }
        }
        guard let (row, photo) = found, photo.origin == nil else { return nil }
        var record = PhotoSidecar(photo, booth: row.booth, hidden: row.hidden)
        record.event = event
        return (photo, record)
    }

    /// The tombstone of a deleted photo of this booth, from its recycle record when there is one;
    /// a composed picture's names its shots, whose copies in the bucket go with it.
    package func tombstone(of id: UUID, event: String) -> PhotoSidecar {
        let url = directory.appendingPathComponent(PhotoLibrary.recycleFolder).appendingPathComponent("\(id.lowercased).json")
        let record = (try? Data(contentsOf: url)).flatMap { try? JSONDecoder.booth().decode(RecycledPhoto.self, from: $0) }
        var tombstone = PhotoSidecar.tombstone(
            id: id, number: record?.number ?? 0, createdAt: record.flatMap { Date(utcTimestamp: $0.createdAt) } ?? Date(),
            booth: boothName, event: event)
        tombstone.parts = (record?.parts ?? []).compactMap(UUID.init(uuidString:))
        return tombstone
    }

    // MARK: What the worker remembers

    /// What the worker remembers between runs.
    package func state() throws(LibraryError) -> SyncState {
        try catalog.read("read the sync state") { db in
            SyncState(values: Dictionary(try SyncStateRecord.fetchAll(db).map { ($0.name, $0.value) }, uniquingKeysWith: { $1 }))
        }
    }

    /// Changes what the worker remembers, in one transaction: the values `change` changed are
    /// written, those it took away removed.
    package func updateState(_ change: (inout SyncState) -> Void) throws(LibraryError) {
        try catalog.write("write the sync state") { db in
            let before = SyncState(values: Dictionary(try SyncStateRecord.fetchAll(db).map { ($0.name, $0.value) }, uniquingKeysWith: { $1 }))
            var after = before
            change(&after)
            let old = before.values
            for (name, value) in after.values where old[name] != value {
                if let value {
                    try SyncStateRecord(name: name, value: value).upsert(db)
                } else {
                    try SyncStateRecord.deleteOne(db, key: name)
                }
            }
        }
    }

    /// The ETags of the other booths' records already imported, by key.
    package func seenRecords() throws(LibraryError) -> [String: String] {
        try catalog.read("read the imported records") { db in
            Dictionary(try SeenObjectRecord.fetchAll(db).map { ($0.key, $0.etag) }, uniquingKeysWith: { $1 })
        }
    }

    /// Notes that the record at `key` was imported (or refused) with this ETag.
    package func markSeen(_ key: String, etag: String) throws(LibraryError) {
        try catalog.write("note an imported record") { db in try SeenObjectRecord(key: key, etag: etag).upsert(db) }
    }

    // MARK: A guest's deletion of another booth's photo

    /// What the booth that took imported photo `id` published of its deletion key: the key's
    /// SHA-256 in hex and its expiry; `nil` when guests cannot delete it (or it is not imported).
    package func deletionKey(of id: UUID) throws(LibraryError) -> (sha256: String, until: Date)? {
        try catalog.read("read a photo's deletion key") { db in
            try DeletionKeyRecord.fetchOne(db, key: id.lowercased).flatMap { key in
                Date(utcTimestamp: key.until).map { (key.keySHA256, $0) }
            }
        }
    }

    /// A guest's request to delete photo `id` made here, uploaded or not, settled or not.
    package func deletionRequest(of id: UUID) throws(LibraryError) -> DeletionRequest? {
        try catalog.read("read a deletion request") { db in try DeletionRequestRecord.fetchOne(db, key: id.lowercased)?.request }
    }

    /// The deletion requests made here that the bucket does not have yet, oldest first.
    package func deletionRequestsToUpload() throws(LibraryError) -> [DeletionRequest] {
        try catalog.read("read the deletion requests") { db in try DeletionRequestRecord.all().toUpload().fetchAll(db).compactMap(\.request) }
    }

    /// The store has `request`.
    package func deletionRequestUploaded(_ request: DeletionRequest) throws(LibraryError) {
        typealias Columns = DeletionRequestRecord.Columns
        try catalog.write("note an uploaded deletion request") { db in
            try DeletionRequestRecord.filter(key: request.id.lowercased).filter(Columns.requestedAt == request.requestedAt.utcTimestamp)
                .updateAll(db, Columns.uploadedAt.set(to: Date().utcTimestamp))
        }
    }

    /// The request to delete `id` has done its work (the photo's booth deleted it, and the
    /// request left the bucket); it is kept so that the key, given again, is told so.
    package func settleDeletionRequest(of id: UUID) throws(LibraryError) {
        try catalog.write("settle a deletion request") { db in
            try DeletionRequestRecord.filter(key: id.lowercased).updateAll(db, DeletionRequestRecord.Columns.settledAt.set(to: Date().utcTimestamp))
        }
    }
}
