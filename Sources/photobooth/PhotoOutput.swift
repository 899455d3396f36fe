import BoothCore
import BoothStore
import Foundation

/// A photo as the command line prints it in JSON (`list --json`, `show --json`). The keys are
/// part of the interface, snake_case (``JSONEncoder/booth(forPeople:)``); scripts rely on them.
struct PhotoJSON: Encodable {
    let id: String
    let caption: String
    let createdAt: String
    let width: Int
    let height: Int
    let byteCount: Int
    /// The original's absolute path.
    let file: String
    let favourite: Bool
    /// `photo`, `collage`, `animation` or `boomerang`.
    let kind: PictureKind
    /// The layout it was composed in; absent for a photo as the camera took it.
    let layout: String?
    /// The shots a composed picture was made of, in the order they were taken; empty for a
    /// photo as the camera took it.
    let parts: [Part]

    /// One shot of a composed picture.
    struct Part: Encodable {
        let id: String
        /// The shot's JPEG, an absolute path.
        let file: String
        let width: Int
        let height: Int
    }

    init(_ photo: Photo, in library: PhotoLibrary) {
        id = photo.id.lowercased
        caption = photo.caption.text
        createdAt = photo.createdAt.utcTimestamp
        width = photo.width
        height = photo.height
        byteCount = photo.byteCount
        file = library.url(of: photo).path
        favourite = photo.favourite
        kind = photo.kind
        layout = photo.layout
        parts = photo.parts.map { part in
            Part(id: part.id.lowercased, file: library.directory.appendingPathComponent(part.file).path, width: part.width, height: part.height)
        }
    }

    /// `value` as the command line prints JSON: sorted keys, indented.
    static func render(_ value: some Encodable) throws -> String {
        String(decoding: try JSONEncoder.booth(forPeople: true).encode(value), as: UTF8.self)
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
