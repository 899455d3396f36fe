import Foundation
import Testing

@testable import BoothCore

@Suite("Random UUIDs")
struct RandomUUIDTests {
    /// A generator that gives the same words in turn, so that the id's bytes can be predicted.
    struct FixedWords: RandomNumberGenerator {
        var words: [UInt64]
        mutating func next() -> UInt64 { words.removeFirst() }
    }

    @Test("An id is a generator's 128 bits, with the version (4) and the RFC's variant set")
    func fromGenerator() {
        var ones = FixedWords(words: [.max, .max])
        #expect(UUID.random(using: &ones).lowercased == "ffffffff-ffff-4fff-bfff-ffffffffffff")
        var zeros = FixedWords(words: [0, 0])
        #expect(UUID.random(using: &zeros).lowercased == "00000000-0000-4000-8000-000000000000")
    }

    @Test("The system's ids are version 4, of the RFC's variant, and never the same")
    func system() {
        let ids = (0..<2000).map { _ in UUID.random() }
        #expect(Set(ids).count == ids.count)
        for id in ids {
            #expect(id.lowercased.wholeMatch(of: /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/) != nil)
        }
        // Each of the 122 random bits is set in some ids and clear in others.
        var set = [Int](repeating: 0, count: 128)
        for id in ids {
            withUnsafeBytes(of: id.uuid) { bytes in
                for bit in 0..<128 where bytes[bit / 8] & (1 << (bit % 8)) != 0 { set[bit] += 1 }
            }
        }
        // The version is the high half of byte 6, the variant the two high bits of byte 8.
        let versionAndVariant: Set<Int> = [52, 53, 54, 55, 70, 71]
        for bit in 0..<128 where !versionAndVariant.contains(bit) {
            #expect(set[bit] > 0 && set[bit] < ids.count, "bit \(bit) is \(set[bit] == 0 ? "never" : "always") set")
        }
    }
}
