import BoothCore
import Foundation

/// Makes thumbnails the cheap way: a DCT-scaled decode (1/8, 1/4 or 1/2) to just above the
/// thumbnail size, a box-filter reduction to the exact size, and a small JPEG. It is
/// ``ShotDecoder`` without a screen (an animation's GIF: from its first frame), so a thumbnail made at start (reconciling, rebuilding the
/// catalog) is made as one made at the shot.
package struct JPEGThumbnailer: Thumbnailer {
    /// The longest side of a thumbnail, in pixels.
    package static let longestSide = 320
    /// JPEG quality of thumbnails: small files that still look sharp at their size.
    package static let quality = 80

    package init() {}

    package func thumbnail(of picture: Data) throws(ImageError) -> Thumbnail {
        let shot = try ShotDecoder().decode(picture)
        var thumbnail = shot.thumbnail
        thumbnail.perceptualHash = shot.perceptualHash
        return thumbnail
    }
}
