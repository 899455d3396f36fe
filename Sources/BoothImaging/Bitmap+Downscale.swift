extension Bitmap {
    /// The size that fits within `longestSide` pixels, keeping the aspect ratio; the bitmap's own
    /// size when it already fits.
    package func size(fittingLongestSide longestSide: Int) -> (width: Int, height: Int) {
        guard max(width, height) > longestSide else { return (width, height) }
        if width >= height {
            return (longestSide, max(1, (height * longestSide + width / 2) / width))
        }
        return (max(1, (width * longestSide + height / 2) / height), longestSide)
    }

    /// A smaller copy in which every pixel is the average of the source area it covers (a box
    /// filter), so fine detail averages out instead of aliasing.
    ///
    /// It runs after every shot's decode, so it is written for speed: integer weights (each
    /// axis's sum to 2^12, so that a sum of both passes fits 32 bits exactly), the rows first
    /// (whole rows at a time, which the compiler vectorises), then the columns of the fewer rows
    /// left, a pixel of the framebuffer's layout at a time; no bounds checks in the loops.
    package func downscaled(toWidth newWidth: Int, height newHeight: Int) -> Bitmap {
        precondition(newWidth <= width && newHeight <= height, "downscaled only makes bitmaps smaller")
        if newWidth == width && newHeight == height { return self }
        let channels = format.bytesPerPixel
        let rowLength = width * channels
        let rows = BoxTaps(from: height, to: newHeight)
        let columns = BoxTaps(from: width, to: newWidth)

        // Rows: each target row is the weighted sum of the source rows it covers (at most
        // 255 x 2^12).
        var vertical = [UInt32](repeating: 0, count: newHeight * rowLength)
        pixels.withUnsafeBufferPointer { source in
            vertical.withUnsafeMutableBufferPointer { target in
                rows.withUnsafeTaps { first, indices, weights in
                    for y in 0..<newHeight {
                        let sums = target.baseAddress! + y * rowLength
                        for tap in first[y]..<first[y + 1] {
                            let line = source.baseAddress! + indices[tap] * rowLength
                            let weight = UInt32(weights[tap])
                            for i in 0..<rowLength { sums[i] &+= UInt32(line[i]) &* weight }
                        }
                    }
                }
            }
        }
        // Columns: each target pixel the weighted sum of the pixels of its row it covers (at
        // most 255 x 2^24, which rounds back to a byte).
        let targetLength = newWidth * channels
        let result = [UInt8](unsafeUninitializedCapacity: newHeight * targetLength) { buffer, count in
            vertical.withUnsafeBufferPointer { source in
                columns.withUnsafeTaps { first, indices, weights in
                    for y in 0..<newHeight {
                        let line = source.baseAddress! + y * rowLength
                        let output = buffer.baseAddress! + y * targetLength
                        for x in 0..<newWidth {
                            if channels == 4 {
                                // The framebuffer's layout, what shots are decoded to: a pixel at a time.
                                var sum = SIMD4<UInt32>.zero
                                for tap in first[x]..<first[x + 1] {
                                    let pixel = UnsafeRawPointer(line + indices[tap] * 4).loadUnaligned(as: SIMD4<UInt32>.self)
                                    sum &+= pixel &* UInt32(weights[tap])
                                }
                                let rounded = (sum &+ (1 << 23)) &>> 24
                                UnsafeMutableRawPointer(output + x * 4).storeBytes(
                                    of: SIMD4<UInt8>(truncatingIfNeeded: rounded), as: SIMD4<UInt8>.self)
                            } else {
                                for channel in 0..<channels {
                                    var sum: UInt32 = 0
                                    for tap in first[x]..<first[x + 1] {
                                        sum &+= line[indices[tap] * channels + channel] &* UInt32(weights[tap])
                                    }
                                    output[x * channels + channel] = UInt8(truncatingIfNeeded: (sum &+ (1 << 23)) >> 24)
                                }
                            }
                        }
                    }
                }
            }
            count = newHeight * targetLength
        }
        return Bitmap(width: newWidth, height: newHeight, format: format, pixels: result)
    }
}

/// For each target pixel along one axis, the source pixels it covers and by how much, in
/// integers that sum to 2^12: a box filter's weights.
private struct BoxTaps {
    /// `first[i]..<first[i + 1]` indexes the taps of target pixel `i`.
    private var first: [Int] = [0]
    private var indices: [Int] = []
    private var weights: [UInt16] = []

    static let unit = 1 << 12

    init(from source: Int, to target: Int) {
        let scale = Double(source) / Double(target)
        for i in 0..<target {
            let start = Double(i) * scale
            let end = min(Double(i + 1) * scale, Double(source))
            // Each tap's weight is the step between the rounded shares covered up to its end and
            // up to its start: never negative, and they add up to exactly 2^12, so that a plain
            // colour stays exactly that colour. (Rounding each share on its own, a pixel covering
            // 101 source pixels would give 101 x 41 > 2^12.)
            var given = 0
            var position = Int(start)
            while Double(position) < end {
                let coveredEnd = min(end, Double(position + 1))
                let share = coveredEnd >= end ? Self.unit : Int(((coveredEnd - start) / scale * Double(Self.unit)).rounded())
                if share > given {
                    indices.append(position)
                    weights.append(UInt16(share - given))
                    given = share
                }
                position += 1
            }
            first.append(indices.count)
        }
    }

    /// The taps as buffers, for loops without bounds checks: target pixel `i` has the taps
    /// `first[i]..<first[i + 1]`.
    func withUnsafeTaps<T>(
        _ body: (UnsafeBufferPointer<Int>, UnsafeBufferPointer<Int>, UnsafeBufferPointer<UInt16>) -> T
    ) -> T {
        first.withUnsafeBufferPointer { first in
            indices.withUnsafeBufferPointer { indices in
                weights.withUnsafeBufferPointer { weights in body(first, indices, weights) }
            }
        }
    }
}
