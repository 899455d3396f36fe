import BoothCore
import Foundation
import Hummingbird

/// The addresses of the gallery's pages and images, in one place: pages link to them, the JSON
/// API makes them absolute, and the booth's QR code points at ``page(of:)``.
enum GalleryPaths {
    /// The photo's page: `/photos/<lowercased uuid>`.
    static func page(of id: UUID) -> String { "/photos/\(id.lowercased)" }
    /// The original: a JPEG, or an animation's GIF.
    static func original(of photo: Photo) -> String { "/photos/\(photo.id.lowercased).\(photo.kind.fileExtension)" }
    /// The original as a download (`Content-Disposition: attachment`).
    static func download(of photo: Photo) -> String { original(of: photo) + "?download=1" }
    /// Shot `number` (from 1) of a composed picture, to download.
    static func shot(_ number: Int, of id: UUID) -> String { "/photos/\(id.lowercased)/shots/\(number).jpg" }
    /// The thumbnail JPEG.
    static func thumbnail(of id: UUID) -> String { "/thumbnails/\(id.lowercased).jpg" }
    /// A guest's print of the photo: the question, and where its answer goes.
    static func print(of id: UUID) -> String { "/photos/\(id.lowercased)/print" }
    /// The page where a guest confirms deleting their photo, with the key that allows it.
    static func deletion(of id: UUID, key: String) -> String { "/photos/\(id.lowercased)/delete?key=\(PhotoListing.encoded(key))" }
}

/// Parses a photo id from a path; anything that is not a UUID (`..%2F..`, a file name) is a bad
/// request, so no file is ever looked up from raw input.
func photoID(from context: some RequestContext) throws -> UUID {
    let raw = context.parameters.get("id") ?? ""
    guard let id = UUID(uuidString: raw) else {
        throw WebError.badRequest("\"\(raw.prefix(80))\" is not a photo id. Photo ids look like 3f2c9a4e-0b1d-4c6e-9f8a-2d4b6c8e0a1f.")
    }
    return id
}
