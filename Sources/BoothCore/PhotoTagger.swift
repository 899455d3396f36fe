import Foundation

/// Writes a photo's metadata into a copy of its JPEG: what every copy that leaves the booth goes
/// through. The library uses it without depending on an image codec; BoothImaging implements it.
package protocol PhotoTagger: Sendable {
    /// `jpeg` carrying `metadata`; throws when `jpeg` is not a whole JPEG image.
    func tagged(_ jpeg: Data, with metadata: PhotoMetadata) throws -> Data
}

/// This release of the program, as it names itself: in `--version` and in EXIF `Software`.
package enum Release {
    package static let version = "0.5.0"
    package static let software = "photobooth \(version)"
}
