import BoothCore
import Foundation
import GRDB

/// A photo whose original is gone or unreadable, as `check --repair` keeps it in `lost_photo`:
/// its name and thumbnail are all that is left of it, and its number is never handed out again.
struct LostPhotoRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "lost_photo"

    var id: String
    var number: Int
    var caption: String
    var createdAt: String
    var thumbnail: Data
    var width: Int
    var height: Int
    var byteCount: Int
    var file: String
    var lostAt: String
    /// Why it is lost, for a person to read.
    var reason: String

    enum CodingKeys: String, CodingKey {
        case id, number, caption, thumbnail, width, height, file, reason
        case createdAt = "created_at"
        case byteCount = "byte_count"
        case lostAt = "lost_at"
    }

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let number = Column(CodingKeys.number)
    }

    /// The record of the photo of `row`, lost at `time` for `reason`.
    init(_ row: PhotoRecord, lostAt time: Date, reason: String) {
        id = row.id
        number = row.number
        caption = row.caption
        createdAt = row.createdAt
        thumbnail = row.thumbnail
        width = row.width
        height = row.height
        byteCount = row.byteCount
        file = row.file
        lostAt = time.utcTimestamp
        self.reason = reason
    }

    /// The record of a photo known only by its description (a salvaged row): no thumbnail, no
    /// size.
    init(_ photo: PhotoSidecar, file: String, lostAt time: Date, reason: String) {
        id = photo.id.lowercased
        number = photo.number
        caption = photo.caption.text
        createdAt = photo.createdAt.utcTimestamp
        thumbnail = Data()
        width = 0
        height = 0
        byteCount = 0
        self.file = file
        lostAt = time.utcTimestamp
        self.reason = reason
    }
}
