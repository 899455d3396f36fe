import BoothCore
import BoothImaging
import BoothScreen
import BoothStore
import Foundation
import Logging

/// `photobooth-bench`: the figures other booths are compared against. For 1080p and 4K camera
/// frames it measures the thumbnail, the durable save (original and sidecar written, synced and
/// renamed, one sync of the folder, then the catalog commit) and the frame rate of scaled preview decoding, each the
/// median of repeated runs. With `--gallery` it measures instead what one step through the
/// on-screen gallery costs in a library of `--photos` photos (10,000 by default); with
/// `--search`, what search, albums and the jump to a name cost (100,000 photos by default); with
/// `--startup`, how long the real booth takes from exec to ready with 0, 10,000 and 100,000
/// photos; with `--preview`, what the live preview costs per frame on the framebuffer path; with
/// `--running`, the simulated booth's memory idle and after a burst of `--photos` photos (200 by
/// default; with `--collages`, strips of four 1080p shots, 50 by default), and its share of a core
/// idle; with `--pictures`, composing a strip and encoding a
/// GIF against Pillow (``PicturesBenchmark``).
///
///     swift run -c release photobooth-bench [--runs N] [--dir FOLDER] [--gallery | --search | --startup | --preview | --running | --collages | --pictures | --printing] [--photos N]
@main
enum Benchmark {
    /// Runs the benchmark the arguments ask for; a bad argument prints the usage (exit 2), a
    /// failed measurement what failed (exit 1), `--help` the usage.
    static func main() {
        if CommandLine.arguments.dropFirst().contains(where: { $0 == "--help" || $0 == "-h" }) {
            print(UsageError().description)
            return
        }
        do {
            try run()
        } catch {
            FileHandle.standardError.write(Data("photobooth-bench: \(error)\n".utf8))
            exit(error is UsageError ? 2 : 1)
        }
    }

    static func run() throws {
        if CommandLine.arguments.dropFirst().first == "--compose-strips" {
            try PicturesBenchmark.composeStrips(Array(CommandLine.arguments.dropFirst(2)))
            return
        }
        if CommandLine.arguments.dropFirst().first == "--preview-frames" {
            try PreviewBenchmark.runFrames(Array(CommandLine.arguments.dropFirst(2)))
            return
        }
        let options = try Options(CommandLine.arguments.dropFirst())
        #if DEBUG
            print("warning: this is a debug build; run `swift run -c release photobooth-bench` for real figures.\n")
        #endif
        if options.pictures {
            let folder = options.directory.appendingPathComponent("photobooth-pictures-\(UUID().lowercased)")
            print("photobooth-bench: \(options.runs) runs each, medians; \(ProcessInfo.processInfo.activeProcessorCount) cores\n")
            try PicturesBenchmark(folder: folder, runs: options.runs).run()
            return
        }
        if options.printing {
            print("photobooth-bench: \(options.runs) runs each, medians; \(ProcessInfo.processInfo.activeProcessorCount) cores\n")
            try PrintingBenchmark(runs: options.runs).run()
            return
        }
        if options.preview {
            print("photobooth-bench: \(options.runs) runs each, medians; \(ProcessInfo.processInfo.activeProcessorCount) cores\n")
            try PreviewBenchmark(runs: options.runs).run()
            return
        }
        let folder = options.directory.appendingPathComponent("photobooth-bench-\(UUID().lowercased)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = try PhotoLibrary(
            directory: folder, thumbnailer: JPEGThumbnailer(), logger: Logger(label: "bench"), create: true)
        print("photobooth-bench: \(options.runs) runs each, medians; \(ProcessInfo.processInfo.activeProcessorCount) cores")
        print("library on \(fileSystem(of: options.directory)) at \(options.directory.path)\n")
        if options.startup {
            try StartupBenchmark(directory: folder, runs: options.runs).run()
            return
        }
        if let photos = options.burstPhotos {
            try RunningBoothBenchmark(folder: folder, photos: photos, collages: options.collages).run()
            return
        }
        if let photos = options.searchPhotos {
            try SearchBenchmark(library: library, runs: options.runs).run(photos: photos)
            return
        }
        if let photos = options.galleryPhotos {
            try GalleryBenchmark(library: library, runs: options.runs).run(photos: photos)
            return
        }

        for (width, height) in [(1920, 1080), (3840, 2160)] {
            // A frame as a webcam delivers it: JPEG at quality 90 without Huffman tables.
            let encoded = try JPEGEncoder().encode(TestPattern(width: width, height: height).render(frame: 1, at: Date()), quality: 90)
            let frame = try JPEGSegments(encoded).removingHuffmanTables()
            let photo = try JPEGSegments.repairedMJPEG(frame)
            print("\(width)x\(height) frame: \(frame.count / 1024) KiB MJPEG")

            let repair = median(options.runs) { _ = try JPEGSegments.repairedMJPEG(frame) }
            let thumbnailer = JPEGThumbnailer()
            let thumbnail = try thumbnailer.thumbnail(of: photo)
            // The floor: libjpeg-turbo's own decode of the frame at the thumbnail's scale, in the
            // layout the thumbnail is made from; measured in turns with the thumbnail, so that
            // what else the machine does weighs on both alike.
            let floorScale = ShotDecoder().scale(forWidth: width, height: height)
            let decoder = try JPEGDecoder()
            let (thumbnailing, floor) = alternating(
                options.runs, { _ = try thumbnailer.thumbnail(of: photo) },
                { _ = try decoder.decode(photo, scale: floorScale, format: .bgrx) })
            // What the thumbnail adds to its decode: the reduction to 320 px, the small JPEG, the hash.
            let decoded = try decoder.decode(photo, scale: floorScale, format: .bgrx)
            let size = decoded.size(fittingLongestSide: JPEGThumbnailer.longestSide)
            let small = decoded.downscaled(toWidth: size.width, height: size.height)
            let reducing = median(options.runs) { _ = decoded.downscaled(toWidth: size.width, height: size.height) }
            let encoding = median(options.runs) { _ = try JPEGEncoder().encode(small, quality: JPEGThumbnailer.quality) }
            let hashing = median(options.runs) { _ = small.perceptualHash }
            var intents: [Duration] = []
            var writes: [Duration] = []
            var commits: [Duration] = []
            var saved: [Photo] = []
            for _ in 0..<options.runs {
                let number = library.reservePhotoNumber()
                let (added, timings) = try library.add(
                    photo, thumbnail: thumbnail, id: UUID(), number: number, caption: .placeholder(number: number),
                    createdAt: Date())
                intents.append(timings.intent)
                writes.append(timings.write)
                commits.append(timings.commit)
                saved.append(added)
            }
            let totals = zip(zip(intents, writes), commits).map { $0.0 + $0.1 + $1 }
            // What every copy that leaves the booth costs: the name and time spliced into the
            // camera's bytes, alone and with reading the original from the library.
            let metadata = try library.metadata(of: saved[0], event: "Benchmark")
            let tagging = median(options.runs) { _ = try JPEGSegments.tagged(photo, with: metadata) }
            let copying = median(options.runs) { _ = try library.outgoingCopy(of: saved[0], event: "Benchmark", tagger: PictureTagger()) }
            print("  repair (insert Huffman tables)   \(format(repair))")
            print(
                "  thumbnail (320 px, q80)          \(format(thumbnailing)), ratio \(String(format: "%.2f", thumbnailing / floor)) to the decode at \(floorScale) (\(format(floor)))"
            )
            print(
                "    beyond the decode: reduce \(decoded.width)x\(decoded.height) to \(size.width)x\(size.height) \(format(reducing)), encode \(format(encoding)), hash \(format(hashing))"
            )
            print("  save: intent commit              \(format(middle(intents)))")
            print("        files (original + sidecar) \(format(middle(writes)))")
            print("        catalog commit             \(format(middle(commits)))")
            print("        total                      \(format(middle(totals)))")
            print("  copy out: name and time spliced  \(format(tagging)) (\(format(copying)) with reading the original)")
            var rates: [String] = []
            for scale in [ScalingFactor.half, .quarter, .eighth] {
                let decoder = try JPEGDecoder()
                let perFrame = median(options.runs) { _ = try decoder.decode(frame, scale: scale, format: .bgrx, fast: true) }
                rates.append("\(scale) \(String(format: "%.0f", 1 / perFrame.inSeconds)) fps")
            }
            print("  preview decode                   \(rates.joined(separator: ", "))")
            // The preview as the booth draws it: the camera's frame decoded at scale, fitted to a
            // 1280x800 screen and painted under the main screen's words, by the screen module.
            var renderer = try ScreenRenderer(width: 1280, height: 800, keys: KeyLabels(view: "v"), logger: Logger(label: "bench"))
            let cameraFrame = CameraFrame(
                bytes: frame, encoding: .mjpeg, width: width, height: height, timestamp: MonotonicInstant(nanoseconds: 0), sequence: 1)
            let previewing = median(options.runs) { renderer.render(.ready, newFrame: cameraFrame) }
            print("  preview drawn (1280x800 screen)  \(format(previewing)), \(String(format: "%.0f", 1 / previewing.inSeconds)) fps\n")
        }
    }

    /// The median duration of `runs` runs of `body`, after one warm-up run.
    static func median(_ runs: Int, _ body: () throws -> Void) -> Duration {
        let clock = ContinuousClock()
        try? body()
        return middle((0..<runs).map { _ in clock.measure { try? body() } })
    }

    /// The medians of `runs` runs of `first` and of `second`, taken in turns after one warm-up
    /// run of each.
    static func alternating(_ runs: Int, _ first: () throws -> Void, _ second: () throws -> Void) -> (Duration, Duration) {
        let clock = ContinuousClock()
        try? first()
        try? second()
        var firsts: [Duration] = []
        var seconds: [Duration] = []
        for _ in 0..<runs {
            firsts.append(clock.measure { try? first() })
            seconds.append(clock.measure { try? second() })
        }
        return (middle(firsts), middle(seconds))
    }

    static func middle(_ durations: [Duration]) -> Duration {
        let sorted = durations.sorted()
        return sorted[sorted.count / 2]
    }

    static func format(_ duration: Duration) -> String {
        duration.formattedMilliseconds
    }

    /// The file system type of `folder` (the longest mount point above it in /proc/mounts), since
    /// fsync on tmpfs measures nothing.
    static func fileSystem(of folder: URL) -> String {
        let path = folder.resolvingSymlinksInPath().path
        let mounts = (try? String(contentsOfFile: "/proc/mounts", encoding: .utf8)) ?? ""
        var best: (mountPoint: String, type: String)?
        for line in mounts.split(separator: "\n") {
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count > 2 else { continue }
            let mountPoint = fields[1]
            let inside = mountPoint == "/" || path == mountPoint || path.hasPrefix(mountPoint + "/")
            if inside && mountPoint.count > (best?.mountPoint.count ?? -1) { best = (mountPoint, fields[2]) }
        }
        guard let type = best?.type else { return "an unknown file system" }
        return type == "tmpfs" ? "tmpfs (fsync costs nothing there: pass --dir on a real disk)" : type
    }

    struct Options {
        var runs = 21
        var directory = FileManager.default.temporaryDirectory
        /// How many photos the gallery benchmark fills the library with; `nil` for the capture
        /// benchmark.
        var galleryPhotos: Int?
        /// How many photos the search benchmark fills the library with.
        var searchPhotos: Int?
        /// Measure the live preview's framebuffer path instead.
        var preview = false
        /// Measure composing a strip and encoding a GIF against Pillow instead.
        var pictures = false
        /// Measure making a print's page instead.
        var printing = false
        /// With `--running`: each press makes a strip of four.
        var collages = false
        /// Measure the running simulated booth instead, with a burst of this many photos.
        var burstPhotos: Int?
        /// Whether to measure start-up by library size (``StartupBenchmark``).
        var startup = false

        init(_ arguments: ArraySlice<String>) throws(UsageError) {
            var arguments = arguments
            while let argument = arguments.popFirst() {
                switch argument {
                case "--runs":
                    guard let value = arguments.popFirst().flatMap(Int.init), value > 0 else { throw UsageError() }
                    runs = value
                case "--dir":
                    guard let value = arguments.popFirst() else { throw UsageError() }
                    directory = URL(fileURLWithPath: value)
                case "--gallery":
                    galleryPhotos = galleryPhotos ?? 10_000
                case "--startup":
                    startup = true
                case "--search":
                    searchPhotos = galleryPhotos ?? 100_000
                    galleryPhotos = nil
                case "--preview":
                    preview = true
                case "--pictures":
                    pictures = true
                case "--printing":
                    printing = true
                case "--collages":
                    collages = true
                    burstPhotos = burstPhotos ?? 50
                case "--running":
                    burstPhotos = burstPhotos ?? 200
                case "--photos":
                    guard let value = arguments.popFirst().flatMap(Int.init), value >= GalleryList.rowsPerPage else {
                        throw UsageError()
                    }
                    if burstPhotos != nil {
                        burstPhotos = value
                    } else if searchPhotos != nil {
                        searchPhotos = value
                    } else {
                        galleryPhotos = value
                    }
                default:
                    throw UsageError()
                }
            }
        }
    }
}

struct UsageError: Error, CustomStringConvertible {
    let description =
        "usage: photobooth-bench [--runs N] [--dir FOLDER] [--gallery | --search | --startup | --preview | --running | --collages | --pictures | --printing] [--photos N]"
}

/// A measurement that could not be made as intended.
struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
