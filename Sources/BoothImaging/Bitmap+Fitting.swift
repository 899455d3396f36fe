import Foundation

extension JPEGDecoder {
    /// Decodes `jpeg` as the largest picture that fits within `width` x `height` with the
    /// image's aspect ratio, in the framebuffer's layout (`.bgrx`): what a screen shows of a
    /// camera frame or a photo.
    ///
    /// It decodes no more than it shows: TurboJPEG's DCT scaling (1/2, 1/4, 1/8) reduces the
    /// image to the smallest size that still covers the fitted one, so a 4K photo on a 1280x800
    /// screen costs a quarter of a full decode; a cheap resample does the rest, and enlarges
    /// (interpolating) an image smaller than the box.
    ///
    /// - Parameter fast: trade a little accuracy for speed, for live previews.
    package func decode(_ jpeg: Data, fitting width: Int, _ height: Int, fast: Bool = false) throws(ImageError) -> Bitmap {
        precondition(width > 0 && height > 0, "a picture needs at least one pixel")
        let header = try header(of: jpeg)
        let fitted = FittedSize(fitting: header.width, header.height, within: width, height)
        let scale =
            ScalingFactor.allCases.reversed().first {
                $0.scaled(header.width) >= fitted.width && $0.scaled(header.height) >= fitted.height
            } ?? .full
        let decoded = try decode(jpeg, scale: scale, format: .bgrx, fast: fast)
        return decoded.resampled(toWidth: fitted.width, height: fitted.height)
    }
}

/// For each of `count` samples along a side of `length` pixels, the source pixel at its centre.
func nearestSamples(_ count: Int, of length: Int) -> [Int] {
    (0..<count).map { min(length - 1, (2 * $0 + 1) * length / (2 * count)) }
}

/// The size of a picture scaled to fit a box.
package struct FittedSize {
    package let width: Int
    package let height: Int

    /// The largest size within `boxWidth` x `boxHeight` with the aspect ratio of `width` x
    /// `height`, larger than the source when the box is.
    package init(fitting width: Int, _ height: Int, within boxWidth: Int, _ boxHeight: Int) {
        if width * boxHeight >= height * boxWidth {
            self.init(width: boxWidth, height: max(1, (height * boxWidth + width / 2) / width))
        } else {
            self.init(width: max(1, (width * boxHeight + height / 2) / height), height: boxHeight)
        }
    }

    private init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// This size, or the source's when this one is larger: raw frames are converted at most at
    /// their own size and enlarged by the resample, which interpolates instead of repeating
    /// pixels.
    func atMost(_ sourceWidth: Int, _ sourceHeight: Int) -> FittedSize {
        width <= sourceWidth && height <= sourceHeight ? self : FittedSize(width: sourceWidth, height: sourceHeight)
    }
}

extension Bitmap {
    /// This `.bgrx` picture as the largest that fits within `width` x `height` with its aspect
    /// ratio: a picture already decoded for the screen, drawn into a part of it.
    package func fitted(within width: Int, _ height: Int) -> Bitmap {
        precondition(width > 0 && height > 0, "a picture needs at least one pixel")
        let fitted = FittedSize(fitting: self.width, self.height, within: width, height)
        return resampled(toWidth: fitted.width, height: fitted.height)
    }

    /// This `.bgrx` picture at exactly `width` x `height`, averaging what it covers where it
    /// shrinks (a box filter, for a picture that must look its best) and interpolating where it
    /// grows.
    package func scaled(toWidth width: Int, height: Int) -> Bitmap {
        if width <= self.width && height <= self.height { return downscaled(toWidth: width, height: height) }
        return resampled(toWidth: width, height: height)
    }

    /// The part of this bitmap with its top left corner at (`x`, `y`), `width` x `height`
    /// pixels, all inside it.
    package func cropped(x: Int, y: Int, width: Int, height: Int) -> Bitmap {
        precondition(x >= 0 && y >= 0 && x + width <= self.width && y + height <= self.height, "a crop stays inside the picture")
        if width == self.width && height == self.height { return self }
        let bytesPerPixel = format.bytesPerPixel
        let rowLength = width * bytesPerPixel
        var result = [UInt8]()
        result.reserveCapacity(rowLength * height)
        for row in y..<(y + height) {
            let start = row * bytesPerRow + x * bytesPerPixel
            result.append(contentsOf: pixels[start..<(start + rowLength)])
        }
        return Bitmap(width: width, height: height, format: format, pixels: result)
    }

    /// A `.bgrx` bitmap whose pixels `fill` writes, every byte of them.
    init(bgrxWidth width: Int, height: Int, fill: (UnsafeMutableBufferPointer<UInt8>) -> Void) {
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
            fill(buffer)
            count = buffer.count
        }
        self.init(width: width, height: height, format: .bgrx, pixels: pixels)
    }

    /// This `.bgrx` bitmap at exactly `newWidth` x `newHeight`.
    ///
    /// Shrinking takes the nearest pixel: the scaled decode leaves less than 2:1 to do, where
    /// interpolating 2x2 pixels looks no better from two metres and costs four times as much
    /// (it is every preview frame of a camera larger than the screen). Enlarging a small
    /// camera's picture interpolates, since repeated pixels would show as blocks.
    func resampled(toWidth newWidth: Int, height newHeight: Int) -> Bitmap {
        precondition(format == .bgrx, "previews are resampled in the framebuffer's layout")
        if newWidth == width && newHeight == height { return self }
        if newWidth <= width && newHeight <= height { return shrunk(toWidth: newWidth, height: newHeight) }
        return enlarged(toWidth: newWidth, height: newHeight)
    }

    /// This bitmap made smaller by taking the pixel at the centre of each target pixel.
    private func shrunk(toWidth newWidth: Int, height newHeight: Int) -> Bitmap {
        let columns = nearestSamples(newWidth, of: width)
        let rows = nearestSamples(newHeight, of: height)
        let sourceRow = bytesPerRow
        return pixels.withUnsafeBytes { source in
            Bitmap(bgrxWidth: newWidth, height: newHeight) { output in
                let target = UnsafeMutableRawBufferPointer(output)
                var offset = 0
                for row in rows {
                    let start = row * sourceRow
                    for column in columns {
                        let pixel = source.loadUnaligned(fromByteOffset: start + column * 4, as: UInt32.self)
                        target.storeBytes(of: pixel, toByteOffset: offset, as: UInt32.self)
                        offset += 4
                    }
                }
            }
        }
    }

    /// This bitmap made larger by bilinear interpolation in 8-bit fixed point.
    ///
    /// Separably: each source row the picture needs is widened once (its pixels mixed along
    /// the row), and each output row mixes the two widened rows around it with one weight, a
    /// loop the compiler vectorises. A 720p camera on a 1080p screen is every preview frame
    /// enlarged; mixing the four pixels around each output pixel cost 9 ms a frame here.
    private func enlarged(toWidth newWidth: Int, height newHeight: Int) -> Bitmap {
        let columns = Self.taps(newWidth, from: width)
        let rows = Self.taps(newHeight, from: height)
        let sourceRow = bytesPerRow
        return pixels.withUnsafeBytes { source in
            Bitmap(bgrxWidth: newWidth, height: newHeight) { output in
                withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 2 * newWidth) { widened in
                    // Two widened rows, and which source row each holds.
                    var lines = (widened.baseAddress!, widened.baseAddress! + newWidth)
                    var held = (-1, -1)
                    func widen(_ row: Int, into line: UnsafeMutablePointer<UInt32>) {
                        let start = row * sourceRow
                        for (x, column) in columns.enumerated() {
                            line[x] = Self.mix(
                                source.loadUnaligned(fromByteOffset: start + column.first * 4, as: UInt32.self),
                                source.loadUnaligned(fromByteOffset: start + column.second * 4, as: UInt32.self), column.weight)
                        }
                    }
                    let target = UnsafeMutableRawPointer(output.baseAddress!).bindMemory(to: UInt32.self, capacity: newWidth * newHeight)
                    for (y, row) in rows.enumerated() {
                        // Rows only move down: the lower line of one output row is often the
                        // upper line of the next.
                        if held.0 != row.first {
                            if held.1 == row.first {
                                lines = (lines.1, lines.0)
                                held = (held.1, held.0)
                            } else {
                                widen(row.first, into: lines.0)
                                held.0 = row.first
                            }
                        }
                        if held.1 != row.second {
                            widen(row.second, into: lines.1)
                            held.1 = row.second
                        }
                        let (upper, lower, weight) = (lines.0, lines.1, row.weight)
                        let line = target + y * newWidth
                        for x in 0..<newWidth { line[x] = Self.mix(upper[x], lower[x], weight) }
                    }
                }
            }
        }
    }

    /// For each of `count` samples along a side of `length` pixels: the two source pixels
    /// around its centre and the weight of the second, out of 256.
    private static func taps(_ count: Int, from length: Int) -> [(first: Int, second: Int, weight: UInt32)] {
        (0..<count).map { index in
            // The sample's centre in source pixels, in 8-bit fixed point.
            let centre = max(0, ((2 * index + 1) * length * 256) / (2 * count) - 128)
            let first = min(length - 1, centre >> 8)
            return (first, min(length - 1, first + 1), UInt32(centre & 0xFF))
        }
    }

    /// `a` and `b` mixed, `weight`/256 of `b`, all four bytes at once: two bytes per 16-bit lane,
    /// so no lane overflows into the next.
    @inline(__always)
    private static func mix(_ a: UInt32, _ b: UInt32, _ weight: UInt32) -> UInt32 {
        let keep = 256 - weight
        let evenBytes = (((a & 0x00FF_00FF) &* keep &+ (b & 0x00FF_00FF) &* weight) >> 8) & 0x00FF_00FF
        let oddBytes = (((a >> 8) & 0x00FF_00FF) &* keep &+ ((b >> 8) & 0x00FF_00FF) &* weight) & 0xFF00_FF00
        return evenBytes | oddBytes
    }
}
