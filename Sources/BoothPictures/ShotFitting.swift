import BoothImaging
import Foundation

/// A shot brought to the size its slot shows it at.
///
/// A shot is decoded no larger than it is shown: TurboJPEG's DCT scaling takes a 1080p shot for
/// a 540x360 slot down to 960x540 while decoding, and a box filter does the rest, so that fine
/// detail averages out instead of aliasing.
package enum ShotFitting {
    /// The strongest DCT reduction of a shot of `header`'s size that still covers what `slot`
    /// shows of it.
    package static func decodeScale(of header: JPEGHeader, for slot: PhotoSlot) -> ScalingFactor {
        let size = scaledSize(of: header.width, header.height, for: slot)
        return ScalingFactor.allCases.reversed().first { $0.scaled(header.width) >= size.width && $0.scaled(header.height) >= size.height }
            ?? .full
    }

    /// `bitmap` (`.bgrx`) at the size `slot` shows it.
    package static func picture(_ bitmap: Bitmap, for slot: PhotoSlot) -> Bitmap {
        let size = scaledSize(of: bitmap.width, bitmap.height, for: slot)
        return cut(bitmap.scaled(toWidth: size.width, height: size.height), to: slot)
    }

    /// The size a `width` x `height` shot is scaled to before its edges are cut: covering the
    /// slot, or inside it.
    static func scaledSize(of width: Int, _ height: Int, for slot: PhotoSlot) -> (width: Int, height: Int) {
        // Whichever side decides, it gets the slot's length exactly; the other is rounded.
        let widthDecides = (width * slot.height >= height * slot.width) == (slot.fit == .contain)
        if widthDecides {
            return (slot.width, max(1, (height * slot.width + width / 2) / width))
        }
        return (max(1, (width * slot.height + height / 2) / height), slot.height)
    }

    /// A covering picture's middle, the slot's size; a contained one as it is.
    private static func cut(_ scaled: Bitmap, to slot: PhotoSlot) -> Bitmap {
        guard slot.fit == .cover else { return scaled }
        let width = min(slot.width, scaled.width)
        let height = min(slot.height, scaled.height)
        return scaled.cropped(x: (scaled.width - width) / 2, y: (scaled.height - height) / 2, width: width, height: height)
    }
}
