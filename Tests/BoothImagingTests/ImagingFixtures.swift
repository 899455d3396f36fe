import BoothImaging
import Foundation

/// JPEGs made the way the simulated camera makes them.
enum Fixtures {
    static func jpeg(width: Int, height: Int, frame: UInt64 = 1, quality: Int = 85) throws -> Data {
        let bitmap = TestPattern(width: width, height: height).render(frame: frame, at: Date(timeIntervalSince1970: 1_700_000_000))
        return try JPEGEncoder().encode(bitmap, quality: quality)
    }

    static func solid(width: Int, height: Int, color: (UInt8, UInt8, UInt8)) -> Bitmap {
        let pixels = (0..<width * height).flatMap { _ in [color.0, color.1, color.2] }
        return Bitmap(width: width, height: height, format: .rgb, pixels: pixels)
    }
}
