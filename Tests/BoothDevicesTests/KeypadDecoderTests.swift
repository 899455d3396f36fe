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

    @Test("A keyboard types UTF-8 characters, erases with Backspace and Delete, confirms with CR, LF or CRLF once")
    func keyboard() {
        var decoder = KeypadDecoder(layout: .keyboard, viewKey: "v")
        decoder.naming = true
        let typed = keys(&decoder, Array("Zoë\u{8}\u{7F}\r\n\n".utf8), at: start)
        #expect(typed == [.character("Z"), .character("o"), .character("ë"), .backspace, .backspace, .enter, .enter])
        #expect(decoder.garbage == 0)
    }

    @Test("A lone Escape cancels once its deadline passes; an arrow key's sequence does not")
    func escape() {
        var decoder = KeypadDecoder(layout: .keyboard, viewKey: "v")
        decoder.naming = true
        #expect(keys(&decoder, [0x1B, UInt8(ascii: "["), UInt8(ascii: "A")], at: start) == [.up], "an arrow, not a cancel")
        #expect(decoder.deadline == nil)
        #expect(keys(&decoder, [0x1B], at: start).isEmpty)
        let deadline = try! #require(decoder.deadline)
        #expect(decoder.expire(at: start).isEmpty, "not before the deadline")
        #expect(decoder.expire(at: deadline) == [.cancel])
        #expect(decoder.deadline == nil)
        #expect(keys(&decoder, [0x1B, UInt8(ascii: "x")], at: start) == [.cancel, .character("x")], "Escape then a key")
    }

    @Test("Garbage bytes and broken UTF-8 are counted and ignored; the next key still works")
    func garbage() {
        var decoder = KeypadDecoder(layout: .keyboard, viewKey: "v")
        decoder.naming = true
        let typed = keys(&decoder, [0x00, 0x07, 0xFF, 0xC3, UInt8(ascii: "a"), 0xE2, 0x82, UInt8(ascii: "b")], at: start)
        #expect(typed == [.character("a"), .character("b")])
        #expect(decoder.garbage == 6)
    }

    @Test("The view key asks for the gallery on the main screen and types while naming")
    func viewKey() {
        var decoder = KeypadDecoder(layout: .keyboard, viewKey: "v")
        #expect(keys(&decoder, [UInt8(ascii: "v")], at: start) == [.view])
        decoder.naming = true
        #expect(keys(&decoder, [UInt8(ascii: "v")], at: start) == [.character("v")])
    }

    @Test("Phone layout: repeated taps within the timeout cycle a key's letters; * erases, # confirms")
    func phoneMultiTap() {
        var decoder = KeypadDecoder(layout: .phone, viewKey: "0", multiTapTimeout: .seconds(1))
        decoder.naming = true
        var draft = CaptionDraft()
        func apply(_ keys: [KeypadKey]) {
            for key in keys {
                switch key {
                case .character(let character): _ = draft.type(character)
                case .retype(let character): _ = draft.retype(character)
                case .backspace: _ = draft.erase()
                default: break
                }
            }
        }
        let tick = Duration.milliseconds(200)
        apply(keys(&decoder, Array("22".utf8), at: start))  // b
        apply(keys(&decoder, Array("33".utf8), at: start + tick))  // e, another key ends the cycle
        apply(keys(&decoder, Array("66".utf8), at: start + tick * 2))  // n
        #expect(draft.text == "ben")
        // The same key after the timeout starts a new letter.
        apply(keys(&decoder, Array("6".utf8), at: start + tick * 2 + .seconds(2)))
        #expect(draft.text == "benm")
        apply(keys(&decoder, Array("*".utf8), at: start + .seconds(5)))
        #expect(draft.text == "ben")
        // Cycling wraps round to the first letter after the digit.
        apply(keys(&decoder, Array("22222".utf8), at: start + .seconds(6)))
        #expect(draft.text == "bena")
        #expect(keys(&decoder, Array("#".utf8), at: start + .seconds(7)) == [.enter])
    }

    @Test("Phone layout: taps read one at a time, with the naming flag set again before each, still cycle")
    func phoneTapsAcrossReads() {
        var decoder = KeypadDecoder(layout: .phone, viewKey: "0")
        var typed: [KeypadKey] = []
        for (index, byte) in Array("222".utf8).enumerated() {
            decoder.naming = true  // the keypad refreshes it before every read
            typed += decoder.feed(byte, at: start + .milliseconds(300 * index))
        }
        #expect(typed == [.character("a"), .retype("b"), .retype("c")])
    }

    @Test("Phone layout outside name entry: the view key, * back, 2 up, 8 down, 5 selects, other digits pass")
    func phoneAtRest() {
        var decoder = KeypadDecoder(layout: .phone, viewKey: "0")
        #expect(keys(&decoder, Array("0*2853".utf8), at: start) == [.view, .cancel, .up, .down, .enter, .character("3")])
    }

    @Test("Arrow keys move up and down in both cursor modes; other sequences mean nothing")
    func arrows() {
        var decoder = KeypadDecoder(layout: .keyboard, viewKey: "v")
        let bytes: [UInt8] = [0x1B, 0x5B, 0x41, 0x1B, 0x4F, 0x42, 0x1B, 0x5B, 0x31, 0x3B, 0x35, 0x41, 0x1B, 0x5B, 0x43]
        #expect(keys(&decoder, bytes, at: start) == [.up, .down])
    }
}
