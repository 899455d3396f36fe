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

    /// A planar 4:2:0 frame (libcamera's YUV420) whose every sample differs from its
    /// neighbours: luma rows `stride` bytes apart, chroma rows half that, junk in the padding.
    private func yuv420Frame(width: Int, height: Int, stride: Int) -> CameraFrame {
        let (chromaWidth, chromaHeight) = ((width + 1) / 2, (height + 1) / 2)
        func plane(_ width: Int, _ height: Int, _ stride: Int, seed: Int) -> [UInt8] {
            (0..<height).flatMap { row in (0..<stride).map { column in column < width ? UInt8((row * 7 + column * 3 + seed) & 0xFF) : 0xAA } }
        }
        let bytes =
            plane(width, height, stride, seed: 0) + plane(chromaWidth, chromaHeight, stride / 2, seed: 50)
            + plane(chromaWidth, chromaHeight, stride / 2, seed: 150)
        return CameraFrame(
            bytes: Data(bytes), encoding: .yuv420(bytesPerRow: stride), width: width, height: height,
            timestamp: MonotonicInstant(nanoseconds: 0), sequence: 1)
    }

    /// `frame`'s planes as written for a plane that scales on a `screen` x `screenHeight`
    /// display, in memory laid out as its buffer (`pitch` bytes a luma row).
    private func written(_ frame: CameraFrame, screen: Int, _ screenHeight: Int, pitch: Int) throws -> (
        plan: PlanePreview, memory: [UInt8], planes: [(Int, Int)]
    ) {
        let decoder = try JPEGDecoder()
        let plan = try #require(try frame.planePreview(fitting: screen, screenHeight, decoder: decoder))
        var (memory, layout) = planes(for: plan.shape, pitch: pitch)
        try memory.withUnsafeMutableBytes { raw in
            try frame.writePlanes(plan.shape, into: layout.map { (raw.baseAddress! + $0.0, $0.1) }, decoder: decoder)
        }
        return (plan, memory, layout)
    }

    @Test(
        "A 4:2:0 frame (libcamera's) goes to the plane as it is, every sample where it was, or every other one for a small screen",
        arguments: [(1280, 800, ScalingFactor.full), (320, 200, .half), (160, 100, .quarter)])
    func yuv420Planes(screen: Int, screenHeight: Int, scale: ScalingFactor) throws {
        let frame = yuv420Frame(width: 640, height: 360, stride: 704)
        let (plan, memory, layout) = try written(frame, screen: screen, screenHeight, pitch: 704)
        #expect(plan.shape.scale == scale && plan.shape.sampling == .halfWidthAndHeight)
        #expect(plan.shape.width == 640 / scale.rawValue && plan.shape.height == 360 / scale.rawValue)
        let step = scale.rawValue
        let source = [UInt8](frame.bytes)
        let sourcePlanes = [(0, 704), (704 * 360, 352), (704 * 360 + 352 * 180, 352)]
        for plane in 0..<3 {
            let divisor = plane == 0 ? 1 : 2
            for (row, column) in [(0, 0), (1, 1), (7, 3), (plan.shape.height / divisor - 1, plan.shape.width / divisor - 1)] {
                let expected = source[sourcePlanes[plane].0 + row * step * sourcePlanes[plane].1 + column * step]
                #expect(memory[layout[plane].0 + row * layout[plane].1 + column] == expected, "plane \(plane) at \(row), \(column)")
            }
            // Nothing is written into a row's padding.
            #expect(memory[layout[plane].0 + plan.shape.width / divisor] == 0xEE)
        }
    }

    @Test("An odd-sized 4:2:0 frame fills whole chroma samples with its last column and row")
    func yuv420OddSize() throws {
        let frame = yuv420Frame(width: 101, height: 75, stride: 128)
        let (plan, memory, layout) = try written(frame, screen: 1280, 800, pitch: 128)
        #expect(plan.shape.width == 102 && plan.shape.height == 76)
        let source = [UInt8](frame.bytes)
        #expect(memory[layout[0].0 + 10 * 128 + 101] == source[10 * 128 + 100], "the last column repeated")
        #expect(memory[layout[0].0 + 75 * 128 + 20] == source[74 * 128 + 20], "the last row repeated")
    }

    @Test("A 4:2:0 frame shorter than its planes is refused before anything is copied")
    func yuv420Short() throws {
        var frame = yuv420Frame(width: 64, height: 48, stride: 64)
        frame.bytes = frame.bytes.dropLast()
        #expect(throws: ImageError.truncated) { try frame.planePreview(fitting: 640, 480, decoder: JPEGDecoder()) }
    }

    @Test("A YUYV frame has no planes a display takes here: it is decoded to pixels instead")
    func rawFrame() throws {
        let frame = CameraFrame(
            bytes: Data(count: 64 * 48 * 2), encoding: .yuyv(bytesPerRow: 128), width: 64, height: 48,
            timestamp: MonotonicInstant(nanoseconds: 0), sequence: 1)
        let plan = try frame.planePreview(fitting: 640, 480, decoder: JPEGDecoder())
        #expect(plan == nil)
    }
}
