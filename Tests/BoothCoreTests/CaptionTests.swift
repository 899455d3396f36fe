import Foundation
import Testing

@testable import BoothCore

@Suite("Captions")
struct CaptionTests {
    @Test(
        "Names are trimmed and otherwise kept as typed",
        arguments: [
            ("  Alice ", "Alice"),
            ("Zoë & Léa", "Zoë & Léa"),
            ("Zoe\u{308}", "Zoe\u{308}"),
            ("李小龍", "李小龍"),
            ("👩‍👩‍👧 family", "👩‍👩‍👧 family"),
            ("שלום", "שלום"),
        ])
    func keptAsTyped(raw: String, expected: String) throws {
        let caption = try #require(Caption(sanitizing: raw))
        #expect(caption.text.unicodeScalars.elementsEqual(expected.unicodeScalars))
    }

    @Test("Control characters are removed; tabs and line breaks become spaces")
    func controlCharacters() {
        #expect(Caption(sanitizing: "Al\u{1}i\u{7F}ce\u{1B}[31m")?.text == "Alice[31m")
        #expect(Caption(sanitizing: "Ann\tand\nBob\r\n")?.text == "Ann and Bob")
        #expect(Caption(sanitizing: "a\u{2028}b\u{85}c")?.text == "a b c")
        #expect(Caption(sanitizing: "\u{9B}x\u{80}")?.text == "x")
    }

    @Test("Bidirectional overrides are removed, joiners are kept")
    func formatCharacters() {
        #expect(Caption(sanitizing: "evil\u{202E}gpj.exe")?.text == "evilgpj.exe")
        #expect(Caption(sanitizing: "a\u{2066}b\u{2069}")?.text == "ab")
        #expect(Caption(sanitizing: "👨\u{200D}🍳")?.text == "👨\u{200D}🍳")
    }

    @Test("Noncharacters are removed: no text means them, and XML cannot hold U+FFFE")
    func noncharacters() {
        // Swift's string literals refuse noncharacters; a keypad's UTF-8 does not.
        func text(_ values: [UInt32]) -> String { String(String.UnicodeScalarView(values.compactMap(Unicode.Scalar.init))) }
        #expect(Caption(sanitizing: text([0x41, 0x6E, 0xFFFE, 0x6E, 0x61, 0xFFFF, 0xFDD0, 0x10FFFF]))?.text == "Anna")
        #expect(Caption(sanitizing: text([0xFFFE])) == nil)
    }

    @Test("At most 64 characters, counted as people count them")
    func lengthLimit() throws {
        let long = try #require(Caption(sanitizing: String(repeating: "a", count: 200)))
        #expect(long.text.count == 64)
        let chinese = try #require(Caption(sanitizing: String(repeating: "李", count: 70)))
        #expect(chinese.text == String(repeating: "李", count: 64))
        let emoji = try #require(Caption(sanitizing: String(repeating: "👩🏽", count: 70)))
        #expect(emoji.text == String(repeating: "👩🏽", count: 64))
        let accents = try #require(Caption(sanitizing: String(repeating: "e\u{301}", count: 80)))
        #expect(accents.text.count == 64)
    }

    @Test("At most 512 bytes, cut between characters: 64 of any character a key types fit, 64 family emoji do not")
    func byteLimit() throws {
        // Four bytes a character, the most a key types: 256 bytes, whole.
        let widest = try #require(Caption(sanitizing: String(repeating: "😀", count: 64)))
        #expect(widest.text.count == 64)
        // 18 bytes each: 28 fit in 512.
        let families = try #require(Caption(sanitizing: String(repeating: "👩‍👩‍👧", count: 70)))
        #expect(families.text == String(repeating: "👩‍👩‍👧", count: 28))
        #expect(families.text.utf8.count <= Caption.maximumBytes)
    }

    @Test("A character keeps at most 16 scalars: 64 letters with 20,000 marks each make a caption of 512 bytes, not 2.5 MB")
    func stackedMarks() throws {
        let raw = String(repeating: "a" + String(repeating: "\u{301}", count: 20_000), count: 64)
        #expect(raw.utf8.count > 2_500_000)
        let caption = try #require(Caption(sanitizing: raw))
        #expect(caption.text.utf8.count <= Caption.maximumBytes)
        #expect(caption.text.allSatisfy { $0.unicodeScalars.count == Caption.maximumScalarsPerCharacter })
        #expect(caption.text.count == Caption.maximumBytes / (1 + 2 * (Caption.maximumScalarsPerCharacter - 1)))
        // The longest emoji sequence (10 scalars) is whole.
        let kiss = "👩🏻\u{200D}❤️\u{200D}💋\u{200D}👨🏼"
        #expect(kiss.unicodeScalars.count == 10 && Caption(sanitizing: kiss)?.text == kiss)
    }

    @Test("A cut does not leave trailing spaces")
    func cutTrimsAgain() {
        let raw = String(repeating: "a", count: 63) + "  bbb"
        #expect(Caption(sanitizing: raw)?.text == String(repeating: "a", count: 63))
    }

    @Test("Nothing printable means no caption", arguments: ["", "   ", "\u{0}\u{1}\u{2}", "\t\n", "\u{202E}"])
    func emptyIsNil(raw: String) {
        #expect(Caption(sanitizing: raw) == nil)
    }

    @Test("Invalid UTF-8 is dropped, valid sequences around it kept")
    func invalidUTF8() {
        let bytes: [UInt8] = [0x41, 0xFF, 0x6C, 0xC3, 0x28, 0x69, 0xE2, 0x82, 0x63, 0x65, 0xC3, 0xA9]
        #expect(Caption(sanitizing: bytes)?.text == "Al(iceé")
        #expect(String(droppingInvalidUTF8: [0xF0, 0x9F, 0x98, 0x80, 0xF0, 0x9F]) == "😀")
        #expect(Caption(sanitizing: [UInt8]([0xFF, 0xFE])) == nil)
    }

    @Test("The placeholder names the photo number")
    func placeholder() {
        #expect(Caption.placeholder(number: 42).text == "Photo 42")
    }

    @Test(
        "Quoted for the log: quotes and backslashes escaped, everything else as typed",
        arguments: [
            ("Alice", #""Alice""#),
            (#"Mia "M""#, #""Mia \"M\"""#),
            (#"Noah\Emma"#, #""Noah\\Emma""#),
            (#"\""#, #""\\\"""#),
            ("Zoë 大久保 👩‍👩‍👧", #""Zoë 大久保 👩‍👩‍👧""#),
        ])
    func quoted(raw: String, logged: String) throws {
        #expect(try #require(Caption(sanitizing: raw)).quoted == logged)
    }
}

@Suite("Caption drafts")
struct CaptionDraftTests {
    @Test("Typing applies the caption rules to each key")
    func typingRules() {
        var draft = CaptionDraft()
        let accepted = ["A", "\u{1}", "\t", "é"].map { draft.type(Character($0)) }
        #expect(accepted == [true, false, true, true])
        #expect(draft.text == "A é")
    }

    @Test("A combining mark joins the previous letter, even on a full draft")
    func combiningMarkOnFullDraft() {
        var draft = CaptionDraft(String(repeating: "e", count: 64))
        let accepted = [draft.type("\u{301}"), draft.type("f")]
        #expect(accepted == [true, false])
        #expect(draft.text.count == 64)
    }

    @Test("A draft stops at 512 bytes and keeps 16 scalars of a character, as the caption does")
    func byteBound() {
        var draft = CaptionDraft()
        for _ in 0..<64 { draft.type("👩‍👩‍👧") }
        #expect(draft.text.count == 28 && draft.caption?.text == draft.text)
        var marked = CaptionDraft()
        let typed = marked.type(Character("a" + String(repeating: "\u{301}", count: 100)))
        #expect(typed && marked.text.unicodeScalars.count == Caption.maximumScalarsPerCharacter)
    }

    @Test("Leading spaces are not typed, so they never take room from the name")
    func leadingSpaces() {
        var draft = CaptionDraft()
        let accepted = [" ", "\t", "A", " ", "B"].map { draft.type(Character($0)) }
        #expect(accepted == [false, false, true, true, true])
        for _ in 0..<100 { draft.type("x") }
        #expect(draft.caption?.text.count == 64)
    }

    @Test("Erasing removes whole characters")
    func erase() {
        var draft = CaptionDraft("Ok👍🏽")
        let erased = (0..<4).map { _ in draft.erase() }
        #expect(erased == [true, true, true, false])
        #expect(draft.caption == nil)
    }
}

@Suite("Timestamps")
struct TimestampTests {
    @Test("UTC timestamps keep milliseconds exactly, before and after 1970")
    func roundTrip() throws {
        for seconds in [1_790_000_000.25, 1_790_000_000.001, 0, -1.5, 1_790_000_000.999] {
            let date = Date(timeIntervalSince1970: seconds).roundedToMilliseconds
            let parsed = try #require(Date(utcTimestamp: date.utcTimestamp))
            #expect(parsed == date)
        }
        #expect(Date(timeIntervalSince1970: 1_790_000_000.25).utcTimestamp == "2026-09-21T14:13:20.250Z")
        #expect(Date(timeIntervalSince1970: -1.5).utcTimestamp == "1969-12-31T23:59:58.500Z")
    }

    @Test("Every day from 1900 to 2100, leap days and century years included, agrees with the C library's gmtime_r and timegm")
    func agreesWithTheCLibrary() throws {
        // The test may call C; BoothCore's own arithmetic may not.
        for day in stride(from: Int64(-25_567), through: 47_482, by: 1) {
            let seconds = day * 86_400 + 45_296
            var cSeconds = time_t(seconds)
            var parts = tm()
            gmtime_r(&cSeconds, &parts)
            let expected = String(
                format: "%04d-%02d-%02dT12:34:56.789Z", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday))
            let date = Date(timeIntervalSince1970: Double(seconds) + 0.789)
            #expect(date.utcTimestamp == expected)
            #expect(Date(utcTimestamp: expected) == date.roundedToMilliseconds)
        }
        #expect(Date(utcTimestamp: "2026-01-32T00:00:00.000Z")?.utcTimestamp == "2026-02-01T00:00:00.000Z", "carried over, as timegm does")
        #expect(Date(utcTimestamp: "2026-13-01T00:00:00.000Z")?.utcTimestamp == "2027-01-01T00:00:00.000Z")
    }

    @Test("Anything else is not a timestamp", arguments: ["", "2026-09-21", "2026-09-21 14:13:20.250", "x-y-zTa:b:c.dZ"])
    func rejects(text: String) {
        #expect(Date(utcTimestamp: text) == nil)
    }
}

@Suite("Caption draft: multi-tap retyping")
struct CaptionDraftRetypeTests {
    @Test("Retyping replaces the letter the last key typed")
    func replaces() {
        var draft = CaptionDraft("be")
        let typed = draft.type("m")
        let retyped = draft.retype("n")
        #expect(typed && retyped && draft.text == "ben")
    }

    @Test("In a full draft the first tap types nothing, so retyping replaces nothing the guest typed")
    func fullDraft() {
        let full = String(repeating: "x", count: Caption.maximumLength)
        var draft = CaptionDraft(full)
        let typed = draft.type("a")
        let retyped = draft.retype("b")
        #expect(!typed && !retyped)
        #expect(draft.text == full, "the last x stays")
    }

    @Test("After an erase there is nothing to retype: the letter is typed")
    func afterErase() {
        var draft = CaptionDraft("ab")
        draft.erase()
        let retyped = draft.retype("c")
        #expect(retyped && draft.text == "ac")
    }

    @Test("A letter that may not stand where the old one was leaves the old one")
    func refused() {
        var draft = CaptionDraft()
        draft.type("a")
        let retyped = draft.retype(" ")
        #expect(!retyped, "a leading space is trimmed from captions, so it is refused")
        #expect(draft.text == "a")
    }
}
