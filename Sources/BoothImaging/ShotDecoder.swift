import BoothCore
import Foundation

/// A size in pixels: a screen's, a picture's.
package struct PixelSize: Sendable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    package init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "a size needs at least one pixel")
        self.width = width
        self.height = height
    }

    package var description: String { "\(width)x\(height)" }
}

/// What the booth makes of a shot from its one decode.
package struct DecodedShot: Sendable {
    /// The photo in the framebuffer's layout (`.bgrx`), as large as fits the screen it was
    /// decoded for (enlarged when the photo is smaller); without a screen, the decoded picture
    /// as it is, at the thumbnail's scale. An animation's frames play, each made to fit the
    /// screen but never enlarged (the screen enlarges the one it draws).
    package var review: ScreenPicture
    /// The catalog's thumbnail.
    package var thumbnail: Thumbnail
    /// The photo's ``PerceptualHash``, computed on the thumbnail's pixels.
    package var perceptualHash: UInt64
}

/// Decodes a shot once, at the size the booth's screen shows it, and makes from that one
/// picture everything the booth needs of the photo: the review picture for the naming and
/// saved screens, the thumbnail and the perceptual hash.
///
/// Decoding is what costs. TurboJPEG's DCT scaling decodes no more than is shown: the
/// strongest reduction (1/2, 1/4, 1/8) that still covers both the screen's fitted size and the
/// thumbnail, so a 1080p photo for a 1280x800 screen decodes at half size, and without a
/// screen at a quarter, as thumbnails always were.
package struct ShotDecoder: Sendable {
    /// The screen the review picture is fitted to; `nil` when no screen shows it.
    package var screen: PixelSize?

    package init(screen: PixelSize? = nil) {
        self.screen = screen
    }

    /// The reduction a `width` x `height` photo is decoded at: the strongest that keeps the
    /// thumbnail's longest side and, with a screen, the photo's size fitted to it.
    package func scale(forWidth width: Int, height: Int) -> ScalingFactor {
        let thumbnail = ScalingFactor.strongest(keepingLongestSide: JPEGThumbnailer.longestSide, width: width, height: height)
        guard let screen else { return thumbnail }
        let fitted = FittedSize(fitting: width, height, within: screen.width, screen.height)
        let review =
            ScalingFactor.allCases.reversed().first { $0.scaled(width) >= fitted.width && $0.scaled(height) >= fitted.height }
            ?? .full
        return min(thumbnail, review)
    }

    /// Decodes `jpeg` once and makes its review picture, thumbnail and hash. Throws when the
    /// JPEG is corrupt or truncated: success proves that the photo is readable. An animation's
    /// GIF is read the same way, from its first frame.
    package func decode(_ jpeg: Data) throws(ImageError) -> DecodedShot {
        let header: (width: Int, height: Int)
        let decoded: Bitmap
        var animation: ScreenPicture?
        if GIFFile.isGIF(jpeg) {
            let file = try GIFFile(jpeg)
            if let screen, file.frameCount > 1 { animation = try file.screenPicture(fitting: screen) }
            // The animation's first frame is the first frame, unless the screen made it smaller.
            if let first = animation?.first, first.width == file.width, first.height == file.height {
                decoded = first
            } else {
                decoded = try file.firstFrame()
            }
            header = (file.width, file.height)
        } else {
            let decoder = try JPEGDecoder()
            let size = try decoder.header(of: jpeg)
            header = (size.width, size.height)
            decoded = try decoder.decode(jpeg, scale: scale(forWidth: header.width, height: header.height), format: .bgrx)
        }
        let small = Self.thumbnailPicture(of: decoded)
        let thumbnail = Thumbnail(
            jpeg: try JPEGEncoder().encode(small, quality: JPEGThumbnailer.quality), width: small.width, height: small.height,
            sourceWidth: header.width, sourceHeight: header.height)
        let review =
            animation
            ?? ScreenPicture(
                still: screen.map { screen in
                    let fitted = FittedSize(fitting: header.width, header.height, within: screen.width, screen.height)
                    return decoded.resampled(toWidth: fitted.width, height: fitted.height)
                } ?? decoded)
        return DecodedShot(review: review, thumbnail: thumbnail, perceptualHash: small.perceptualHash)
    }

    /// The perceptual hash of `jpeg` alone, decoded at the thumbnail's scale: for photos saved
    /// before the booth kept hashes. It is the hash ``decode(_:)`` gives, give or take a bit
    /// or two of the finer decode.
    package static func perceptualHash(ofJPEG jpeg: Data) throws(ImageError) -> UInt64 {
        if GIFFile.isGIF(jpeg) { return thumbnailPicture(of: try GIFFile(jpeg).firstFrame()).perceptualHash }
        let decoder = try JPEGDecoder()
        let header = try decoder.header(of: jpeg)
        let scale = ScalingFactor.strongest(keepingLongestSide: JPEGThumbnailer.longestSide, width: header.width, height: header.height)
        return thumbnailPicture(of: try decoder.decode(jpeg, scale: scale, format: .bgrx)).perceptualHash
    }

    /// `decoded` at the thumbnail's size, each pixel the average of those it covers.
    private static func thumbnailPicture(of decoded: Bitmap) -> Bitmap {
        let size = decoded.size(fittingLongestSide: JPEGThumbnailer.longestSide)
        return decoded.downscaled(toWidth: size.width, height: size.height)
    }
}

extension ScalingFactor: Comparable {
    /// A weaker reduction is smaller: `.full < .half`.
    package static func < (lhs: ScalingFactor, rhs: ScalingFactor) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
