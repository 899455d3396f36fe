import BoothCore
import BoothDevices
import BoothImaging
import BoothScreen
import Foundation
import Logging

/// What the live preview costs per frame on the framebuffer path: the camera's MJPEG frame
/// decoded at scale and fitted to the screen, the main screen's words painted over it, and the
/// canvas copied into the framebuffer's memory in its pixel format. It is what a Raspberry Pi
/// spends its CPU on all day, at `screen.preview_fps` frames a second.
///
/// Times are measured here. Instructions are counted by Callgrind (valgrind), since a virtual
/// machine rarely lets a process read the CPU's counters: the benchmark runs itself under it
/// with no frame and with a few, and the difference divided by the frames is one frame's
/// instructions. A Raspberry Pi 4's share of a core is an estimate from that count: a
/// Cortex-A72 at 1.5 GHz retiring about one instruction per cycle on this work (libjpeg-turbo's
/// NEON code does in 128-bit steps what its AVX2 code here does in 256-bit ones, so the count
/// on the Pi is higher, and its cycles per instruction lower, than one might think). Take it to
/// within a factor of two; the Pi itself is the measure.
struct PreviewBenchmark {
    let runs: Int
    /// The configured preview rate (`screen.preview_fps`'s default).
    static let previewRate = 15
    /// A Raspberry Pi 4's core, for the estimate: 1.5 GHz, about one instruction per cycle.
    static let piInstructionsPerSecond = 1.5e9

    static let cameras = [(1280, 720), (1920, 1080), (3840, 2160)]
    static let screens: [(width: Int, height: Int, format: FramebufferPixelFormat)] = [
        (1280, 800, .xrgb8888), (1280, 800, .rgb565), (1920, 1080, .xrgb8888),
    ]

    /// The screens of the KMS path: its planes are the screen's size whatever their format.
    static let displays = [(1280, 800), (1920, 1080)]

    func run() throws {
        let counter = InstructionCounter()
        print("The preview per frame on a framebuffer: decode at scale and fit, paint the words over it, copy to the framebuffer.")
        print("Pi 4 share: Callgrind's instructions per frame x \(Self.previewRate) fps / 1.5e9 (an estimate, see docs/benchmarks.md).")
        if let reason = counter.unavailable { print("Instructions not counted: \(reason)") }
        print("")
        print("camera     screen               decode+fit  paint   copy    total   (fps here)  instructions  Pi 4 core at \(Self.previewRate) fps")
        for (width, height) in Self.cameras {
            for screen in Self.screens {
                let pipeline = try PreviewPipeline(camera: (width, height), screen: screen)
                let times = pipeline.measure(runs: runs)
                let instructions = counter.unavailable == nil ? try counter.perFrame(camera: (width, height), screen: screen) : nil
                print(
                    [
                        "\(width)x\(height)".padding(toLength: 10, withPad: " ", startingAt: 0),
                        "\(screen.width)x\(screen.height) \(screen.format)".padding(toLength: 20, withPad: " ", startingAt: 0),
                        Benchmark.format(times.decode).padding(toLength: 11, withPad: " ", startingAt: 0),
                        Benchmark.format(times.paint).padding(toLength: 7, withPad: " ", startingAt: 0),
                        Benchmark.format(times.copy).padding(toLength: 7, withPad: " ", startingAt: 0),
                        Benchmark.format(times.total).padding(toLength: 7, withPad: " ", startingAt: 0),
                        "(\(String(format: "%.0f", 1 / times.total.inSeconds)))".padding(toLength: 11, withPad: " ", startingAt: 0),
                        Self.cost(instructions),
                    ].joined(separator: " "))
            }
        }
        print("")
        print("The preview per frame on KMS: the frame's YUV planes decoded at scale into the preview plane's buffer (a Motion JPEG")
        print("webcam's), or copied there (a libcamera camera's 4:2:0), which the display scales; the words are on a plane above,")
        print("painted only when the screen's content changes (paint, once).")
        print("")
        print(
            "camera            screen      decode at     planes                 decode  (fps here)  instructions  Pi 4 core at \(Self.previewRate) fps  paint, once"
        )
        for kind in PlanePreviewPipeline.Kind.allCases {
            for (width, height) in Self.cameras {
                for (screenWidth, screenHeight) in Self.displays {
                    let pipeline = try PlanePreviewPipeline(kind, camera: (width, height), screen: (screenWidth, screenHeight))
                    let (decode, paint) = pipeline.measure(runs: runs)
                    let instructions =
                        counter.unavailable == nil
                        ? try counter.perRepeat(["--preview-frames", "\(width)", "\(height)", "\(screenWidth)", "\(screenHeight)", kind.rawValue])
                        : nil
                    print(
                        [
                            "\(width)x\(height) \(kind.frames)".padding(toLength: 17, withPad: " ", startingAt: 0),
                            "\(screenWidth)x\(screenHeight)".padding(toLength: 11, withPad: " ", startingAt: 0),
                            "\(pipeline.plan.shape.scale)".padding(toLength: 13, withPad: " ", startingAt: 0),
                            "\(pipeline.plan.shape.width)x\(pipeline.plan.shape.height) \(pipeline.plan.shape.sampling)".padding(
                                toLength: 22, withPad: " ", startingAt: 0),
                            Benchmark.format(decode).padding(toLength: 7, withPad: " ", startingAt: 0),
                            "(\(String(format: "%.0f", 1 / decode.inSeconds)))".padding(toLength: 11, withPad: " ", startingAt: 0),
                            Self.cost(instructions).padding(toLength: 33, withPad: " ", startingAt: 0),
                            Benchmark.format(paint),
                        ].joined(separator: " "))
                }
            }
        }
    }

    /// "97.3 M       97%": instructions per frame and the Pi 4's share at the preview's rate.
    private static func cost(_ instructions: Int?) -> String {
        guard let instructions else { return "-             -" }
        let share = Double(instructions) * Double(previewRate) / piInstructionsPerSecond
        return String(format: "%.1f M", Double(instructions) / 1e6).padding(toLength: 13, withPad: " ", startingAt: 0)
            + String(format: " %.0f%%", share * 100)
    }

    /// `--preview-frames W H SW SH FORMAT COUNT`: what the benchmark runs under Callgrind,
    /// COUNT frames of one case after setting it up (FORMAT `KMS` or `KMS-YUV420`: the plane
    /// path).
    static func runFrames(_ arguments: [String]) throws {
        let numbers = arguments.compactMap(Int.init)
        guard arguments.count == 6, numbers.count == 5 else { throw UsageError() }
        if let kind = PlanePreviewPipeline.Kind(rawValue: arguments[4]) {
            let pipeline = try PlanePreviewPipeline(kind, camera: (numbers[0], numbers[1]), screen: (numbers[2], numbers[3]))
            for _ in 0..<numbers[4] { try pipeline.drawFrame() }
            return
        }
        let format: FramebufferPixelFormat = arguments[4] == "RGB565" ? .rgb565 : .xrgb8888
        let pipeline = try PreviewPipeline(camera: (numbers[0], numbers[1]), screen: (numbers[2], numbers[3], format))
        for _ in 0..<numbers[4] { pipeline.drawFrame() }
    }
}

/// A webcam's frame at `width` x `height`: JPEG at quality 90 without Huffman tables.
private func webcamFrame(width: Int, height: Int) throws -> CameraFrame {
    let picture = TestPattern(width: width, height: height).render(frame: 1, at: Date())
    let jpeg = try JPEGSegments(try JPEGEncoder().encode(picture, quality: 90)).removingHuffmanTables()
    return CameraFrame(bytes: jpeg, encoding: .mjpeg, width: width, height: height, timestamp: MonotonicInstant(nanoseconds: 0), sequence: 1)
}

/// The same picture as a libcamera camera's frame: planar 4:2:0 (YUV420), rows unpadded.
private func libcameraFrame(width: Int, height: Int) throws -> CameraFrame {
    let jpeg = try webcamFrame(width: width, height: height)
    let decoder = try JPEGDecoder()
    guard let shape = try decoder.header(of: jpeg.bytes).yuvShape(scale: .full), shape.sampling == .halfWidthAndHeight else {
        throw BenchmarkError("the test frame is not 4:2:0")
    }
    let (lumaLength, chromaLength) = (width * height, (width / 2) * (height / 2))
    var bytes = Data(count: lumaLength + 2 * chromaLength)
    try bytes.withUnsafeMutableBytes { raw in
        let base = raw.baseAddress!
        try decoder.decodeYUV(
            jpeg.bytes, as: shape, into: [(base, width), (base + lumaLength, width / 2), (base + lumaLength + chromaLength, width / 2)])
    }
    return CameraFrame(bytes: bytes, encoding: .yuv420(bytesPerRow: width), width: width, height: height, timestamp: jpeg.timestamp, sequence: 1)
}

/// One case of the preview on KMS: a camera's frame written into a preview plane's memory (laid
/// out as the display's buffer: the Y plane, then U and V), and the layer of words above it.
private final class PlanePreviewPipeline {
    /// The camera's frames, and the argument that names them to `--preview-frames`.
    enum Kind: String, CaseIterable {
        case mjpeg = "KMS"
        case yuv420 = "KMS-YUV420"

        var frames: String { self == .mjpeg ? "MJPEG" : "YUV420" }
    }

    let frame: CameraFrame
    let plan: PlanePreview
    let memory: UnsafeMutableRawPointer
    let planes: [(base: UnsafeMutableRawPointer, bytesPerRow: Int)]
    let decoder: JPEGDecoder
    var renderer: ScreenRenderer

    init(_ kind: Kind, camera: (width: Int, height: Int), screen: (width: Int, height: Int)) throws {
        frame =
            switch kind {
            case .mjpeg: try webcamFrame(width: camera.width, height: camera.height)
            case .yuv420: try libcameraFrame(width: camera.width, height: camera.height)
            }
        decoder = try JPEGDecoder()
        guard let plan = try frame.planePreview(fitting: screen.width, screen.height, decoder: decoder) else {
            throw BenchmarkError("the test frame has no YUV planes a display takes")
        }
        self.plan = plan
        // As the display's buffer holds them.
        let format = KMSPixelFormat(plan.shape.sampling)
        let layout = format.planes(bytesPerRow: format.requestedRowLength(width: plan.shape.width), height: plan.shape.height)
        let memory = UnsafeMutableRawPointer.allocate(byteCount: layout.length, alignment: 64)
        self.memory = memory
        planes = layout.planes.map { (base: memory + $0.offset, bytesPerRow: $0.bytesPerRow) }
        renderer = try ScreenRenderer(width: screen.width, height: screen.height, keys: KeyLabels(view: "v"), logger: Logger(label: "bench"))
    }

    deinit { memory.deallocate() }

    /// One preview frame, as the KMS screen's render thread draws it: the plan (the frame's
    /// header) and the decode or copy into the plane.
    func drawFrame() throws {
        guard let plan = try frame.planePreview(fitting: renderer.canvas.width, renderer.canvas.height, decoder: decoder) else { return }
        try frame.writePlanes(plan.shape, into: planes, decoder: decoder)
    }

    /// Medians of a frame's decode and of painting the layer above it (once per content).
    func measure(runs: Int) -> (decode: Duration, paint: Duration) {
        let decoding = Benchmark.median(runs) { try drawFrame() }
        let size = PixelSize(width: plan.width, height: plan.height)
        let painting = Benchmark.median(runs) { renderer.renderLayer(.ready, previewBelow: size) }
        return (decoding, painting)
    }
}

/// One case of the preview: a camera's frame, a screen and its framebuffer's memory.
private final class PreviewPipeline {
    let frame: CameraFrame
    let layout: FramebufferLayout
    let memory: UnsafeMutableRawPointer
    var renderer: ScreenRenderer
    let decoder: JPEGDecoder

    init(camera: (width: Int, height: Int), screen: (width: Int, height: Int, format: FramebufferPixelFormat)) throws {
        frame = try webcamFrame(width: camera.width, height: camera.height)
        layout = FramebufferLayout(
            width: screen.width, height: screen.height, bytesPerRow: screen.width * screen.format.bytesPerPixel, format: screen.format)
        memory = UnsafeMutableRawPointer.allocate(byteCount: layout.bytesPerRow * layout.height, alignment: 64)
        renderer = try ScreenRenderer(width: screen.width, height: screen.height, keys: KeyLabels(view: "v"), logger: Logger(label: "bench"))
        decoder = try JPEGDecoder()
    }

    deinit { memory.deallocate() }

    /// One preview frame, as the framebuffer's render thread draws it.
    func drawFrame() {
        renderer.render(.ready, newFrame: frame)
        present()
    }

    /// The canvas copied into the framebuffer's memory, as the framebuffer presents it.
    private func present() {
        let canvas = renderer.canvas
        layout.copy(xrgb: canvas.pixels, width: canvas.width, height: canvas.height, to: memory)
    }

    /// Medians of the steps: the decode and fit alone, the render (decode, fit and paint), the copy.
    func measure(runs: Int) -> (decode: Duration, paint: Duration, copy: Duration, total: Duration) {
        let bytes = frame.bytes
        let (width, height) = (layout.width, layout.height)
        let decoding = Benchmark.median(runs) { _ = try decoder.decode(bytes, fitting: width, height, fast: true) }
        let rendering = Benchmark.median(runs) { renderer.render(.ready, newFrame: frame) }
        let copying = Benchmark.median(runs) { present() }
        return (decoding, max(.zero, rendering - decoding), copying, rendering + copying)
    }
}

/// Counts instructions with Callgrind (a preview frame's, a composed picture's), on a copy of the
/// benchmark without its debugging information (valgrind 3.19 cannot read what Swift's toolchain
/// writes).
final class InstructionCounter {
    /// Why instructions cannot be counted here, or `nil`.
    private(set) var unavailable: String?
    private let valgrind = "/usr/bin/valgrind"
    private let copy = FileManager.default.temporaryDirectory.appendingPathComponent("photobooth-bench-\(UUID().lowercased)")
    /// Frames per counted run: enough to dwarf the noise, few enough for Callgrind's pace.
    static let frames = 3

    init() {
        guard FileManager.default.isExecutableFile(atPath: valgrind) else {
            unavailable = "valgrind is not installed (sudo apt-get install valgrind)"
            return
        }
        let strip = Process()
        strip.executableURL = URL(fileURLWithPath: "/usr/bin/objcopy")
        strip.arguments = ["--strip-debug", CommandLine.arguments[0], copy.path]
        do {
            try strip.run()
            strip.waitUntilExit()
            if strip.terminationStatus != 0 { unavailable = "objcopy --strip-debug failed (binutils)" }
        } catch {
            unavailable = "objcopy cannot run (\(error)); install binutils"
        }
    }

    deinit { try? FileManager.default.removeItem(at: copy) }

    func perFrame(camera: (width: Int, height: Int), screen: (width: Int, height: Int, format: FramebufferPixelFormat)) throws -> Int {
        try perRepeat(["--preview-frames", "\(camera.width)", "\(camera.height)", "\(screen.width)", "\(screen.height)", "\(screen.format)"])
    }

    /// The instructions of one repeat of what the benchmark does with `arguments` followed by a
    /// count: the run with ``frames`` repeats less the run with none, divided.
    func perRepeat(_ arguments: [String]) throws -> Int {
        if let unavailable { throw BenchmarkError(unavailable) }
        let without = try instructions(arguments + ["0"])
        let with = try instructions(arguments + ["\(Self.frames)"])
        return max(0, with - without) / Self.frames
    }

    /// The instructions of one run of the benchmark under Callgrind, as it reports them.
    private func instructions(_ arguments: [String]) throws -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: valgrind)
        process.arguments = ["--tool=callgrind", "--callgrind-out-file=/dev/null", copy.path] + arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let output = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        // "==1234== Collected : 123456789"
        guard process.terminationStatus == 0,
            let line = output.split(separator: "\n").first(where: { $0.contains("Collected :") }),
            let count = line.split(separator: " ").last.flatMap({ Int($0) })
        else {
            throw BenchmarkError("Callgrind did not count the preview's instructions: \(output.suffix(400))")
        }
        return count
    }
}
