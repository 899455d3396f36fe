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
    /// Two box blurs (close to a Gaussian) with a gain, so the halo is solid near the shape and
    /// fades out at `radius`. Each pass costs the same whatever the radius (running sums), and
    /// the caller computes it once per glyph and size.
    func halo(radius: Int) -> CoverageMask {
        precondition(radius > 0, "a halo needs a radius")
        let haloWidth = width + 2 * radius
        let haloHeight = height + 2 * radius
        var grid = [Int](repeating: 0, count: haloWidth * haloHeight)
        for row in 0..<height {
            for column in 0..<width {
                grid[(row + radius) * haloWidth + radius + column] = Int(values[row * width + column])
            }
        }
        let blur = max(1, radius / 2)
        for _ in 0..<2 {
            Self.blur(&grid, width: haloWidth, height: haloHeight, radius: blur, alongRows: true)
            Self.blur(&grid, width: haloWidth, height: haloHeight, radius: blur, alongRows: false)
        }
        return CoverageMask(width: haloWidth, height: haloHeight, values: grid.map { UInt8(min(255, $0 * 3)) })
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
