import BoothCore
import Foundation
import GRDB

/// One shot of a composed picture, as `photo_part` keeps it: recorded as the shot is taken,
/// before its picture exists (`picture` names the picture to come).
struct PartRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "photo_part"

    var id: String
    /// The picture's id, lowercase.
    var picture: String
    /// The shot's place among the picture's, from 0.
    var position: Int
    /// The JPEG, relative to the library folder.
    var file: String
    var width: Int
    var height: Int
    var byteCount: Int
    /// ISO 8601 UTC with milliseconds, as `photo.created_at`.
    var createdAt: String
    var cameraMake: String?
    var cameraModel: String?

    enum CodingKeys: String, CodingKey {
        case id, picture, position, file, width, height
        case byteCount = "byte_count"
        case createdAt = "created_at"
        case cameraMake = "camera_make"
        case cameraModel = "camera_model"
    }

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let picture = Column(CodingKeys.picture)
        static let position = Column(CodingKeys.position)
    }

    init(_ part: PhotoPart, of picture: UUID, camera: CameraModel?) {
        id = part.id.lowercased
        self.picture = picture.lowercased
        position = part.index
        file = part.file
        width = part.width
        height = part.height
        byteCount = part.byteCount
        createdAt = part.createdAt.utcTimestamp
        cameraMake = camera?.make
        cameraModel = camera?.model
    }

    /// The part this row records; `nil` for a row whose id is not a UUID (a hand edit).
    var part: PhotoPart? {
        guard let id = UUID(uuidString: id) else { return nil }
        return PhotoPart(
            id: id, index: position, file: file, width: width, height: height, byteCount: byteCount,
            createdAt: Date(utcTimestamp: createdAt) ?? Date(timeIntervalSince1970: 0))
    }

    /// The parts of the pictures `ids`, in order, by picture.
    static func parts(of ids: [UUID], in db: Database) throws -> [UUID: [PhotoPart]] {
        guard !ids.isEmpty else { return [:] }
        let rows = try PartRecord.filter(ids.map(\.lowercased).contains(Columns.picture)).order(Columns.picture, Columns.position).fetchAll(db)
        var parts: [UUID: [PhotoPart]] = [:]
        for row in rows {
            guard let picture = UUID(uuidString: row.picture), let part = row.part else { continue }
            parts[picture, default: []].append(part)
        }
        return parts
    }
}
