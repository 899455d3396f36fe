import BoothCore
import Foundation

/// Makes thumbnails the cheap way: a DCT-scaled decode (1/8, 1/4 or 1/2) to just above the
/// thumbnail size, a box-filter reduction to the exact size, and a small JPEG. It is
/// ``ShotDecoder`` without a screen, so a thumbnail made at start (reconciling, rebuilding the
/// catalog) is made as one made at the shot.
public struct JPEGThumbnailer: Thumbnailer {
    /// The longest side of a thumbnail, in pixels.
    public static let longestSide = 320
    /// JPEG quality of thumbnails: small files that still look sharp at their size.
    public static let quality = 80

    public init() {}

    public func thumbnail(forJPEG jpeg: Data) throws(ImageError) -> Thumbnail {
        try ShotDecoder().decode(jpeg).thumbnail
    }
}
