import Foundation
import Testing

@testable import BoothSystem

/// The anonymous memory this process has resident, in kilobytes (`RssAnon` of /proc/self/status).
private func residentAnonymousKilobytes() throws -> Int {
    let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
    let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("RssAnon:") })
    return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
}

@Suite("Freed memory")
struct FreedMemoryTests {
    @Test("A freed block of megabytes that malloc keeps resident goes back to the kernel")
    func givesBackWhatMallocKeeps() throws {
        let size = 24 << 20
        // The first block is mapped on its own, and freeing it teaches malloc to serve blocks
        // that large from its arena. The next two are; the second keeps the first from merging
        // with the arena's free end, so that once freed the first is a free chunk inside the
        // arena, which malloc keeps resident, as it kept a photo's pictures.
        free(malloc(size))
        let block = try #require(malloc(size))
        let after = try #require(malloc(size))
        defer { free(after) }
        memset(block, 1, size)
        free(block)
        let kept = try residentAnonymousKilobytes()
        FreedMemory.giveBack()
        let left = try residentAnonymousKilobytes()
        // Other tests run meanwhile: most of the block, not all of it, is the measure.
        #expect(kept - left >= 16 << 10, "\(kept) kB resident before, \(left) kB after")
    }
}
