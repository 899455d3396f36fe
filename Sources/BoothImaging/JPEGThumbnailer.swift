import BoothCore
import Foundation

/// Makes thumbnails the cheap way: a DCT-scaled decode (1/8, 1/4 or 1/2) to just above the
/// thumbnail size, a box-filter reduction to the exact size, and a small JPEG.
public struct JPEGThumbnailer: Thumbnailer {
    /// The longest side of a thumbnail, in pixels.
    public static let longestSide = 320
    /// JPEG quality of thumbnails: small files that still look sharp at their size.
    public static let quality = 80

    public init() {}

    public func thumbnail(forJPEG jpeg: Data) throws(ImageError) -> Thumbnail {
        let decoder = try JPEGDecoder()
        let header = try decoder.header(of: jpeg)
        let scale = ScalingFactor.strongest(
            keepingLongestSide: Self.longestSide, width: header.width, height: header.height)
        let decoded = try decoder.decode(jpeg, scale: scale)
        let size = decoded.size(fittingLongestSide: Self.longestSide)
        let small = decoded.downscaled(toWidth: size.width, height: size.height)
        let encoded = try JPEGEncoder().encode(small, quality: Self.quality)
        return Thumbnail(
            jpeg: encoded, width: small.width, height: small.height,
            sourceWidth: header.width, sourceHeight: header.height)
    }
}
