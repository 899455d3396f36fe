import Foundation

/// A photo in the library, as the catalog records it.
public struct Photo: Sendable, Hashable, Identifiable {
    /// The photo's permanent id; the original's file is named after it.
    public var id: UUID
    /// The booth's running number for the photo, which makes default captions unique.
    public var number: Int
    /// The name people see.
    public var caption: Caption
    /// When the shot was exposed (wall clock, millisecond precision).
    public var createdAt: Date
    /// The original's size in pixels and bytes.
    public var width: Int
    public var height: Int
    package var byteCount: Int
    /// The original's path relative to the library folder: `photos/YYYY/MM/DD/<uuid>.jpg`.
    package var file: String
    /// The camera that took it, where the booth could tell.
    public var camera: CameraModel?
    /// The booth of the event it was imported from (as that booth's folder in the bucket is
    /// named); `nil` for a photo taken here. Only the booth that took a photo changes it.
    public var origin: String?
    /// The name of the booth that took it, as that booth calls itself (for an imported photo:
    /// its author); `nil` when the catalog did not say.
    package var booth: String?
    /// Whether the operator marked it as one of the event's best: favourites come first in the
    /// slideshow and have their own album.
    public var favourite: Bool

    package init(
        id: UUID, number: Int, caption: Caption, createdAt: Date, width: Int, height: Int, byteCount: Int,
        file: String, camera: CameraModel? = nil, origin: String? = nil, booth: String? = nil, favourite: Bool = false
    ) {
        self.id = id
        self.number = number
        self.caption = caption
        self.createdAt = createdAt
        self.width = width
        self.height = height
        self.byteCount = byteCount
        self.file = file
        self.camera = camera
        self.origin = origin
        self.booth = booth
        self.favourite = favourite
    }
}

extension UUID {
    /// The lowercase form used in the catalog, in file names and on the command line.
    public var lowercased: String { uuidString.lowercased() }
}
