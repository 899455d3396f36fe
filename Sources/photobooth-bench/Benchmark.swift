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
/// `--startup`, how long the booth takes to be ready with 0, 10,000 and 100,000 photos.
///
///     swift run -c release photobooth-bench [--runs N] [--dir FOLDER] [--gallery | --search | --startup] [--photos N]
@main
enum Benchmark {
    static func main() throws {
        let options = try Options(CommandLine.arguments.dropFirst())
        #if DEBUG
            print("warning: this is a debug build; run `swift run -c release photobooth-bench` for real figures.\n")
        #endif
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
            let thumbnail = try thumbnailer.thumbnail(forJPEG: photo)
            let thumbnailing = median(options.runs) { _ = try thumbnailer.thumbnail(forJPEG: photo) }
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
            let copying = median(options.runs) { _ = try library.outgoingCopy(of: saved[0], event: "Benchmark", tagger: JPEGTagger()) }
            print("  repair (insert Huffman tables)   \(format(repair))")
            print("  thumbnail (320 px, q80)          \(format(thumbnailing))")
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
                case "--photos":
                    guard let value = arguments.popFirst().flatMap(Int.init), value >= GalleryList.rowsPerPage else {
                        throw UsageError()
                    }
                    if searchPhotos != nil { searchPhotos = value } else { galleryPhotos = value }
                default:
                    throw UsageError()
                }
            }
        }
    }
}

struct UsageError: Error, CustomStringConvertible {
    let description = "usage: photobooth-bench [--runs N] [--dir FOLDER] [--gallery | --search | --startup] [--photos N]"
}

/// A measurement that could not be made as intended.
struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
