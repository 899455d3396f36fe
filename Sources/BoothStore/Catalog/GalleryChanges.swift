import Foundation
import GRDB
import Glibc
import Synchronization

/// The catalog's identity and its count of the changes guests can see
/// (`catalog_state.gallery_changes`): raised by triggers, in the transaction of the change, for
/// every photo added, deleted, or changed in what the gallery shows of it (name, hidden flag,
/// favourite mark, ...), and for nothing else: neither the sync's outbox and state, nor the
/// operations in flight, nor a perceptual hash.
struct GalleryCount: Equatable, Sendable {
    var identity: String
    var changes: Int64
}

/// What the gallery shows of the photos (the web's pages, answers and images, the booth's
/// gallery and slideshow), as a number that moves after each commit that changed it, made by
/// this process or another (`photobooth serve` and `photobooth run` may share a library, and
/// `photobooth hide` is a process of its own). An answer made from the catalog after reading
/// ``current`` is good for as long as the number stays the same: the web keeps its answers and
/// serves them again without the catalog, never stale, and nothing it keeps is dropped for a
/// commit guests cannot see (an upload's progress, the sync's state).
///
/// The number is this process's: it moves whenever the catalog's ``GalleryCount`` is seen to
/// have changed. This library's commits tell it before the caller is told of them
/// (``committed(_:)``). Another process's commits are found through the catalog's files: every
/// commit writes the write-ahead log, changing its size, time or inode, so while the files are
/// as they were, nothing was committed, and once they change, the count is read again. File
/// times come from a clock that advances by ticks of a few milliseconds, so a write in the same
/// tick as a look leaves the time as it was: files written less than ``settling`` ago are not
/// trusted to show the next write, and each look reads the count (as git does with racy index
/// entries).
package final class GalleryChanges: Sendable {
    private struct Stamp: Equatable {
        var inode: UInt64 = 0
        var size: Int64 = 0
        /// The last modification, in nanoseconds since 1970.
        var modified: Int64 = 0

        init(path: String) {
            var status = stat()
            guard stat(path, &status) == 0 else { return }
            inode = UInt64(status.st_ino)
            size = Int64(status.st_size)
            modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
        }
    }

    private struct State {
        /// The count last seen.
        var seen: GalleryCount?
        /// The number handed out.
        var generation: UInt64 = 0
        /// The files' stamps when last found settled, with the count read after them: while the
        /// files keep them, the count is what was read.
        var settled: [Stamp]?

        mutating func note(_ count: GalleryCount) {
            if count != seen {
                seen = count
                generation += 1
            }
        }
    }

    /// How long after a write its file's time may still be the time of the next write.
    static let settling: Int64 = 100_000_000

    private let database: any DatabaseReader
    /// The catalog and its write-ahead log.
    private let files: [String]
    private let state: Mutex<State>

    init(_ database: any DatabaseReader, files: [String]) throws {
        self.database = database
        self.files = files
        var state = State()
        state.note(try database.read(CatalogStateRecord.galleryCount))
        self.state = Mutex(state)
    }

    /// The number now: read it before reading the catalog, so that what is made from the catalog
    /// is at least as new as the number it is kept for.
    package var current: UInt64 {
        let stamps = files.map(Stamp.init(path:))
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let threshold = Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec) - Self.settling
        let isSettled = !stamps.contains { $0.modified > threshold }
        if isSettled, let generation = state.withLock({ $0.settled == stamps ? $0.generation : nil }) {
            return generation
        }
        let count = try? database.read(CatalogStateRecord.galleryCount)
        return state.withLock { state in
            guard let count else {
                // A catalog that cannot be read now: nothing made before is good.
                state.settled = nil
                state.generation += 1
                return state.generation
            }
            state.note(count)
            state.settled = isSettled ? stamps : nil
            return state.generation
        }
    }

    /// This library committed a transaction that leaves the catalog's count at `count`.
    func committed(_ count: GalleryCount) {
        state.withLock { $0.note(count) }
    }
}
