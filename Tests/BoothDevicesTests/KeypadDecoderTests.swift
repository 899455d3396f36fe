import BoothCore
import Testing

@testable import BoothDevices

@Suite("Keypad decoder")
struct KeypadDecoderTests {
    let start = MonotonicInstant(nanoseconds: 1_000_000_000)

    /// Feeds `text`'s bytes all at `time` and returns the keys.
    func keys(_ decoder: inout KeypadDecoder, _ bytes: [UInt8], at time: MonotonicInstant) -> [KeypadKey] {
        bytes.flatMap { decoder.feed($0, at: time) }
    }

    @Test("UTF-8 characters, Tab, Backspace and Delete, and CR, LF or CRLF as one Enter")
    func keyboard() {
        var decoder = KeypadDecoder()
        let typed = keys(&decoder, Array("Zoë\t\u{8}\u{7F}\r\n\n".utf8), at: start)
        #expect(typed == [.character("Z"), .character("o"), .character("ë"), .character("\t"), .backspace, .backspace, .enter, .enter])
        #expect(decoder.garbage == 0)
    }

    @Test("A lone Escape stands alone once its deadline passes; an arrow key's sequence is the arrow")
    func escape() {
        var decoder = KeypadDecoder()
        #expect(keys(&decoder, [0x1B, UInt8(ascii: "["), UInt8(ascii: "A")], at: start) == [.up], "an arrow, not an Escape")
        #expect(decoder.deadline == nil)
        #expect(keys(&decoder, [0x1B], at: start).isEmpty)
        let deadline = try! #require(decoder.deadline)
        #expect(decoder.expire(at: start).isEmpty, "not before the deadline")
        #expect(decoder.expire(at: deadline) == [.escape])
        #expect(decoder.deadline == nil)
        #expect(keys(&decoder, [0x1B, UInt8(ascii: "x")], at: start) == [.escape, .character("x")], "Escape then a key")
    }

    @Test("Garbage bytes and broken UTF-8 are counted and ignored; the next key still works")
    func garbage() {
        var decoder = KeypadDecoder()
        let typed = keys(&decoder, [0x00, 0x07, 0xFF, 0xC3, UInt8(ascii: "a"), 0xE2, 0x82, UInt8(ascii: "b")], at: start)
        #expect(typed == [.character("a"), .character("b")])
        #expect(decoder.garbage == 6)
    }

    @Test("A phone keypad's keys are the characters on them, whatever the booth shows")
    func phoneKeys() {
        var decoder = KeypadDecoder()
        #expect(keys(&decoder, Array("0*2#85".utf8), at: start) == "0*2#85".map { .character($0) })
    }

    @Test("Arrow keys in both cursor modes; other sequences mean nothing")
    func arrows() {
        var decoder = KeypadDecoder()
        let bytes: [UInt8] = [0x1B, 0x5B, 0x41, 0x1B, 0x4F, 0x42, 0x1B, 0x5B, 0x31, 0x3B, 0x35, 0x41, 0x1B, 0x5B, 0x43]
        #expect(keys(&decoder, bytes, at: start) == [.up, .down])
    }
}
