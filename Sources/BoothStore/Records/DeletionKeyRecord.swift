import GRDB

/// What the booth that took an imported photo published of its deletion key, as
/// `imported_deletion_key` keeps it with the photo (and loses it with the photo's row).
struct DeletionKeyRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "imported_deletion_key"

    var photoID: String
    /// The key's SHA-256, in hex.
    var keySHA256: String
    /// When the key stops deleting the photo.
    var until: String

    enum CodingKeys: String, CodingKey {
        case until
        case photoID = "photo_id"
        case keySHA256 = "key_sha256"
    }

    enum Columns {
        static let photoID = Column(CodingKeys.photoID)
    }
}
