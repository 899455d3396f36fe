import BoothImaging
import Testing

@Suite("QR codes")
struct QRCodeTests {
    /// A photo page's address as the booth links it.
    static let link = "http://booth.local:8080/photos/6f1c2a7e-3b9d-4c55-8e2a-0d4b7f9a1c3e"

    @Test("A photo page's address fits a version 5 code (37 modules) at level M; a short text version 1 (21)")
    func versions() throws {
        let code = try QRCode(encoding: Self.link)
        #expect(code.version == 5 && code.size == 37)
        #expect(code.text == Self.link)
        let short = try QRCode(encoding: "HELLO WORLD")
        #expect(short.version == 1 && short.size == 21)
    }

    @Test("The three finder patterns, their separators, the timing patterns and the dark module are where the standard puts them")
    func functionPatterns() throws {
        let code = try QRCode(encoding: Self.link)
        let size = code.size
        for (left, top) in [(0, 0), (size - 7, 0), (0, size - 7)] {
            for y in 0..<7 {
                for x in 0..<7 {
                    // A dark ring, a light ring, a dark 3x3 centre.
                    let ring = max(abs(x - 3), abs(y - 3))
                    #expect(code[left + x, top + y] == (ring != 2), "finder at (\(left), \(top)), module (\(x), \(y))")
                }
            }
        }
        for i in 0..<8 {
            // The light separators around each finder.
            #expect(!code[7, i] && !code[i, 7] && !code[size - 8, i] && !code[size - 1 - i, 7] && !code[7, size - 1 - i] && !code[i, size - 8])
        }
        for i in 8..<(size - 8) {
            #expect(code[i, 6] == (i % 2 == 0) && code[6, i] == (i % 2 == 0), "timing pattern at \(i)")
        }
        #expect(code[8, 4 * code.version + 9], "the dark module")
        #expect(!code[-1, 0] && !code[size, size - 1], "outside the matrix is the light quiet zone")
    }

    @Test("Different texts make different codes; the same text the same")
    func deterministic() throws {
        #expect(try QRCode(encoding: Self.link) == QRCode(encoding: Self.link))
        #expect(try QRCode(encoding: Self.link) != QRCode(encoding: Self.link + "x"))
    }

    @Test("A text too long for any QR code, or with a NUL, is an error, not a crash")
    func tooLong() {
        #expect(throws: ImageError.unencodable) { try QRCode(encoding: String(repeating: "x", count: 3000)) }
        #expect(throws: ImageError.unencodable) { try QRCode(encoding: "a\u{0}b") }
    }
}
