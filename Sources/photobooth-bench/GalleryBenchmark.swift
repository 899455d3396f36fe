import BoothCore
import BoothImaging
import BoothScreen
import BoothStore
import Dispatch
import Foundation
import Synchronization

/// What one step through the booth's on-screen gallery costs in a large library: the page
/// query (a page of photos, newest first, through the catalog's index, and their thumbnails)
/// and drawing the page on a 1280x800 screen by the screen module's painter (the thumbnails
/// decoded into their boxes), at the start, the middle and the end of the library. And what the library's check at every start
/// costs there: listing the folder and reading every photo's sidecar.
struct GalleryBenchmark {
    let library: PhotoLibrary
    let runs: Int

    func run(photos count: Int) throws {
        let clock = ContinuousClock()
        let filling = try clock.measure { try library.fill(count) }
        print("gallery: \(count) photos, added in \(String(format: "%.1f", filling.inSeconds)) s (durable adds from 8 threads)")
        let counting = Benchmark.median(runs) { _ = try library.gallery.count() }
        print("  open: count the photos                \(Benchmark.format(counting))")
        for (name, index) in [("start", 0), ("middle", count / 2), ("end", count - 1)] {
            let page = GalleryList(position: GalleryPosition(index: index, count: count)).page
            var list = GalleryList(position: GalleryPosition(index: index, count: count))
            let query = Benchmark.median(runs) {
                list.rows = try library.gallery.photos(skipping: page.lowerBound, limit: page.count).map { photo in
                    let entry = GalleryEntry(id: photo.id, caption: photo.caption, takenOn: PhotoDateFormat.standard.string(from: photo.createdAt))
                    return GalleryList.Row(entry: entry, thumbnail: try library.gallery.thumbnail(of: photo.id) ?? Data())
                }
            }
            // A page turn: a painter that has decoded none of the page's thumbnails yet. Then a
            // move within the page: the same painter draws again from what it decoded.
            let fonts = ScreenFonts.dejaVu
            var canvas = Canvas(width: 1280, height: 800)
            var turns: [Duration] = []
            var painter = try ScreenPainter(fonts: fonts, keys: KeyLabels(view: "v"))
            for _ in 0..<runs {
                painter = try ScreenPainter(fonts: fonts, keys: KeyLabels(view: "v"))
                turns.append(try clock.measure { try painter.paint(.gallery(list), preview: nil, into: &canvas) })
            }
            let moving = Benchmark.median(runs) { try painter.paint(.gallery(list), preview: nil, into: &canvas) }
            let label = "\(name), photos \(page.lowerBound + 1)-\(page.upperBound)".padding(toLength: 28, withPad: " ", startingAt: 0)
            print(
                "  \(label) page query \(Benchmark.format(query)), page drawn \(Benchmark.format(Benchmark.middle(turns))) (thumbnails decoded), redrawn \(Benchmark.format(moving))"
            )
        }
        // Nothing to fix: this is the cost every start pays, with the folder in the page cache
        // (just written) as after a restart, not after a cold boot.
        let check = Benchmark.median(max(1, runs / 4)) {
            let actions = try library.maintenance.reconcile()
            guard actions.isEmpty else { throw BenchmarkError("the full check found work to do: \(actions.prefix(3))") }
        }
        print("  full check (list the folder, read \(count) sidecars)      \(Benchmark.format(check))")
    }
}

extension PhotoLibrary {
    /// Adds `count` small photos (a 320x240 test pattern and its thumbnail), a second apart, with
    /// the library's own durable `add` from several threads: each add waits for its fsyncs,
    /// so threads keep the disk busy. The photo at `offset` is named `caption(offset)`, or
    /// left with its placeholder.
    func fill(_ count: Int, caption: @Sendable (Int) -> Caption? = { _ in nil }) throws {
        let picture = TestPattern(width: 320, height: 240).render(frame: 1, at: Date())
        let jpeg = try JPEGEncoder().encode(picture, quality: 80)
        let thumbnail = try JPEGThumbnailer().thumbnail(of: jpeg)
        let start = Date(timeIntervalSince1970: 1_795_000_000)
        let failure = Mutex<(any Error)?>(nil)
        let threads = 8
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for offset in stride(from: thread, to: count, by: threads) {
                do {
                    let number = reservePhotoNumber()
                    _ = try add(
                        jpeg, thumbnail: thumbnail, id: UUID(), number: number,
                        caption: caption(offset) ?? .placeholder(number: number), createdAt: start + Double(offset))
                } catch {
                    failure.withLock { $0 = $0 ?? error }
                    return
                }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
    }
}
