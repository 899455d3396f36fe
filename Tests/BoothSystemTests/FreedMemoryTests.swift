import Foundation
import SystemPackage
import Testing

@testable import BoothSystem

/// The memory this process has resident, in kilobytes: `field` of /proc/self/status (`RssAnon`,
/// `RssFile`).
private func residentKilobytes(_ field: String) -> Int? {
    guard let status = try? KernelFile.text(at: "/proc/self/status"),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("\(field):") })
    else { return nil }
    return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
}

private func residentAnonymousKilobytes() -> Int? { residentKilobytes("RssAnon") }

@Suite("Freed memory")
struct FreedMemoryTests {
    @Test("A freed block of megabytes that malloc keeps resident goes back to the kernel")
    func givesBackWhatMallocKeeps() async {
        // In a process of its own (an exit test): in the test process, other tests allocate
        // from the freed block before it is measured.
        await #expect(processExitsWith: .success) {
            let size = 24 << 20
            // The first block is mapped on its own, and freeing it teaches malloc to serve blocks
            // that large from its arena. The next two are; the second keeps the first from merging
            // with the arena's free end, so that once freed the first is a free chunk inside the
            // arena, which malloc keeps resident, as it kept a photo's pictures.
            free(malloc(size))
            guard let block = malloc(size), let after = malloc(size) else { exit(2) }
            defer { free(after) }
            memset(block, 1, size)
            free(block)
            guard let kept = residentAnonymousKilobytes() else { exit(3) }
            FreedMemory.giveBack()
            guard let left = residentAnonymousKilobytes() else { exit(3) }
            if kept - left < 16 << 10 {
                FileHandle.standardError.write(Data("\(kept) kB resident before, \(left) kB after\n".utf8))
                exit(1)
            }
        }
    }

    @Test("Code is released in every mapping, those /proc/self/maps lists past its first 4 KB too")
    func releasesEveryMapping() async {
        await #expect(processExitsWith: .success) {
            // Small mappings that do not merge, just below the lowest of the mapping area (the
            // libraries, the threads' stacks): listed before the libraries' code, which then
            // comes well past the first 4 KB of the list, all that Foundation's
            // String(contentsOfFile:) reads of it.
            guard let lowest = try? lowestMappingAboveHeap() else { exit(3) }
            for index in 1...400 {
                let address = UnsafeMutableRawPointer(bitPattern: lowest - UInt(index) * 8192)
                _ = mmap(address, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0)
            }
            guard (try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8))?.contains(".so") != true else {
                FileHandle.standardError.write(Data("the libraries are listed within the first page\n".utf8))
                exit(2)
            }
            guard let before = try? librariesCodeKilobytes() else { exit(3) }
            FreedMemory.releaseUnusedCode()
            guard let after = try? librariesCodeKilobytes() else { exit(3) }
            if after * 2 > before {
                FileHandle.standardError.write(Data("the libraries' code: \(before) kB resident before, \(after) kB after\n".utf8))
                exit(1)
            }
        }
    }

    @Test("Pages of code the process no longer runs stop counting as resident, and the code still runs")
    func releasesUnusedCode() async {
        await #expect(processExitsWith: .success) {
            // Start-up of the test runner touched megabytes of its code and of Foundation's (4 MB of
            // code pages in the debug build's test runner; its read-only data is in mappings of
            // their own here, which stay).
            guard let before = residentKilobytes("RssFile") else { exit(3) }
            FreedMemory.releaseUnusedCode()
            guard let after = residentKilobytes("RssFile") else { exit(3) }
            // Code released runs again: Foundation formats, the runtime allocates.
            let text = String(format: "%05.1f", 3.25) + "\(Array(1...3).map { $0 * 2 })"
            guard text == "003.2[2, 4, 6]" || text == "003.3[2, 4, 6]" else { exit(4) }
            if before - after < 1 << 10 {
                FileHandle.standardError.write(Data("\(before) kB of file pages resident before, \(after) kB after\n".utf8))
                exit(1)
            }
        }
    }
}

/// Where the mapping after the heap starts (the lowest of the area where libraries, stacks and
/// anonymous mappings go), from /proc/self/maps, which lists mappings in address order.
private func lowestMappingAboveHeap() throws -> UInt {
    let lines = try KernelFile.text(at: "/proc/self/maps").split(separator: "\n")
    guard let heap = lines.firstIndex(where: { $0.hasSuffix("[heap]") }), heap + 1 < lines.count,
        let start = lines[heap + 1].split(separator: "-").first, let address = UInt(start, radix: 16)
    else { throw Errno.noSuchFileOrDirectory }
    return address
}

/// The resident pages of the shared libraries' code (their executable file mappings), in
/// kilobytes, from /proc/self/smaps.
private func librariesCodeKilobytes() throws -> Int {
    var total = 0
    var inLibraryCode = false
    for line in try KernelFile.text(at: "/proc/self/smaps").split(separator: "\n") {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        if let range = fields.first, range.contains("-"), fields.count >= 5 {
            inLibraryCode = fields[1].hasPrefix("r-x") && fields.count >= 6 && fields[5].contains(".so")
        } else if inLibraryCode, fields.first == "Rss:", fields.count >= 2, let kilobytes = Int(fields[1]) {
            total += kilobytes
        }
    }
    return total
}
