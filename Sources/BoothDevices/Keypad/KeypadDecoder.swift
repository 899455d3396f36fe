import BoothCore

/// Turns the bytes a serial keypad sends into the keys pressed, one byte at a time, with the
/// time each byte arrived. Pure: the keypad's thread feeds it and asks for its deadline. What a
/// key means is not its business (``KeyBindings`` in the core decides).
///
/// Printable characters (UTF-8) are characters, digits, `*` and `#` included, and so is Tab (a
/// name gets a space for it); Backspace and Delete are Backspace; CR, LF or CRLF is one Enter; a lone Escape is Escape (an Escape that
/// starts a terminal sequence does not count: `ESC [ A` and `ESC O A` are the up arrow, `B` the
/// down arrow). Everything else is counted as garbage and ignored.
package struct KeypadDecoder: Sendable {
    /// Bytes that meant nothing (control codes, broken UTF-8), since the decoder was made.
    package private(set) var garbage = 0

    /// How long an Escape waits for the rest of a terminal sequence before it stands alone.
    static let escapeTimeout = Duration.milliseconds(50)

    private enum Escape {
        /// An Escape arrived at this time; a sequence may follow.
        case started(MonotonicInstant)
        /// Inside `ESC [`: parameters until a final byte; `plain` while none came.
        case controlSequence(plain: Bool)
        /// Inside `ESC O`: one more byte.
        case singleShift
    }

    private var escape: Escape?
    private var utf8: [UInt8] = []
    private var afterCarriageReturn = false

    package init() {}

    /// When a pending lone Escape stands alone, if one is pending.
    package var deadline: MonotonicInstant? {
        guard case .started(let at) = escape else { return nil }
        return at + Self.escapeTimeout
    }

    /// The keys that time alone produces (a lone Escape) by `now`.
    package mutating func expire(at now: MonotonicInstant) -> [KeypadKey] {
        guard let deadline, now >= deadline else { return [] }
        escape = nil
        return [.escape]
    }

    /// Takes one byte; returns the keys it completes.
    package mutating func feed(_ byte: UInt8, at now: MonotonicInstant) -> [KeypadKey] {
        defer { afterCarriageReturn = byte == 0x0D }
        switch escape {
        case .started:
            escape = nil
            if byte == UInt8(ascii: "[") {
                escape = .controlSequence(plain: true)
                return []
            }
            if byte == UInt8(ascii: "O") {
                escape = .singleShift
                return []
            }
            return [.escape] + feed(byte, at: now)
        case .controlSequence(let plain):
            guard (0x40...0x7E).contains(byte) else {
                escape = .controlSequence(plain: false)
                return []
            }
            escape = nil
            return plain ? arrow(byte) : []
        case .singleShift:
            escape = nil
            return arrow(byte)
        case nil:
            break
        }
        if byte >= 0x80 || !utf8.isEmpty { return decodeUTF8(byte, at: now) }
        switch byte {
        case 0x1B:
            escape = .started(now)
            return []
        case 0x0D:
            return [.enter]
        case 0x0A:
            return afterCarriageReturn ? [] : [.enter]
        case 0x08, 0x7F:
            return [.backspace]
        case 0x09:
            return [.character("\t")]
        case 0x20..<0x7F:
            return [.character(Character(Unicode.Scalar(byte)))]
        default:
            garbage += 1
            return []
        }
    }

    /// The up and down arrows (`ESC [ A`, `ESC O B`...); other sequences mean nothing here.
    private func arrow(_ final: UInt8) -> [KeypadKey] {
        switch final {
        case UInt8(ascii: "A"): [.up]
        case UInt8(ascii: "B"): [.down]
        default: []
        }
    }

    /// Collects a multi-byte UTF-8 character; a broken sequence is garbage.
    private mutating func decodeUTF8(_ byte: UInt8, at now: MonotonicInstant) -> [KeypadKey] {
        if utf8.isEmpty {
            guard (0xC2...0xF4).contains(byte) else {
                garbage += 1
                return []
            }
            utf8 = [byte]
            return []
        }
        guard byte & 0xC0 == 0x80 else {
            // The sequence broke off: count it, and read this byte afresh.
            garbage += utf8.count
            utf8 = []
            return feed(byte, at: now)
        }
        utf8.append(byte)
        let expected = utf8[0] >= 0xF0 ? 4 : utf8[0] >= 0xE0 ? 3 : 2
        guard utf8.count == expected else { return [] }
        defer { utf8 = [] }
        guard let text = String(validating: utf8, as: UTF8.self), let character = text.first else {
            garbage += utf8.count
            return []
        }
        return [.character(character)]
    }
}
