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
    /// What kind of picture it is: a photo, or a picture composed of shots.
    public var kind: PictureKind = .photo
    /// The layout it was composed in (`strip-4`, a layout file's name); `nil` for a photo as the
    /// camera took it.
    public var layout: String?
    /// The shots it was composed of, in the order they were taken; none for a photo as the
    /// camera took it.
    public var parts: [PhotoPart] = []

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

/// The kinds of picture the library keeps.
public enum PictureKind: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    /// One shot (framed by a layout, or as the camera took it).
    case photo
    /// Shots composed in a layout's slots: a strip, a collage.
    case collage
    /// Frames played in a loop (an animated GIF).
    case animation
    /// Frames played forward, then backward, in a loop.
    case boomerang

    /// The kind a picture of `mode` is.
    public init(_ mode: PictureMode) {
        switch mode {
        case .single: self = .photo
        case .collage: self = .collage
        case .animation: self = .animation
        case .boomerang: self = .boomerang
        }
    }

    /// Whether its file is an animation (a GIF) rather than a JPEG.
    public var isAnimated: Bool { self == .animation || self == .boomerang }

    /// The extension of its file.
    public var fileExtension: String { isAnimated ? "gif" : "jpg" }

    public var description: String { rawValue }
}

/// One shot of a composed picture: kept as the camera took it, so that the picture can always
/// be made again.
public struct PhotoPart: Sendable, Hashable, Identifiable {
    /// The most shots a picture has: far more than any animation a booth makes.
    public static let maximumCount = 100

    public var id: UUID
    /// Its place among the picture's shots, from 0.
    public var index: Int
    /// Its JPEG, relative to the library folder.
    package var file: String
    public var width: Int
    public var height: Int
    package var byteCount: Int
    /// When it was exposed.
    public var createdAt: Date

    package init(id: UUID, index: Int, file: String, width: Int, height: Int, byteCount: Int, createdAt: Date) {
        self.id = id
        self.index = index
        self.file = file
        self.width = width
        self.height = height
        self.byteCount = byteCount
        self.createdAt = createdAt
    }
}

extension UUID {
    /// The lowercase form used in the catalog, in file names and on the command line.
    public var lowercased: String { uuidString.lowercased() }
}
