import BoothCore
import Foundation

extension CameraFrame {
    /// The frame as a live preview: the largest picture that fits within `width` x `height`
    /// with the frame's aspect ratio, in the framebuffer's layout (`.bgrx`).
    ///
    /// A preview decodes no more than it shows: a Motion JPEG frame is decoded with the
    /// strongest TurboJPEG scaling that still covers the fitted size (and its fast DCT), so at
    /// full size only when the screen needs every pixel; a raw frame is converted only at the
    /// pixels the preview samples. What remains is a cheap resample to the exact size.
    ///
    /// - Parameter decoder: the caller's decoder, reused from frame to frame.
    package func previewBitmap(fitting width: Int, _ height: Int, decoder: borrowing JPEGDecoder) throws(ImageError)
        -> Bitmap
    {
        precondition(width > 0 && height > 0, "a preview needs at least one pixel")
        switch encoding {
        case .mjpeg:
            // No Huffman-table repair: libjpeg-turbo supplies the standard tables a webcam leaves
            // out (MJPEGRepairTests), so the preview skips the repair's copy of the frame.
            return try decoder.decode(bytes, fitting: width, height, fast: true)
        case .yuyv(let bytesPerRow):
            try requireRows(of: bytesPerRow, bytesPerPixel: 2)
            let fitted = FittedSize(fitting: self.width, self.height, within: width, height)
            return sampledYUYV(bytesPerRow: bytesPerRow, size: fitted.atMost(self.width, self.height))
                .resampled(toWidth: fitted.width, height: fitted.height)
        case .rgb24(let bytesPerRow):
            try requireRows(of: bytesPerRow, bytesPerPixel: 3)
            let fitted = FittedSize(fitting: self.width, self.height, within: width, height)
            return sampledRGB(bytesPerRow: bytesPerRow, size: fitted.atMost(self.width, self.height))
                .resampled(toWidth: fitted.width, height: fitted.height)
        case .yuv420(let bytesPerRow):
            try requireRows(of: bytesPerRow, bytesPerPixel: 1)
            let fitted = FittedSize(fitting: self.width, self.height, within: width, height)
            return sampledYUV420(bytesPerRow: bytesPerRow, size: fitted.atMost(self.width, self.height))
                .resampled(toWidth: fitted.width, height: fitted.height)
        }
    }

    /// Converts a YUYV frame to `.bgrx` at `size` (no larger than the frame), sampling the
    /// nearest source pixel, with the BT.601 limited-range matrix webcams use.
    private func sampledYUYV(bytesPerRow: Int, size: FittedSize) -> Bitmap {
        sampled(size: size) { source, row, column in
            let rowStart = row * bytesPerRow
            // Y0 U Y1 V: each pair of pixels shares one U and one V.
            let pair = rowStart + (column & ~1) * 2
            let luma = 298 * (Int(source[rowStart + column * 2]) - 16) + 128
            let u = Int(source[pair + 1]) - 128
            let v = Int(source[pair + 3]) - 128
            return (
                UInt8(clamping: (luma + 516 * u) >> 8), UInt8(clamping: (luma - 100 * u - 208 * v) >> 8),
                UInt8(clamping: (luma + 409 * v) >> 8)
            )
        }
    }

    /// Converts an RGB24 frame to `.bgrx` at `size` (no larger than the frame), sampling the
    /// nearest source pixel.
    private func sampledRGB(bytesPerRow: Int, size: FittedSize) -> Bitmap {
        sampled(size: size) { source, row, column in
            let pixel = row * bytesPerRow + column * 3
            return (source[pixel + 2], source[pixel + 1], source[pixel])
        }
    }

    /// Converts a planar 4:2:0 frame to `.bgrx` at `size` (no larger than the frame), sampling
    /// the nearest source pixel, with the full-range BT.601 matrix (JPEG's, which the booth asks
    /// of libcamera).
    private func sampledYUV420(bytesPerRow: Int, size: FittedSize) -> Bitmap {
        let planes = yuv420Planes(bytesPerRow: bytesPerRow)
        let (uStart, vStart, chromaRow) = (planes.offsets[1], planes.offsets[2], planes.strides[1])
        return sampled(size: size) { source, row, column in
            let luma = Int(source[row * bytesPerRow + column]) << 8 + 128
            let chroma = (row / 2) * chromaRow + column / 2
            let u = Int(source[uStart + chroma]) - 128
            let v = Int(source[vStart + chroma]) - 128
            return (
                UInt8(clamping: (luma + 454 * u) >> 8), UInt8(clamping: (luma - 88 * u - 183 * v) >> 8),
                UInt8(clamping: (luma + 359 * v) >> 8)
            )
        }
    }

    /// A `.bgrx` bitmap at `size` whose every pixel is `convert` of the nearest source pixel
    /// (given the raw bytes, the source row and column).
    @inline(__always)
    private func sampled(
        size: FittedSize, convert: (UnsafeBufferPointer<UInt8>, _ row: Int, _ column: Int) -> (blue: UInt8, green: UInt8, red: UInt8)
    ) -> Bitmap {
        let columns = nearestSamples(size.width, of: width)
        let rows = nearestSamples(size.height, of: height)
        return Bitmap(bgrxWidth: size.width, height: size.height) { output in
            bytes.withUnsafeBytes { raw in
                let source = raw.bindMemory(to: UInt8.self)
                var offset = 0
                for row in rows {
                    for column in columns {
                        let (blue, green, red) = convert(source, row, column)
                        output[offset] = blue
                        output[offset + 1] = green
                        output[offset + 2] = red
                        output[offset + 3] = 0xFF
                        offset += 4
                    }
                }
            }
        }
    }
}
