/// A key as a device reports it: what was pressed, never what it means. What a key does (type a
/// letter, cycle a phone key's letters, move in the gallery, open it) is the state machine's
/// decision (``KeyBindings``), so every keypad, keyboard and console means the same thing by it.
public enum KeypadKey: Sendable, Hashable {
    /// A printable character: a letter, a digit, `*` or `#` on a phone keypad.
    case character(Character)
    /// Erase (Backspace or Delete).
    case backspace
    /// Enter (or Return).
    case enter
    /// Escape.
    case escape
    /// The up and down arrows.
    case up
    case down
}

/// The keypad (or keyboard) a guest uses to name a photo.
public protocol Keypad: Sendable {
    /// The keys in the order they were pressed. A single consumer reads it. The stream ends only
    /// when input has ended for good (a script piped into the simulated booth); the booth then
    /// finishes what it is doing and stops.
    var keys: AsyncStream<KeypadKey> { get }
}

/// How a keypad's keys are laid out.
public enum KeypadLayout: String, CaseIterable, Sendable {
    /// A full keyboard (or a keypad that sends characters): keys type what they say.
    case keyboard
    /// A 12-key phone keypad: letters by multi-tap on 2-9, `*` erases (or goes back), `#`
    /// confirms; outside name entry 2 and 8 move through lists and 5 selects.
    case phone
}

/// What the keys mean: the layout, the key that opens the gallery, and how long a phone key
/// waits for its next tap.
///
/// In the gallery's list a guest finds a photo by the start of its name. On a keyboard the
/// letters type it at once (the arrows, Enter and Escape keep their meaning). On a phone keypad,
/// whose 2, 8 and 5 move and open, the view key starts a search: then every digit types its
/// letters as while naming, `*` erases and `#` ends the search, leaving the selection where the
/// name led.
public struct KeyBindings: Sendable, Hashable {
    public var layout: KeypadLayout
    /// The key chosen to open the gallery; `nil` for the layout's own.
    public var chosenViewKey: Character?
    /// How long a phone key waits for the next tap of the same key before its letter stays.
    public var multiTapTimeout: Duration
    /// How long the gallery waits for the next letter of a name being found: after it the
    /// search ends, and the next letter starts a new one.
    public var findTimeout: Duration

    /// The key that opens the gallery from the main screen: the chosen one, else v (0 on a
    /// phone keypad). While a name is typed it types itself; in the gallery of a phone keypad
    /// it starts a search by name.
    public var viewKey: Character { chosenViewKey ?? (layout == .phone ? "0" : "v") }

    public init(
        layout: KeypadLayout = .keyboard, viewKey: Character? = nil, multiTapTimeout: Duration = .seconds(1),
        findTimeout: Duration = .seconds(3)
    ) {
        self.layout = layout
        self.chosenViewKey = viewKey
        self.multiTapTimeout = multiTapTimeout
        self.findTimeout = findTimeout
    }

    /// The letters of each phone key, in multi-tap order; the digit itself comes last.
    static let phoneLetters: [Character: [Character]] = [
        "1": [".", "-", "1"], "2": ["a", "b", "c", "2"], "3": ["d", "e", "f", "3"], "4": ["g", "h", "i", "4"],
        "5": ["j", "k", "l", "5"], "6": ["m", "n", "o", "6"], "7": ["p", "q", "r", "s", "7"],
        "8": ["t", "u", "v", "8"], "9": ["w", "x", "y", "z", "9"], "0": [" ", "0"],
    ]
}

/// What a key does in the booth, once its layout and the booth's state are known.
enum KeyAction: Hashable {
    /// Add a character to the name.
    case type(Character)
    /// A phone key, while a name is typed: its first letter, or the next one when it is
    /// pressed again in time.
    case tap(Character)
    case erase
    case confirm
    /// Cancel the name, or leave the gallery.
    case back
    case up
    case down
    case openGallery
    /// Start finding a photo by its name (a phone keypad's view key, in the gallery).
    case find

    /// What `key` does while a name is typed.
    static func naming(_ key: KeypadKey, bindings: KeyBindings) -> KeyAction? {
        switch (key, bindings.layout) {
        case (.character("*"), .phone), (.backspace, _): .erase
        case (.character("#"), .phone), (.enter, _): .confirm
        case (.escape, _): .back
        case (.character(let character), .phone) where KeyBindings.phoneLetters[character] != nil: .tap(character)
        case (.character(let character), _): .type(character)
        case (.up, _), (.down, _): nil
        }
    }

    /// What `key` does in the gallery, unless a phone keypad is finding a name (then keys mean
    /// what they mean while naming, see ``naming(_:bindings:)``). On a keyboard a character
    /// types the start of a name to find.
    static func browsing(_ key: KeypadKey, bindings: KeyBindings) -> KeyAction? {
        switch (key, bindings.layout) {
        case (.up, _), (.character("2"), .phone): .up
        case (.down, _), (.character("8"), .phone): .down
        case (.enter, _), (.character("5"), .phone), (.character("#"), .phone): .confirm
        case (.escape, _), (.character("*"), .phone): .back
        case (.backspace, _): .erase
        case (.character(let character), .phone): character == bindings.viewKey ? .find : nil
        case (.character(let character), .keyboard): .type(character)
        }
    }

    /// What `key` does on the main screen (or what stands for it: the saved screen, a fault).
    static func atRest(_ key: KeypadKey, bindings: KeyBindings) -> KeyAction? {
        key == .character(bindings.viewKey) ? .openGallery : nil
    }
}

/// A phone key being tapped while a name is typed: which key, which of its letters was typed
/// last, and until when another tap of it replaces that letter.
public struct MultiTap: Sendable, Hashable {
    public let key: Character
    public let index: Int
    public let until: MonotonicInstant

    /// The letter `key` types when tapped at `now` after `previous`: its next letter in place
    /// of the last one (`replacing`) when it is the key tapped before its deadline, else its
    /// first letter; `nil` for a key without letters.
    static func tap(
        _ key: Character, after previous: MultiTap?, at now: MonotonicInstant, timeout: Duration
    ) -> (tap: MultiTap, letter: Character, replacing: Bool)? {
        guard let letters = KeyBindings.phoneLetters[key] else { return nil }
        if let previous, previous.key == key, now < previous.until {
            let index = (previous.index + 1) % letters.count
            return (MultiTap(key: key, index: index, until: now + timeout), letters[index], true)
        }
        return (MultiTap(key: key, index: 0, until: now + timeout), letters[0], false)
    }
}
