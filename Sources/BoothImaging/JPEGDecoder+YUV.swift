import BoothCore
import CTurboJPEG
import Foundation

/// How a JPEG samples its colour: what a display plane must take to show the JPEG's own YUV
/// planes without converting them.
package enum ChromaSampling: Sendable, Hashable, CustomStringConvertible {
    /// Colour at full resolution.
    case full
    /// Colour at half the width (most webcams' Motion JPEG).
    case halfWidth
    /// Colour at half the width and half the height.
    case halfWidthAndHeight

    /// How much narrower and shorter than the picture the chroma planes are.
    package var divisors: (width: Int, height: Int) {
        switch self {
        case .full: (1, 1)
        case .halfWidth: (2, 1)
        case .halfWidthAndHeight: (2, 2)
        }
    }

    package var description: String {
        switch self {
        case .full: "4:4:4"
        case .halfWidth: "4:2:2"
        case .halfWidthAndHeight: "4:2:0"
        }
    }

    /// TurboJPEG's name for the sampling (`TJSAMP_...`).
    var turboJPEG: Int32 {
        switch self {
        case .full: Int32(TJSAMP_444.rawValue)
        case .halfWidth: Int32(TJSAMP_422.rawValue)
        case .halfWidthAndHeight: Int32(TJSAMP_420.rawValue)
        }
    }

    /// The sampling TurboJPEG reports, where a display plane takes it.
    init?(turboJPEG subsampling: Int32) {
        guard let sampling = [Self.full, .halfWidth, .halfWidthAndHeight].first(where: { $0.turboJPEG == subsampling }) else {
            return nil
        }
        self = sampling
    }
}

/// A JPEG as its YUV planes decode at a scale: the size of its luma plane (the scaled picture's,
/// rounded up to whole chroma samples, the last row or column repeated), the sampling, and the
/// scaled picture's own size, which TurboJPEG decodes.
package struct YUVShape: Sendable, Hashable {
    package let width: Int
    package let height: Int
    package let sampling: ChromaSampling
    package let scale: ScalingFactor
    let pictureWidth: Int
    let pictureHeight: Int
}

extension JPEGHeader {
    /// The YUV planes this JPEG decodes to at `scale`; `nil` for a JPEG whose colour is sampled
    /// in a way no display plane takes (grey, 4:4:0, 4:1:1), or that claims more pixels than any
    /// camera: decode it to pixels instead, which says why.
    package func yuvShape(scale: ScalingFactor) -> YUVShape? {
        guard let sampling, width <= Self.maximumSide, height <= Self.maximumSide else { return nil }
        let (pictureWidth, pictureHeight) = (scale.scaled(width), scale.scaled(height))
        let subsampling = sampling.turboJPEG
        return YUVShape(
            width: Int(tjPlaneWidth(0, Int32(pictureWidth), subsampling)),
            height: Int(tjPlaneHeight(0, Int32(pictureHeight), subsampling)), sampling: sampling, scale: scale,
            pictureWidth: pictureWidth, pictureHeight: pictureHeight)
    }
}

extension JPEGDecoder {
    /// Decodes `jpeg` into YUV planes (Y, U, V: where each starts and the bytes from one row to
    /// the next) that hold `shape`, its header's ``JPEGHeader/yuvShape(scale:)``: the JPEG's own
    /// samples, with no conversion to RGB and no copy, straight into memory a display plane
    /// scans out.
    ///
    /// Any warning (data ending early) is an error, as for a decode to pixels. The corresponding
    /// C function is `tjDecompressToYUVPlanes`.
    package func decodeYUV(
        _ jpeg: Data, as shape: YUVShape, into planes: [(base: UnsafeMutableRawPointer, bytesPerRow: Int)], fast: Bool = false
    ) throws(ImageError) {
        precondition(planes.count == 3, "YUV has three planes")
        var flags = TJFLAG_STOPONWARNING
        if fast { flags |= TJFLAG_FASTDCT }
        var destinations: [UnsafeMutablePointer<UInt8>?] = planes.map { $0.base.assumingMemoryBound(to: UInt8.self) }
        var strides: [Int32] = planes.map { Int32($0.bytesPerRow) }
        let status = jpeg.withUnsafeBytes { raw in
            tjDecompressToYUVPlanes(
                handle, raw.bindMemory(to: UInt8.self).baseAddress, UInt(raw.count), &destinations, Int32(shape.pictureWidth),
                &strides, Int32(shape.pictureHeight), flags)
        }
        guard status == 0 else {
            let message = lastError(or: "unknown error")
            let truncated = message.localizedCaseInsensitiveContains("premature end")
            throw (truncated ? ImageError.truncated : ImageError.undecodable).detailed("cannot decode JPEG: \(message)")
        }
    }
}

/// How a display plane that scales shows a camera frame as the live preview: the frame's YUV
/// planes at their shape's scale, stretched by the display to `width` x `height` (the largest
/// size with the frame's shape that fits the screen), centred.
package struct PlanePreview: Sendable, Hashable {
    package let shape: YUVShape
    package let x: Int
    package let y: Int
    package let width: Int
    package let height: Int
}

extension YUVShape {
    /// A planar 4:2:0 frame's planes with every `scale`th sample of every `scale`th row kept.
    init(yuv420Width width: Int, height: Int, scale: ScalingFactor) {
        let (pictureWidth, pictureHeight) = (scale.scaled(width), scale.scaled(height))
        // Whole chroma samples, as TurboJPEG's planes: the last row or column repeated.
        self.init(
            width: (pictureWidth + 1) & ~1, height: (pictureHeight + 1) & ~1, sampling: .halfWidthAndHeight, scale: scale,
            pictureWidth: pictureWidth, pictureHeight: pictureHeight)
    }
}

extension CameraFrame {
    /// How a plane that scales shows this frame on a `screenWidth` x `screenHeight` screen; `nil`
    /// when it must be converted to pixels instead (a YUYV or RGB frame, a Motion JPEG whose
    /// colour no plane takes).
    ///
    /// The planes are no larger than the screen needs: the strongest power-of-two reduction
    /// whose picture still covers the fitted size (TurboJPEG's while it decodes a Motion JPEG
    /// frame, every other sample of a 4:2:0 frame's), so the display only ever shrinks it a
    /// little.
    package func planePreview(fitting screenWidth: Int, _ screenHeight: Int, decoder: borrowing JPEGDecoder) throws(ImageError)
        -> PlanePreview?
    {
        let fitted = FittedSize(fitting: width, height, within: screenWidth, screenHeight)
        let scale = ScalingFactor.strongest(keepingLongestSide: max(fitted.width, fitted.height), width: width, height: height)
        let shape: YUVShape
        switch encoding {
        case .mjpeg:
            guard let decoded = try decoder.header(of: bytes).yuvShape(scale: scale) else { return nil }
            shape = decoded
        case .yuv420(let bytesPerRow):
            try requireRows(of: bytesPerRow, bytesPerPixel: 1)
            shape = YUVShape(yuv420Width: width, height: height, scale: scale)
        case .yuyv, .rgb24:
            return nil
        }
        return PlanePreview(
            shape: shape, x: (screenWidth - fitted.width) / 2, y: (screenHeight - fitted.height) / 2, width: fitted.width,
            height: fitted.height)
    }

    /// Writes this frame's YUV planes, as `shape` (its ``planePreview(fitting:_:decoder:)``'s)
    /// holds them, into `planes` (Y, U, V: where each starts and the bytes from one row to the
    /// next): a Motion JPEG frame decoded at the shape's scale with the fast DCT, a 4:2:0 frame's
    /// planes copied, every `scale`th sample of every `scale`th row. No colour is converted.
    package func writePlanes(
        _ shape: YUVShape, into planes: [(base: UnsafeMutableRawPointer, bytesPerRow: Int)], decoder: borrowing JPEGDecoder
    ) throws(ImageError) {
        switch encoding {
        case .mjpeg:
            try decoder.decodeYUV(bytes, as: shape, into: planes, fast: true)
        case .yuv420(let bytesPerRow):
            try requireRows(of: bytesPerRow, bytesPerPixel: 1)
            copyYUV420(bytesPerRow: bytesPerRow, as: shape, into: planes)
        case .yuyv, .rgb24:
            throw ImageError.malformed.detailed("a \(encoding) frame has no YUV planes to show")
        }
    }

    /// Copies a `.yuv420` frame's planes into `planes` at `shape`'s scale; rows and columns the
    /// shape has beyond the frame's repeat its last.
    private func copyYUV420(bytesPerRow: Int, as shape: YUVShape, into planes: [(base: UnsafeMutableRawPointer, bytesPerRow: Int)]) {
        precondition(planes.count == 3, "YUV has three planes")
        let source = yuv420Planes(bytesPerRow: bytesPerRow)
        let step = shape.scale.rawValue
        bytes.withUnsafeBytes { raw in
            let frame = raw.bindMemory(to: UInt8.self).baseAddress!
            for (plane, target) in planes.enumerated() {
                let divisor = plane == 0 ? 1 : 2
                let (sourceWidth, sourceHeight) = ((width + divisor - 1) / divisor, (height + divisor - 1) / divisor)
                for row in 0..<shape.height / divisor {
                    let from = frame + source.offsets[plane] + min(row * step, sourceHeight - 1) * source.strides[plane]
                    let to = (target.base + row * target.bytesPerRow).assumingMemoryBound(to: UInt8.self)
                    // The columns the frame has, then its last one repeated.
                    let rowWidth = shape.width / divisor
                    let inside = min(rowWidth, (sourceWidth - 1) / step + 1)
                    if step == 1 {
                        to.update(from: from, count: inside)
                    } else {
                        for column in 0..<inside { to[column] = from[column &* step] }
                    }
                    (to + inside).update(repeating: from[sourceWidth - 1], count: rowWidth - inside)
                }
            }
        }
    }
}
