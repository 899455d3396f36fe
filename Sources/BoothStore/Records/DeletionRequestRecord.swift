import BoothCore
import Foundation
import GRDB

/// A guest's request to delete a photo of another booth, taken here, as `deletion_request`
/// keeps it: until the bucket has it (`uploaded_at`), then until its booth deleted the photo
/// (`settled_at`), and afterwards, so that the key given again is told the photo is gone.
struct DeletionRequestRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "deletion_request"

    var photoID: String
    var key: String
    var requestedAt: String
    var uploadedAt: String?
    var settledAt: String?

    enum CodingKeys: String, CodingKey {
        case key
        case photoID = "photo_id"
        case requestedAt = "requested_at"
        case uploadedAt = "uploaded_at"
        case settledAt = "settled_at"
    }

    enum Columns {
        static let photoID = Column(CodingKeys.photoID)
        static let key = Column(CodingKeys.key)
        static let requestedAt = Column(CodingKeys.requestedAt)
        static let uploadedAt = Column(CodingKeys.uploadedAt)
        static let settledAt = Column(CodingKeys.settledAt)
    }

    /// The request as the sync reads it; `nil` for a row whose id or time does not read.
    var request: DeletionRequest? {
        guard let id = UUID(uuidString: photoID), let time = Date(utcTimestamp: requestedAt) else { return nil }
        return DeletionRequest(id: id, key: key, requestedAt: time, settled: settledAt != nil)
    }
}

extension DerivableRequest<DeletionRequestRecord> {
    /// The requests the bucket does not have yet, oldest first.
    func toUpload() -> Self {
        filter(DeletionRequestRecord.Columns.uploadedAt == nil && DeletionRequestRecord.Columns.settledAt == nil)
            .order(DeletionRequestRecord.Columns.requestedAt)
    }
}
