import BoothCore
import Foundation
import Testing

@testable import BoothImaging

@Suite("YUV decode for display planes")
struct YUVDecodeTests {
    /// A `width` x `height` picture of one colour, as a 4:2:0 JPEG.
    private func solid(width: Int, height: Int, red: UInt8, green: UInt8, blue: UInt8) throws -> Data {
        let pixels = [UInt8]((0..<(width * height)).flatMap { _ in [red, green, blue] })
        return try JPEGEncoder().encode(Bitmap(width: width, height: height, format: .rgb, pixels: pixels), quality: 95)
    }

    /// Planes laid out as a display buffer holds them: luma rows of `pitch` bytes, chroma below.
    private func planes(for shape: YUVShape, pitch: Int) -> (memory: [UInt8], planes: [(Int, Int)]) {
        let divisors = shape.sampling.divisors
        let chromaPitch = pitch / divisors.width
        let chromaLength = chromaPitch * shape.height / divisors.height
        let luma = pitch * shape.height
        return ([UInt8](repeating: 0xEE, count: luma + 2 * chromaLength + 64), [(0, pitch), (luma, chromaPitch), (luma + chromaLength, chromaPitch)])
    }

    private func decode(_ jpeg: Data, scale: ScalingFactor = .full, pitch: Int) throws -> (shape: YUVShape, memory: [UInt8], planes: [(Int, Int)]) {
        let decoder = try JPEGDecoder()
        let shape = try #require(try decoder.header(of: jpeg).yuvShape(scale: scale))
        var (memory, layout) = planes(for: shape, pitch: pitch)
        try memory.withUnsafeMutableBytes { raw in
            try decoder.decodeYUV(jpeg, as: shape, into: layout.map { (raw.baseAddress! + $0.0, $0.1) })
        }
        return (shape, memory, layout)
    }

    @Test("A 4:2:0 JPEG decodes to its own planes: BT.601 full-range Y, Cb, Cr, nothing converted to RGB")
    func colours() throws {
        // (200, 50, 100): Y = 0.299 R + 0.587 G + 0.114 B = 100.5, Cb = 127.7, Cr = 199.0.
        let jpeg = try solid(width: 64, height: 48, red: 200, green: 50, blue: 100)
        let (shape, memory, planes) = try decode(jpeg, pitch: 64)
        #expect(shape.width == 64 && shape.height == 48 && shape.sampling == .halfWidthAndHeight)
        #expect(abs(Int(memory[planes[0].0 + 10 * 64 + 10]) - 101) <= 2)
        #expect(abs(Int(memory[planes[1].0 + 5 * 32 + 5]) - 128) <= 2)
        #expect(abs(Int(memory[planes[2].0 + 5 * 32 + 5]) - 199) <= 2)
    }

    @Test("A 4:2:2 JPEG (a webcam's) keeps its chroma at half the width, the full height")
    func halfWidth() throws {
        var planes = YUV422Planes(yuyv: Data(count: 64 * 2 * 32), width: 64, height: 32, bytesPerRow: 128)
        planes.y = [UInt8](repeating: 180, count: 64 * 32)
        planes.u = [UInt8](repeating: 60, count: 32 * 32)
        planes.v = [UInt8](repeating: 220, count: 32 * 32)
        let jpeg = try JPEGEncoder().encode(planes, quality: 95)
        let (shape, memory, layout) = try decode(jpeg, pitch: 128)
        #expect(shape.width == 64 && shape.height == 32 && shape.sampling == .halfWidth)
        #expect(abs(Int(memory[layout[0].0 + 31 * 128 + 63]) - 180) <= 2)
        #expect(abs(Int(memory[layout[1].0 + 31 * 64 + 31]) - 60) <= 2)
        #expect(abs(Int(memory[layout[2].0 + 31 * 64 + 31]) - 220) <= 2)
        // Nothing is written past a row's picture, into the pitch's padding.
        #expect(memory[layout[0].0 + 64] == 0xEE && memory[layout[1].0 + 32] == 0xEE)
    }

    @Test(
        "Odd sizes round up to whole chroma samples, and the planes hold what TurboJPEG writes",
        arguments: [(ScalingFactor.full, 102, 76), (.half, 52, 38), (.quarter, 26, 20)])
    func oddSizes(scale: ScalingFactor, width: Int, height: Int) throws {
        let jpeg = try solid(width: 101, height: 75, red: 10, green: 200, blue: 30)
        let (shape, memory, layout) = try decode(jpeg, scale: scale, pitch: 128)
        #expect(shape.width == width && shape.height == height)
        // The byte after the last V sample is untouched.
        let end = layout[2].0 + layout[2].1 * (height / 2)
        #expect(memory[end] == 0xEE)
    }

    @Test(
        "A plane that scales gets a decode no larger than the screen needs, centred at the fitted size",
        arguments: [
            (1920, 1080, 1280, 800, ScalingFactor.full, 0, 40, 1280, 720),
            (3840, 2160, 1920, 1080, .half, 0, 0, 1920, 1080),
            (1280, 720, 640, 480, .half, 0, 60, 640, 360),
            (640, 480, 1280, 800, .full, 106, 0, 1067, 800),
        ])
    func planePreview(
        camera: Int, cameraHeight: Int, screen: Int, screenHeight: Int, scale: ScalingFactor, x: Int, y: Int, width: Int, height: Int
    ) throws {
        let jpeg = try solid(width: camera, height: cameraHeight, red: 90, green: 90, blue: 90)
        let frame = CameraFrame(
            bytes: jpeg, encoding: .mjpeg, width: camera, height: cameraHeight, timestamp: MonotonicInstant(nanoseconds: 0), sequence: 1)
        let plan = try #require(try frame.planePreview(fitting: screen, screenHeight, decoder: JPEGDecoder()))
        #expect(plan.shape.scale == scale)
        let placement: [Int] = [plan.x, plan.y, plan.width, plan.height]
        #expect(placement == [x, y, width, height])
        #expect(plan.shape.width == scale.scaled(camera) && plan.shape.height == scale.scaled(cameraHeight))
    }

    @Test("A raw frame has no YUV planes to hand a display: it is decoded to pixels instead")
    func rawFrame() throws {
        let frame = CameraFrame(
            bytes: Data(count: 64 * 48 * 2), encoding: .yuyv(bytesPerRow: 128), width: 64, height: 48,
            timestamp: MonotonicInstant(nanoseconds: 0), sequence: 1)
        let plan = try frame.planePreview(fitting: 640, 480, decoder: JPEGDecoder())
        #expect(plan == nil)
    }
}
