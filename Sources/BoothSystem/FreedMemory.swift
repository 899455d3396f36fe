import CGlibcExtensions
import Foundation
import Glibc

/// Heap memory the booth has freed, given back to the kernel.
///
/// glibc's malloc keeps what a thread frees in that thread's arena for later allocations, and
/// once a block of several megabytes has been freed it serves blocks of that size from the
/// arenas rather than mapping each afresh. A photo's pictures (its decode at the screen's size,
/// the review picture) are such blocks: over thousands of photos, arenas kept megabytes resident
/// that nothing used, growing in steps (the soak measured 6.6 MB of 89 MB after 1,500 photos,
/// all of it given back by a trim).
package enum FreedMemory {
    /// Gives the whole free pages of every arena back to the kernel; they cost a page fault when
    /// used again. It takes about a millisecond: call it off the capture path, after the work
    /// that freed large blocks. The corresponding C function is `malloc_trim`.
    package static func giveBack() {
        _ = malloc_trim(0)
    }

    /// Unmaps the pages of machine code that the process has stopped using, so that they no
    /// longer count as its resident memory: the pages of every executable file mapping (the
    /// booth's own code and read-only data, the libraries'). Most of the booth's resident
    /// memory was such pages, touched once by start-up, by a burst of photos or by the web's
    /// first answers, and mapped 64 KB at a time around each page touched (the kernel's
    /// fault-around). The pages stay in the page cache; the code still used is mapped again at
    /// its next run, at the cost of a minor fault. Code is never written, so nothing is lost.
    /// Reads `/proc/self/maps`: call it off Swift's cooperative pool. The corresponding C
    /// function is `madvise(MADV_DONTNEED)`.
    package static func releaseUnusedCode() {
        guard let maps = try? KernelFile.text(at: "/proc/self/maps") else { return }
        for line in maps.split(separator: "\n") {
            // "start-end perms offset dev inode path": executable, never writable, from a file.
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[1].hasPrefix("r-x"), fields[5].hasPrefix("/") else { continue }
            let bounds = fields[0].split(separator: "-").compactMap { UInt(String($0), radix: 16) }
            guard bounds.count == 2, bounds[1] > bounds[0], let start = UnsafeMutableRawPointer(bitPattern: bounds[0]) else {
                continue
            }
            _ = madvise(start, Int(bounds[1] - bounds[0]), MADV_DONTNEED)
        }
    }
}
