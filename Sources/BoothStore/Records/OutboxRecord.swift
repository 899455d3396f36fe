import BoothCore
import Foundation
import GRDB

/// A photo of this booth waiting for the event's bucket, as `sync_outbox` holds it: one row per
/// photo, its version raised by every change, so that a change made during an upload is
/// uploaded again and a burst of changes is uploaded once.
struct OutboxRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "sync_outbox"

    var photoID: String
    var version: Int = 1
    /// Whether the thumbnail goes too (a new photo); a change sends the original and record.
    var thumbnail: Bool
    var queuedAt: String
    /// Failed attempts so far.
    var attempts: Int = 0
    /// When a failed entry is tried again; `nil`: now.
    var nextAttemptAt: String?
    var lastError: String?

    enum CodingKeys: String, CodingKey {
        case version, thumbnail, attempts
        case photoID = "photo_id"
        case queuedAt = "queued_at"
        case nextAttemptAt = "next_attempt_at"
        case lastError = "last_error"
    }

    enum Columns {
        static let photoID = Column(CodingKeys.photoID)
        static let version = Column(CodingKeys.version)
        static let thumbnail = Column(CodingKeys.thumbnail)
        static let queuedAt = Column(CodingKeys.queuedAt)
        static let attempts = Column(CodingKeys.attempts)
        static let nextAttemptAt = Column(CodingKeys.nextAttemptAt)
        static let lastError = Column(CodingKeys.lastError)
    }

    /// Queues photo `id` for the bucket, in the transaction of the change itself: a crash or
    /// power cut can never leave a change the bucket will not hear of. An entry already waiting
    /// gets a new version, is due at once, and keeps its place in the queue. Photos imported
    /// from another booth are not queued: only the booth that took a photo writes it to the bucket.
    static func queue(_ id: UUID, thumbnail: Bool, in db: Database) throws {
        guard try PhotoRecord.all().photo(id).filter(PhotoRecord.Columns.origin == nil).isEmpty(db) == false else { return }
        let entry = OutboxRecord(photoID: id.lowercased, thumbnail: thumbnail, queuedAt: Date().utcTimestamp)
        _ = try entry.upsertAndFetch(db, onConflict: [CodingKeys.photoID.rawValue], updating: .noColumnUnlessSpecified) { excluded in
            [
                Columns.version.set(to: Columns.version + 1), Columns.thumbnail.set(to: Columns.thumbnail || excluded[Columns.thumbnail]),
                Columns.attempts.set(to: 0), Columns.nextAttemptAt.set(to: nil),
            ]
        }
    }
}

extension DerivableRequest<OutboxRecord> {
    /// The entries due at `now`: not waiting for a retry.
    func due(at now: Date) -> Self {
        filter(OutboxRecord.Columns.nextAttemptAt == nil || OutboxRecord.Columns.nextAttemptAt <= now.utcTimestamp)
    }

    /// The entries waiting for a retry.
    func waitingForRetry() -> Self {
        filter(OutboxRecord.Columns.nextAttemptAt != nil)
    }

    /// In the order they were queued.
    func inQueueOrder() -> Self {
        order(OutboxRecord.Columns.queuedAt, OutboxRecord.Columns.photoID)
    }
}
