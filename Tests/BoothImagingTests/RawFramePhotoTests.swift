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

    /// A planar 4:2:0 frame (libcamera's YUV420) of one colour: luma rows `stride` bytes apart,
    /// chroma rows half that, `padding` bytes of junk at the end of each row.
    func yuv420Frame(width: Int, height: Int, y: UInt8, u: UInt8, v: UInt8, padding: Int = 0) -> CameraFrame {
        let stride = width + padding
        let luma = (0..<height).flatMap { _ in [UInt8](repeating: y, count: width) + [UInt8](repeating: 0x10, count: padding) }
        func chroma(_ value: UInt8) -> [UInt8] {
            (0..<(height / 2)).flatMap { _ in [UInt8](repeating: value, count: width / 2) + [UInt8](repeating: 0xF0, count: padding / 2) }
        }
        return CameraFrame(
            bytes: Data(luma + chroma(u) + chroma(v)), encoding: .yuv420(bytesPerRow: stride), width: width, height: height,
            timestamp: MonotonicInstant(nanoseconds: 1), sequence: 1)
    }

    @Test("A YUV420 frame is encoded from its planes as they are, padding left out", arguments: [0, 16])
    func yuv420(padding: Int) throws {
        // Full-range BT.601 (JPEG's): Y 76, U 85, V 255 is pure red.
        let frame = yuv420Frame(width: 64, height: 48, y: 76, u: 85, v: 255, padding: padding)
        let bitmap = try JPEGDecoder().decode(frame.photoJPEG())
        #expect(bitmap.width == 64 && bitmap.height == 48)
        for pixel in [0, 24 * 64 + 32, 48 * 64 - 1] {
            let (r, g, b) = (bitmap.pixels[pixel * 3], bitmap.pixels[pixel * 3 + 1], bitmap.pixels[pixel * 3 + 2])
            #expect(r > 240 && g < 15 && b < 15, "red at \(pixel), got \(r) \(g) \(b)")
        }
    }

    @Test("A YUV420 preview has the frame's colour, and a short frame none")
    func yuv420Preview() throws {
        // Full-range BT.601: Y 29, U 255, V 107 is pure blue.
        var frame = yuv420Frame(width: 64, height: 48, y: 29, u: 255, v: 107, padding: 8)
        let preview = try frame.previewBitmap(fitting: 32, 32, decoder: JPEGDecoder())
        #expect(preview.width == 32 && preview.height == 24)
        let (b, g, r) = (preview.pixels[0], preview.pixels[1], preview.pixels[2])
        #expect(b > 245 && g < 10 && r < 10, "blue, got \(r) \(g) \(b)")
        frame.bytes = frame.bytes.dropLast()
        #expect(throws: ImageError.truncated) { try frame.photoJPEG() }
    }

    @Test("A short raw frame is refused as truncated")
    func short() {
        var frame = yuyvFrame(width: 64, height: 48, y: 81, u: 90, v: 240)
        frame.bytes = frame.bytes.prefix(1000)
        #expect(throws: ImageError.truncated) { try frame.photoJPEG() }
    }
}
