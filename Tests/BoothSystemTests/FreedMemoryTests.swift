import Foundation
import Testing

@testable import BoothSystem

/// The anonymous memory this process has resident, in kilobytes (`RssAnon` of /proc/self/status).
private func residentAnonymousKilobytes() -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("RssAnon:") })
    else { return nil }
    return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
}

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
}
