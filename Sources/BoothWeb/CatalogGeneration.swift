import BoothStore
import Foundation
import Glibc
import Synchronization

/// The generation of the catalog's photos that kept answers are made for: the library's own
/// (``PhotoChanges``, raised by every commit of this process) plus one for each change to the
/// catalog's files seen from outside, so that a photo hidden by `photobooth hide` in another
/// process (which the library's observer cannot see) is not served from memory either.
///
/// Every commit writes the catalog's write-ahead log, so a commit from anywhere changes the
/// log's or the catalog's size, time or inode. File times come from a clock that advances by
/// ticks of a few milliseconds, so a write in the same tick as a look leaves the time as it
/// was: while either file was written less than ``settling`` ago, each look counts as a change
/// (nothing is kept for that moment), as git does with racy index entries.
final class CatalogGeneration: Sendable {
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

    private struct Seen {
        var stamps: [Stamp] = []
        var changes: UInt64 = 0
    }

    /// How long after a write its file's time may still be the time of the next write.
    static let settling: Int64 = 100_000_000

    private let library: PhotoLibrary
    private let files: [String]
    private let seen = Mutex(Seen())

    init(library: PhotoLibrary) {
        self.library = library
        let catalog = library.directory.appendingPathComponent(PhotoLibrary.catalogName).path
        files = [catalog, catalog + "-wal"]
    }

    /// The generation now: read it before reading the catalog, so that what is made from the
    /// catalog is at least as new as the generation it is kept for.
    var current: UInt64 {
        let own = library.changes.generation
        let stamps = files.map(Stamp.init(path:))
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let settled = Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec) - Self.settling
        let outside = seen.withLock { seen in
            if stamps != seen.stamps || stamps.contains(where: { $0.modified > settled }) {
                seen.stamps = stamps
                seen.changes += 1
            }
            return seen.changes
        }
        return own &+ outside
    }
}
