import BoothCore

/// How a keypad's keys are laid out.
public enum KeypadLayout: String, CaseIterable, Sendable {
    /// A full keyboard (or a keypad that sends characters): keys type what they say.
    case keyboard
    /// A 12-key phone keypad: letters by multi-tap on 2-9, `*` erases, `#` confirms.
    case phone
}

/// Turns the bytes a serial keypad sends into keys, one byte at a time, with the time each byte
/// arrived. Pure: the keypad's thread feeds it and asks for its deadline.
///
/// Keyboard: printable characters (UTF-8) type, Backspace/Delete erase, Enter (CR, LF or CRLF)
/// confirms, a lone Escape cancels (an Escape that starts a terminal sequence, such as an arrow
/// key, does not). Phone, while a name is typed: a digit key types its first letter, and
/// pressing it again within ``multiTapTimeout`` replaces that letter by the next one ("2" "2"
/// gives "b"); after the timeout, or on another key, the letter stays. Outside name entry the
/// view key asks for the gallery, and the arrow keys (2, 8 and 5 on a phone keypad) move
/// through lists. Everything else is counted as garbage and ignored.
public struct KeypadDecoder: Sendable {
    public let layout: KeypadLayout
    public let viewKey: Character
    public let multiTapTimeout: Duration
    /// Whether the booth is asking for a name (the keypad learns it from the screen).
    public var naming = false {
        didSet {
            if naming != oldValue { tap = nil }
        }
    }
    /// Bytes that meant nothing (control codes, broken UTF-8), since the decoder was made.
    public private(set) var garbage = 0

    /// How long an Escape waits for the rest of a terminal sequence before it is a cancel.
    static let escapeTimeout = Duration.milliseconds(50)

    /// The letters of each phone key, in multi-tap order; the digit itself comes last.
    static let phoneLetters: [Character: [Character]] = [
        "1": [".", "-", "1"], "2": ["a", "b", "c", "2"], "3": ["d", "e", "f", "3"], "4": ["g", "h", "i", "4"],
        "5": ["j", "k", "l", "5"], "6": ["m", "n", "o", "6"], "7": ["p", "q", "r", "s", "7"],
        "8": ["t", "u", "v", "8"], "9": ["w", "x", "y", "z", "9"], "0": [" ", "0"],
    ]

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
    private var tap: (key: Character, index: Int, at: MonotonicInstant)?

    public init(layout: KeypadLayout, viewKey: Character, multiTapTimeout: Duration = .seconds(1)) {
        self.layout = layout
        self.viewKey = viewKey
        self.multiTapTimeout = multiTapTimeout
    }

    /// When a pending lone Escape becomes a cancel, if one is pending.
    public var deadline: MonotonicInstant? {
        guard case .started(let at) = escape else { return nil }
        return at + Self.escapeTimeout
    }

    /// The keys that time alone produces (a lone Escape) by `now`.
    public mutating func expire(at now: MonotonicInstant) -> [KeypadKey] {
        guard let deadline, now >= deadline else { return [] }
        escape = nil
        return [.cancel]
    }

    /// Takes one byte; returns the keys it completes.
    public mutating func feed(_ byte: UInt8, at now: MonotonicInstant) -> [KeypadKey] {
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
            return [.cancel] + feed(byte, at: now)
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
            return key(.enter)
        case 0x0A:
            return afterCarriageReturn ? [] : key(.enter)
        case 0x08, 0x7F:
            return key(.backspace)
        case 0x20..<0x7F:
            return character(Character(Unicode.Scalar(byte)), at: now)
        default:
            if Character(Unicode.Scalar(byte)) == viewKey { return character(viewKey, at: now) }
            garbage += 1
            return []
        }
    }

    /// The up and down arrows (`ESC [ A`, `ESC O B`...); other sequences mean nothing here.
    private mutating func arrow(_ final: UInt8) -> [KeypadKey] {
        switch final {
        case UInt8(ascii: "A"): key(.up)
        case UInt8(ascii: "B"): key(.down)
        default: []
        }
    }

    /// A key that is not a phone letter ends any multi-tap cycle.
    private mutating func key(_ key: KeypadKey) -> [KeypadKey] {
        tap = nil
        return [key]
    }

    private mutating func character(_ character: Character, at now: MonotonicInstant) -> [KeypadKey] {
        if !naming, character == viewKey { return key(.view) }
        guard layout == .phone else { return key(.character(character)) }
        switch (character, naming) {
        case ("*", true): return key(.backspace)
        case ("*", false): return key(.cancel)
        case ("#", _): return key(.enter)
        // Outside name entry the keypad moves through lists: 2 up, 8 down, 5 selects.
        case ("2", false): return key(.up)
        case ("8", false): return key(.down)
        case ("5", false): return key(.enter)
        default: break
        }
        guard naming, let letters = Self.phoneLetters[character] else { return key(.character(character)) }
        if let tap, tap.key == character, tap.at.duration(to: now) < multiTapTimeout {
            let index = (tap.index + 1) % letters.count
            self.tap = (character, index, now)
            return [.retype(letters[index])]
        }
        tap = (character, 0, now)
        return [.character(letters[0])]
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
        return self.character(character, at: now)
    }
}
