/// How much of each pixel a shape covers, 0 (not at all) to 255 (fully): an anti-aliased glyph
/// as FreeType renders it.
struct CoverageMask: Sendable, Hashable {
    let width: Int
    let height: Int
    /// `width * height` values, rows top to bottom.
    let values: [UInt8]

    /// The shape grown by about `radius` pixels on every side with a soft edge: painted in a
    /// dark colour under the shape, it outlines it so that it reads over any picture. The result
    /// is `2 * radius` pixels wider and taller; the shape sits at (`radius`, `radius`) in it.
    ///
    /// Every pixel the shape touches at all is grown by half the radius (at least two pixels)
    /// at full strength, then two box blurs (close to a Gaussian) with a gain soften the rest:
    /// the pixels right around each letter, its faint anti-aliased edge included, are the halo's
    /// own colour, never the picture's. Each pass costs the same whatever the radius, and the
    /// caller computes it once per glyph and size.
    func halo(radius: Int) -> CoverageMask {
        precondition(radius > 0, "a halo needs a radius")
        let haloWidth = width + 2 * radius
        let haloHeight = height + 2 * radius
        var grid = [Int](repeating: 0, count: haloWidth * haloHeight)
        for row in 0..<height {
            for column in 0..<width where values[row * width + column] > 0 {
                grid[(row + radius) * haloWidth + radius + column] = 255
            }
        }
        let grow = max(2, radius / 2)
        Self.grow(&grid, width: haloWidth, height: haloHeight, by: grow, alongRows: true)
        Self.grow(&grid, width: haloWidth, height: haloHeight, by: grow, alongRows: false)
        let blur = max(1, radius / 4)
        for _ in 0..<2 {
            Self.blur(&grid, width: haloWidth, height: haloHeight, radius: blur, alongRows: true)
            Self.blur(&grid, width: haloWidth, height: haloHeight, radius: blur, alongRows: false)
        }
        return CoverageMask(width: haloWidth, height: haloHeight, values: grid.map { UInt8(min(255, $0 * 3)) })
    }

    /// Replaces every value with the largest of the `2 * distance + 1` values around it along
    /// rows or columns: the shape grown by `distance` pixels that way.
    private static func grow(_ grid: inout [Int], width: Int, height: Int, by distance: Int, alongRows: Bool) {
        let (lines, length) = alongRows ? (height, width) : (width, height)
        let step = alongRows ? 1 : width
        var line = [Int](repeating: 0, count: length)
        for index in 0..<lines {
            let start = alongRows ? index * width : index
            for position in 0..<length { line[position] = grid[start + position * step] }
            for position in 0..<length {
                var largest = 0
                for other in max(0, position - distance)...min(length - 1, position + distance) { largest = max(largest, line[other]) }
                grid[start + position * step] = largest
            }
        }
    }

    /// Replaces every value with the mean of the `2 * radius + 1` values around it along rows
    /// or columns (outside the grid counts as 0).
    private static func blur(_ grid: inout [Int], width: Int, height: Int, radius: Int, alongRows: Bool) {
        let (lines, length) = alongRows ? (height, width) : (width, height)
        let step = alongRows ? 1 : width
        let window = 2 * radius + 1
        var sums = [Int](repeating: 0, count: length + 1)
        for line in 0..<lines {
            let start = alongRows ? line * width : line
            for position in 0..<length { sums[position + 1] = sums[position] + grid[start + position * step] }
            for position in 0..<length {
                let total = sums[min(length, position + radius + 1)] - sums[max(0, position - radius)]
                grid[start + position * step] = total / window
            }
        }
    }
}
