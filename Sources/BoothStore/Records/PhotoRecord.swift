import BoothCore
import Foundation
import GRDB

/// A type that reads or writes the catalog's `photo` table: the record that owns it
/// (``PhotoRecord``) and the listing that reads it without thumbnails (``ListedPhoto``). They
/// share its columns and its named requests (`extension DerivableRequest where RowDecoder: PhotoTable`).
protocol PhotoTable: TableRecord {}

extension PhotoTable {
    static var databaseTableName: String { "photo" }
}

/// A photo's row in the catalog, whole: the one type that writes the `photo` table.
///
/// The row's derived columns are computed here alone, from the name, whenever a row is written
/// (``encode(to:)``): `name_key`, the name folded as guests mean it (``NameKey``), empty for a
/// placeholder such as "Photo 42", and `search_text`, every name folded the same way, which the
/// full-text index `photo_search` follows through its triggers. No writer of the table can leave
/// them behind its name.
struct PhotoRecord: Decodable, FetchableRecord, PersistableRecord, PhotoTable, Sendable {
    /// The photo's id: a UUID in lowercase (``UUID/lowercased``) for every row the booth writes.
    var id: String
    var number: Int
    /// The name, as the catalog keeps it.
    var caption: String
    /// ISO 8601 UTC with milliseconds (``Foundation/Date/utcTimestamp``): exact, and sorts as text.
    var createdAt: String
    var thumbnail: Data
    var width: Int
    var height: Int
    var byteCount: Int
    /// The original, relative to the library folder.
    var file: String
    /// The booth that took the photo, as its sidecar names it.
    var booth: String
    var hidden: Bool
    var cameraMake: String?
    var cameraModel: String?
    /// The folder of the event's bucket the photo was imported from; `nil` for a photo taken here.
    var origin: String?
    var favourite: Bool
    /// The picture's 64-bit fingerprint for near-duplicates; `nil` until computed.
    var perceptualHash: Int64?
    /// ``PictureKind``'s raw value: what the file is.
    var kind: String
    /// The layout it was composed in; `nil` for a photo as the camera took it.
    var layout: String?

    enum CodingKeys: String, CodingKey {
        case id, number, caption, thumbnail, width, height, file, booth, hidden, origin, favourite, kind, layout
        case createdAt = "created_at"
        case byteCount = "byte_count"
        case cameraMake = "camera_make"
        case cameraModel = "camera_model"
        case perceptualHash = "perceptual_hash"
    }

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let number = Column(CodingKeys.number)
        static let caption = Column(CodingKeys.caption)
        static let createdAt = Column(CodingKeys.createdAt)
        static let thumbnail = Column(CodingKeys.thumbnail)
        static let width = Column(CodingKeys.width)
        static let height = Column(CodingKeys.height)
        static let byteCount = Column(CodingKeys.byteCount)
        static let file = Column(CodingKeys.file)
        static let booth = Column(CodingKeys.booth)
        static let hidden = Column(CodingKeys.hidden)
        static let cameraMake = Column(CodingKeys.cameraMake)
        static let cameraModel = Column(CodingKeys.cameraModel)
        static let origin = Column(CodingKeys.origin)
        static let favourite = Column(CodingKeys.favourite)
        static let perceptualHash = Column(CodingKeys.perceptualHash)
        static let kind = Column(CodingKeys.kind)
        static let layout = Column(CodingKeys.layout)
        /// Derived from the name (``PhotoRecord/nameKey``).
        static let nameKey = Column("name_key")
        /// Derived from the name (``PhotoRecord/searchText``).
        static let searchText = Column("search_text")
    }

    /// The row of `photo`, from the booth that took it, with its thumbnail.
    init(_ photo: Photo, thumbnail: Data, booth: String, hidden: Bool, perceptualHash: UInt64?) {
        id = photo.id.lowercased
        number = photo.number
        caption = photo.caption.text
        createdAt = photo.createdAt.utcTimestamp
        self.thumbnail = thumbnail
        width = photo.width
        height = photo.height
        byteCount = photo.byteCount
        file = photo.file
        self.booth = booth
        self.hidden = hidden
        cameraMake = photo.camera?.make
        cameraModel = photo.camera?.model
        origin = photo.origin
        favourite = photo.favourite
        self.perceptualHash = perceptualHash.map { Int64(bitPattern: $0) }
        kind = photo.kind.rawValue
        layout = photo.layout
    }

    /// The name as guests read it: the placeholder for a row whose caption does not read.
    var name: Caption {
        Caption(sanitizing: caption) ?? .placeholder(number: number)
    }

    /// The name folded as guests mean it, empty for a placeholder: the key of the photo's album.
    var nameKey: String {
        NameKey.of(name, number: number)
    }

    /// The name folded for the full-text index: a placeholder's too.
    var searchText: String {
        NameKey.fold(name.text)
    }

    /// The photo of this row; a row whose id is not a photo id is an error, never a photo with a
    /// made-up id (``ListedPhoto/init(row:)``).
    func photo() throws(MalformedRow) -> Photo {
        try ListedPhoto.photo(
            id: id, number: number, caption: caption, createdAt: createdAt, width: width, height: height, byteCount: byteCount,
            file: file, cameraMake: cameraMake, cameraModel: cameraModel, origin: origin, booth: booth, favourite: favourite,
            kind: kind, layout: layout)
    }

    func encode(to container: inout PersistenceContainer) {
        container[Columns.id] = id
        container[Columns.number] = number
        container[Columns.caption] = caption
        container[Columns.createdAt] = createdAt
        container[Columns.thumbnail] = thumbnail
        container[Columns.width] = width
        container[Columns.height] = height
        container[Columns.byteCount] = byteCount
        container[Columns.file] = file
        container[Columns.booth] = booth
        container[Columns.hidden] = hidden
        container[Columns.cameraMake] = cameraMake
        container[Columns.cameraModel] = cameraModel
        container[Columns.origin] = origin
        container[Columns.favourite] = favourite
        container[Columns.perceptualHash] = perceptualHash
        container[Columns.kind] = kind
        container[Columns.layout] = layout
        container[Columns.nameKey] = nameKey
        container[Columns.searchText] = searchText
    }
}

/// A photo as listings read it: its row without the thumbnail (which a page of photos does not
/// need, and which is most of a row's bytes), with the booth that took it and its hidden flag.
struct ListedPhoto: FetchableRecord, PhotoTable, Sendable {
    var photo: Photo
    var booth: String
    var hidden: Bool

    static var databaseSelection: [any SQLSelectable] {
        typealias Columns = PhotoRecord.Columns
        return [
            Columns.id, Columns.number, Columns.caption, Columns.createdAt, Columns.width, Columns.height, Columns.byteCount,
            Columns.file, Columns.cameraMake, Columns.cameraModel, Columns.origin, Columns.booth, Columns.favourite, Columns.hidden,
            Columns.kind, Columns.layout,
        ]
    }

    /// The row as a photo. A row whose id is not a photo id (``PhotoRecord/wellFormedID``) has
    /// no identity to give it: requests leave such rows out, and one that gets here all the same
    /// throws ``MalformedRow``.
    init(row: Row) throws {
        typealias Columns = PhotoRecord.Columns
        booth = row[Columns.booth]
        hidden = row[Columns.hidden]
        photo = try Self.photo(
            id: row[Columns.id], number: row[Columns.number], caption: row[Columns.caption], createdAt: row[Columns.createdAt],
            width: row[Columns.width], height: row[Columns.height], byteCount: row[Columns.byteCount], file: row[Columns.file],
            cameraMake: row[Columns.cameraMake], cameraModel: row[Columns.cameraModel], origin: row[Columns.origin], booth: booth,
            favourite: row[Columns.favourite], kind: row[Columns.kind], layout: row[Columns.layout])
    }

    /// The photo of a row's values; ``MalformedRow`` when its id is not a photo id.
    static func photo(
        id text: String, number: Int, caption: String, createdAt: String, width: Int, height: Int, byteCount: Int, file: String,
        cameraMake: String?, cameraModel: String?, origin: String?, booth: String, favourite: Bool, kind: String, layout: String?
    ) throws(MalformedRow) -> Photo {
        guard let id = UUID(uuidString: text), id.lowercased == text else { throw MalformedRow(id: text, file: file) }
        var photo = Photo(
            id: id, number: number, caption: Caption(sanitizing: caption) ?? .placeholder(number: number),
            createdAt: Date(utcTimestamp: createdAt) ?? Date(timeIntervalSince1970: 0), width: width, height: height,
            byteCount: byteCount, file: file, camera: cameraModel.map { CameraModel(make: cameraMake, model: $0) }, origin: origin,
            booth: booth, favourite: favourite)
        // A kind this version does not know (a newer booth's, imported) is shown as a photo.
        photo.kind = PictureKind(rawValue: kind) ?? .photo
        photo.layout = layout
        return photo
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
