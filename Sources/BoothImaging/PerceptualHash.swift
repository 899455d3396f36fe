import Foundation

/// A 64-bit fingerprint of what a picture looks like, for finding near-identical shots: two
/// photos of the same scene a moment apart, or one photo saved twice at different qualities,
/// have hashes a few bits apart; different pictures differ in about half of the 64 bits.
///
/// It is the DCT hash (pHash): the picture in grey, averaged down to 32x32, its 2-D discrete
/// cosine transform, and one bit per coefficient of the 8x8 lowest frequencies after the
/// constant term's row and column, set when the coefficient is above their median. Neither it
/// nor the gradient hash (dHash: the signs of neighbouring differences in a 9x8 reduction) sees
/// a brighter exposure. We measured both on the tests' pictures: dHash shrugs off a shift of 2%
/// better (2 to 11 bits where pHash flips 10 to 16), but a re-encode at quality 40 flipped 7 to
/// 13 of its bits (pHash: 0 to 2), and it kept different scenes only 19 to 31 bits apart
/// (pHash: 30 to 36). A booth's near-duplicates are the same frame saved twice or the next
/// frame of a still scene, so pHash; its transform on 32x32 values costs microseconds, nothing
/// beside the decode it follows.
package enum PerceptualHash {
    /// The side of the grey grid the transform runs on.
    static let side = 32
    /// How many frequencies per axis make the hash: 8 x 8 = 64 bits.
    static let frequencies = 8

    /// The largest ``hammingDistance(_:_:)`` at which two hashes stand for the same shot,
    /// near enough: a re-encode, a brighter copy, a frame a moment later. Different pictures
    /// are more than 20 bits apart.
    package static let nearDuplicateDistance = 10

    /// The hash of `bitmap`, of either pixel format and any size; its aspect ratio is ignored.
    package static func hash(of bitmap: Bitmap) -> UInt64 {
        let grid = greyGrid(of: bitmap)
        // The separable transform, only as far as the frequencies the hash keeps: rows first
        // (frequencies 1...8 of each column), then columns.
        let cosines = (0...frequencies).map { frequency in
            (0..<side).map { x in Float(cos(Double((2 * x + 1) * frequency) * .pi / Double(2 * side))) }
        }
        var rows = [Float](repeating: 0, count: frequencies * side)
        for u in 1...frequencies {
            for y in 0..<side {
                let weight = cosines[u][y]
                for x in 0..<side { rows[(u - 1) * side + x] += weight * grid[y * side + x] }
            }
        }
        var coefficients: [Float] = []
        coefficients.reserveCapacity(frequencies * frequencies)
        for u in 0..<frequencies {
            for v in 1...frequencies {
                var sum: Float = 0
                for x in 0..<side { sum += rows[u * side + x] * cosines[v][x] }
                coefficients.append(sum)
            }
        }
        let sorted = coefficients.sorted()
        let median = (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        var hash: UInt64 = 0
        for (index, coefficient) in coefficients.enumerated() where coefficient > median {
            hash |= 1 << UInt64(63 - index)
        }
        return hash
    }

    /// How many of their 64 bits two hashes differ in: 0 for the same picture, about 32 for
    /// unrelated ones.
    package static func hammingDistance(_ a: UInt64, _ b: UInt64) -> Int {
        (a ^ b).nonzeroBitCount
    }

    /// The picture's luminance averaged into `side` x `side` cells, rows top to bottom. Each
    /// cell is the mean of the pixels it covers, so detail finer than a cell averages out
    /// instead of aliasing; a picture smaller than the grid repeats pixels.
    static func greyGrid(of bitmap: Bitmap) -> [Float] {
        let columns = cells(side, over: bitmap.width)
        let rows = cells(side, over: bitmap.height)
        let (red, blue) = bitmap.format == .rgb ? (0, 2) : (2, 0)
        let stride = bitmap.format.bytesPerPixel
        // Each row's luminance summed per column of cells, then those sums per row of cells. It
        // runs at every shot, on the thumbnail: buffers without bounds checks.
        var rowSums = [Float](repeating: 0, count: bitmap.height * side)
        var luminance = [Float](repeating: 0, count: bitmap.width)
        bitmap.pixels.withUnsafeBufferPointer { pixels in
            luminance.withUnsafeMutableBufferPointer { luminance in
                rowSums.withUnsafeMutableBufferPointer { rowSums in
                    for y in 0..<bitmap.height {
                        var offset = y * bitmap.bytesPerRow
                        for x in 0..<bitmap.width {
                            luminance[x] =
                                0.299 * Float(pixels[offset + red]) + 0.587 * Float(pixels[offset + 1]) + 0.114
                                * Float(pixels[offset + blue])
                            offset += stride
                        }
                        for cell in 0..<side {
                            var sum: Float = 0
                            for x in columns[cell] { sum += luminance[x] }
                            rowSums[y * side + cell] = sum
                        }
                    }
                }
            }
        }
        var grid = [Float](repeating: 0, count: side * side)
        for (row, range) in rows.enumerated() {
            for (column, columnRange) in columns.enumerated() {
                var sum: Float = 0
                for y in range { sum += rowSums[y * side + column] }
                grid[row * side + column] = sum / Float(range.count * columnRange.count)
            }
        }
        return grid
    }

    /// The pixels each of `count` cells covers along a side of `length` pixels: a partition
    /// when the side is longer than the cells are many, at least one pixel each otherwise.
    private static func cells(_ count: Int, over length: Int) -> [Range<Int>] {
        (0..<count).map { cell in
            let start = min(length - 1, cell * length / count)
            return start..<max(start + 1, (cell + 1) * length / count)
        }
    }
}

extension Bitmap {
    /// This picture's ``PerceptualHash``.
    package var perceptualHash: UInt64 { PerceptualHash.hash(of: self) }
}
