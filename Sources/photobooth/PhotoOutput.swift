import BoothCore
import BoothStore
import Foundation

// swift-format-ignore: AlwaysUseLowerCamelCase
// The properties are the JSON keys, snake_case as scripts read them.
/// A photo as the command line prints it in JSON. The keys are part of the interface; scripts
/// rely on them.
struct PhotoJSON: Encodable {
    let id: String
    let caption: String
    let created_at: String
    let width: Int
    let height: Int
    let byte_count: Int
    /// The original's absolute path.
    let file: String
    let favourite: Bool

    init(_ photo: Photo, in library: PhotoLibrary) {
        id = photo.id.lowercased
        caption = photo.caption.text
        created_at = photo.createdAt.utcTimestamp
        width = photo.width
        height = photo.height
        byte_count = photo.byteCount
        file = library.url(of: photo).path
        favourite = photo.favourite
    }

    static func render(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

extension Photo {
    /// Creation time in local time, for people: "2026-11-22 08:31:05".
    var localCreationTime: String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.string(from: createdAt)
    }

    /// "1280x720, 184 KiB".
    var sizeDescription: String {
        "\(width)x\(height), \(ByteCountFormatter.string(fromByteCount: Int64(byteCount), countStyle: .binary))"
    }
}
