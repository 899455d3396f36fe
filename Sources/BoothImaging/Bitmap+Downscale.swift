extension Bitmap {
    /// The size that fits within `longestSide` pixels, keeping the aspect ratio; the bitmap's own
    /// size when it already fits.
    public func size(fittingLongestSide longestSide: Int) -> (width: Int, height: Int) {
        guard max(width, height) > longestSide else { return (width, height) }
        if width >= height {
            return (longestSide, max(1, (height * longestSide + width / 2) / width))
        }
        return (max(1, (width * longestSide + height / 2) / height), longestSide)
    }

    /// A smaller copy in which every pixel is the average of the source area it covers (a box
    /// filter), so fine detail averages out instead of aliasing.
    public func downscaled(toWidth newWidth: Int, height newHeight: Int) -> Bitmap {
        precondition(newWidth <= width && newHeight <= height, "downscaled only makes bitmaps smaller")
        if newWidth == width && newHeight == height { return self }
        let channels = format.bytesPerPixel
        let columns = Self.coverage(from: width, to: newWidth)
        let rows = Self.coverage(from: height, to: newHeight)

        // Horizontal pass into floats, then vertical pass back to bytes.
        var horizontal = [Float](repeating: 0, count: newWidth * height * channels)
        for y in 0..<height {
            let sourceRow = y * width * channels
            let targetRow = y * newWidth * channels
            for (x, taps) in columns.enumerated() {
                for channel in 0..<channels {
                    var sum: Float = 0
                    for tap in taps { sum += Float(pixels[sourceRow + tap.index * channels + channel]) * tap.weight }
                    horizontal[targetRow + x * channels + channel] = sum
                }
            }
        }
        var result = [UInt8](repeating: 0, count: newWidth * newHeight * channels)
        let rowLength = newWidth * channels
        for (y, taps) in rows.enumerated() {
            for i in 0..<rowLength {
                var sum: Float = 0
                for tap in taps { sum += horizontal[tap.index * rowLength + i] * tap.weight }
                result[y * rowLength + i] = UInt8(clamping: Int(sum.rounded()))
            }
        }
        return Bitmap(width: newWidth, height: newHeight, format: format, pixels: result)
    }

    /// For each target pixel along one axis, the source pixels it covers and by how much
    /// (weights sum to 1).
    private static func coverage(from source: Int, to target: Int) -> [[(index: Int, weight: Float)]] {
        let scale = Double(source) / Double(target)
        return (0..<target).map { i in
            let start = Double(i) * scale
            let end = min(Double(i + 1) * scale, Double(source))
            var taps: [(index: Int, weight: Float)] = []
            var position = Int(start)
            while Double(position) < end {
                let covered = min(end, Double(position + 1)) - max(start, Double(position))
                if covered > 0 { taps.append((position, Float(covered / scale))) }
                position += 1
            }
            return taps
        }
    }
}
