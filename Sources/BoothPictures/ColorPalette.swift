import BoothImaging

/// At most 256 colours chosen for a set of pictures: an animation's frames share one, so that
/// a wall that does not move keeps its colour from frame to frame instead of flickering.
///
/// Chosen by median cut over a histogram of the pictures' colours (5 bits a channel, each cell
/// keeping the sum of its colours), then refined by a few rounds of k-means over that
/// histogram: each colour moves to the mean of the cells nearest to it, which is what brings
/// the palette close to the pictures' own colours where median cut only halves boxes.
package struct ColorPalette: Sendable {
    /// Red, green, blue per entry; at most 256 entries.
    package private(set) var colors: [(red: UInt8, green: UInt8, blue: UInt8)]

    /// A palette of at most `size` colours for `pictures` (`.bgrx`), made from every
    /// `sampling`-th pixel.
    package init(for pictures: [Bitmap], size: Int = 256, sampling: Int = 1, refinements: Int = 3) {
        var histogram = Histogram()
        for picture in pictures { histogram.add(picture, every: max(1, sampling)) }
        var centres = histogram.medianCut(into: size)
        for _ in 0..<refinements { centres = histogram.refined(centres) }
        colors = centres.map { centre in
            (UInt8(clamping: Int(centre.x.rounded())), UInt8(clamping: Int(centre.y.rounded())), UInt8(clamping: Int(centre.z.rounded())))
        }
        if colors.isEmpty { colors = [(0, 0, 0)] }
    }
}

/// How many pixels fall in each cell of the colour cube (32x32x32), and the sums of their
/// channels.
private struct Histogram {
    struct Cell {
        var key: Int
        var count: Int
        var sum: SIMD3<Double>
        var mean: SIMD3<Double> { sum / Double(count) }
    }

    private var counts = [Int](repeating: 0, count: 32 * 32 * 32)
    private var sums = [SIMD3<Int>](repeating: .zero, count: 32 * 32 * 32)

    mutating func add(_ picture: Bitmap, every step: Int) {
        precondition(picture.format == .bgrx, "animations are made in the framebuffer's layout")
        counts.withUnsafeMutableBufferPointer { counts in
            sums.withUnsafeMutableBufferPointer { sums in
                picture.pixels.withUnsafeBufferPointer { pixels in
                    for offset in stride(from: 0, to: pixels.count, by: 4 * step) {
                        let (blue, green, red) = (Int(pixels[offset]), Int(pixels[offset + 1]), Int(pixels[offset + 2]))
                        let key = (red >> 3) << 10 | (green >> 3) << 5 | blue >> 3
                        counts[key] += 1
                        sums[key] &+= SIMD3(red, green, blue)
                    }
                }
            }
        }
    }

    /// The cells that hold any pixel.
    var cells: [Cell] {
        counts.indices.compactMap { key in
            counts[key] == 0 ? nil : Cell(key: key, count: counts[key], sum: SIMD3<Double>(sums[key]))
        }
    }

    /// Up to `size` colours: the cells split into boxes, each time the box with the most
    /// spread (its longest side times its pixels) halved at its median along that side; each
    /// box's colour the mean of its pixels.
    func medianCut(into size: Int) -> [SIMD3<Double>] {
        var boxes: [[Cell]] = [cells]
        guard !boxes[0].isEmpty else { return [] }
        func spread(_ box: [Cell]) -> (score: Double, axis: Int) {
            guard box.count > 1 else { return (0, 0) }
            var low = SIMD3<Double>(repeating: .infinity)
            var high = SIMD3<Double>(repeating: -.infinity)
            var pixels = 0
            for cell in box {
                let mean = cell.mean
                low = pointwiseMin(low, mean)
                high = pointwiseMax(high, mean)
                pixels += cell.count
            }
            let range = high - low
            let axis = range.x >= range.y && range.x >= range.z ? 0 : (range.y >= range.z ? 1 : 2)
            return (range[axis] * Double(pixels), axis)
        }
        var scores = boxes.map(spread)
        while boxes.count < size {
            guard let widest = scores.indices.max(by: { scores[$0].score < scores[$1].score }), scores[widest].score > 0 else { break }
            let axis = scores[widest].axis
            let sorted = boxes[widest].sorted { $0.mean[axis] < $1.mean[axis] }
            let total = sorted.reduce(0) { $0 + $1.count }
            var running = 0
            var split = 1
            for (index, cell) in sorted.enumerated().dropLast() {
                running += cell.count
                split = index + 1
                if 2 * running >= total { break }
            }
            let (first, second) = (Array(sorted[..<split]), Array(sorted[split...]))
            boxes[widest] = first
            scores[widest] = spread(first)
            boxes.append(second)
            scores.append(spread(second))
        }
        return boxes.map { box in
            let (sum, count) = box.reduce((SIMD3<Double>.zero, 0)) { ($0.0 + $1.sum, $0.1 + $1.count) }
            return sum / Double(count)
        }
    }

    /// `centres` moved each to the mean of the cells nearest to it (one round of k-means); a
    /// centre nearest to none stays.
    func refined(_ centres: [SIMD3<Double>]) -> [SIMD3<Double>] {
        var sums = [SIMD3<Double>](repeating: .zero, count: centres.count)
        var counts = [Int](repeating: 0, count: centres.count)
        for cell in cells {
            let mean = cell.mean
            var best = 0
            var bestDistance = Double.infinity
            for (index, centre) in centres.enumerated() {
                let difference = centre - mean
                let distance = (difference * difference).sum()
                if distance < bestDistance {
                    bestDistance = distance
                    best = index
                }
            }
            sums[best] += cell.sum
            counts[best] += cell.count
        }
        return centres.indices.map { counts[$0] == 0 ? centres[$0] : sums[$0] / Double(counts[$0]) }
    }
}
