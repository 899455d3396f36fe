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
}

/// A JPEG as its YUV planes decode: the size of its luma plane (the picture's, rounded up to
/// whole chroma samples, the last row or column repeated) and the sampling.
package struct YUVShape: Sendable, Hashable {
    package let width: Int
    package let height: Int
    package let sampling: ChromaSampling
}

extension JPEGDecoder {
    /// The YUV planes `jpeg` decodes to at `scale`; `nil` for a JPEG whose colour is sampled in a
    /// way no display plane takes (grey, 4:4:0, 4:1:1): decode it to pixels instead.
    package func yuvShape(of jpeg: Data, scale: ScalingFactor) throws(ImageError) -> YUVShape? {
        var width: Int32 = 0
        var height: Int32 = 0
        var subsampling: Int32 = 0
        var colorspace: Int32 = 0
        let status = jpeg.withUnsafeBytes { raw in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return Int32(-1) }
            return tjDecompressHeader3(handle, base, UInt(raw.count), &width, &height, &subsampling, &colorspace)
        }
        guard status == 0, width > 0, height > 0 else {
            throw ImageError.notJPEG.detailed("not a readable JPEG header: \(lastError(or: "no data"))")
        }
        guard width <= JPEGHeader.maximumSide, height <= JPEGHeader.maximumSide else {
            throw ImageError.undecodable.detailed("the JPEG claims \(width)x\(height) pixels, more than any camera the booth supports")
        }
        let sampling: ChromaSampling
        switch subsampling {
        case Int32(TJSAMP_444.rawValue): sampling = .full
        case Int32(TJSAMP_422.rawValue): sampling = .halfWidth
        case Int32(TJSAMP_420.rawValue): sampling = .halfWidthAndHeight
        default: return nil
        }
        // TurboJPEG's luma plane: the scaled size rounded up to whole chroma samples.
        let (scaledWidth, scaledHeight) = (Int32(scale.scaled(Int(width))), Int32(scale.scaled(Int(height))))
        return YUVShape(
            width: Int(tjPlaneWidth(0, scaledWidth, subsampling)), height: Int(tjPlaneHeight(0, scaledHeight, subsampling)),
            sampling: sampling)
    }

    /// Decodes `jpeg` at `scale` into YUV planes (Y, U, V: where each starts and the bytes from
    /// one row to the next) that hold ``yuvShape(of:scale:)``: the JPEG's own samples, with no
    /// conversion to RGB and no copy, straight into memory a display plane scans out.
    ///
    /// Any warning (data ending early) is an error, as for a decode to pixels. The corresponding
    /// C function is `tjDecompressToYUVPlanes`.
    package func decodeYUV(
        _ jpeg: Data, scale: ScalingFactor, into planes: [(base: UnsafeMutableRawPointer, bytesPerRow: Int)], fast: Bool = false
    ) throws(ImageError) {
        guard try yuvShape(of: jpeg, scale: scale) != nil else {
            throw ImageError.undecodable.detailed("the JPEG's colour is sampled in a way no display plane takes")
        }
        precondition(planes.count == 3, "YUV has three planes")
        let header = try header(of: jpeg)
        let (width, height) = (scale.scaled(header.width), scale.scaled(header.height))
        var flags = TJFLAG_STOPONWARNING
        if fast { flags |= TJFLAG_FASTDCT }
        var destinations: [UnsafeMutablePointer<UInt8>?] = planes.map { $0.base.assumingMemoryBound(to: UInt8.self) }
        var strides: [Int32] = planes.map { Int32($0.bytesPerRow) }
        let status = jpeg.withUnsafeBytes { raw in
            tjDecompressToYUVPlanes(
                handle, raw.bindMemory(to: UInt8.self).baseAddress, UInt(raw.count), &destinations, Int32(width), &strides,
                Int32(height), flags)
        }
        guard status == 0 else {
            let message = lastError(or: "unknown error")
            let truncated = message.localizedCaseInsensitiveContains("premature end")
            throw (truncated ? ImageError.truncated : ImageError.undecodable).detailed("cannot decode JPEG: \(message)")
        }
    }
}

/// How a display plane that scales shows a Motion JPEG frame as the live preview: the JPEG's
/// YUV planes decoded at `scale`, stretched by the display to `width` x `height` (the largest
/// size with the frame's shape that fits the screen), centred.
package struct PlanePreview: Sendable, Hashable {
    package let scale: ScalingFactor
    package let shape: YUVShape
    package let x: Int
    package let y: Int
    package let width: Int
    package let height: Int
}

extension CameraFrame {
    /// How a plane that scales shows this frame on a `screenWidth` x `screenHeight` screen; `nil`
    /// when it must be decoded to pixels instead (not Motion JPEG, or colour no plane takes).
    ///
    /// The decode is no larger than the screen needs: the strongest TurboJPEG reduction whose
    /// picture still covers the fitted size, so the display only ever shrinks it a little.
    package func planePreview(fitting screenWidth: Int, _ screenHeight: Int, decoder: borrowing JPEGDecoder) throws(ImageError)
        -> PlanePreview?
    {
        guard encoding == .mjpeg else { return nil }
        let fitted = FittedSize(fitting: width, height, within: screenWidth, screenHeight)
        let scale = ScalingFactor.strongest(keepingLongestSide: max(fitted.width, fitted.height), width: width, height: height)
        guard let shape = try decoder.yuvShape(of: bytes, scale: scale) else { return nil }
        return PlanePreview(
            scale: scale, shape: shape, x: (screenWidth - fitted.width) / 2, y: (screenHeight - fitted.height) / 2,
            width: fitted.width, height: fitted.height)
    }
}
