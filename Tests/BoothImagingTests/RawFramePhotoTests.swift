import BoothCore
import Foundation
import Testing

@testable import BoothImaging

@Suite("Raw frames as photos")
struct RawFramePhotoTests {
    /// A YUYV frame of one colour, with `padding` bytes at the end of each row.
    func yuyvFrame(width: Int, height: Int, y: UInt8, u: UInt8, v: UInt8, padding: Int = 0) -> CameraFrame {
        let row = (0..<(width / 2)).flatMap { _ in [y, u, y, v] } + [UInt8](repeating: 0xAA, count: padding)
        return CameraFrame(
            bytes: Data((0..<height).flatMap { _ in row }), encoding: .yuyv(bytesPerRow: width * 2 + padding),
            width: width, height: height, timestamp: MonotonicInstant(nanoseconds: 1), sequence: 1)
    }

    @Test("A YUYV frame is encoded once as a JPEG of its size whose colour matches", arguments: [0, 32])
    func yuyv(padding: Int) throws {
        // BT.601: Y 81, U 90, V 240 is pure red.
        let frame = yuyvFrame(width: 64, height: 48, y: 81, u: 90, v: 240, padding: padding)
        let jpeg = try frame.photoJPEG()
        let bitmap = try JPEGDecoder().decode(jpeg)
        #expect(bitmap.width == 64 && bitmap.height == 48)
        let centre = (24 * 64 + 32) * 3
        let (r, g, b) = (bitmap.pixels[centre], bitmap.pixels[centre + 1], bitmap.pixels[centre + 2])
        #expect(r > 230 && g < 30 && b < 30, "red, got \(r) \(g) \(b)")
    }

    @Test("An RGB frame with row padding is encoded without the padding")
    func rgb() throws {
        let width = 32
        let height = 16
        let stride = width * 3 + 8
        var bytes = [UInt8](repeating: 0xFF, count: stride * height)  // padding is white
        for row in 0..<height {
            for column in 0..<width { bytes.replaceSubrange((row * stride + column * 3)..<(row * stride + column * 3 + 3), with: [0, 0, 200]) }
        }
        let frame = CameraFrame(
            bytes: Data(bytes), encoding: .rgb24(bytesPerRow: stride), width: width, height: height,
            timestamp: MonotonicInstant(nanoseconds: 1), sequence: 1)
        let bitmap = try JPEGDecoder().decode(frame.photoJPEG())
        let last = (height * width - 1) * 3
        #expect(bitmap.pixels[last] < 30 && bitmap.pixels[last + 2] > 170, "blue to the last pixel")
    }

    @Test("A short raw frame is refused as truncated")
    func short() {
        var frame = yuyvFrame(width: 64, height: 48, y: 81, u: 90, v: 240)
        frame.bytes = frame.bytes.prefix(1000)
        #expect(throws: ImageError.truncated) { try frame.photoJPEG() }
    }
}
