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
package protocol Keypad: Sendable {
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
    package var findTimeout: Duration
    /// How the keys of a keyboard that sends them a line at a time (a terminal) are read
    /// together; `nil` for a keypad or keyboard whose keys come one by one.
    package var lines: LineKeys?
    /// The keys that press the shutter, for a keyboard that is also the booth's button (the
    /// terminal of a simulated booth without one); `nil` when a button does.
    package var shutter: ShutterKeys?
    /// The keys that make a picture of a mode on the main screen (`c` a collage, say), beside
    /// the button's standard mode.
    public var modeKeys: [Character: PictureMode] = [:]
    /// The key that prints the picture just saved, on its saved screen; `nil` when the booth
    /// does not print on request (``keypad.print_key``).
    public var printKey: Character?

    /// The key that opens the gallery from the main screen: the chosen one, else v (0 on a
    /// phone keypad). While a name is typed it types itself; in the gallery of a phone keypad
    /// it starts a search by name.
    package var viewKey: Character { chosenViewKey ?? (layout == .phone ? "0" : "v") }

    public init(
        layout: KeypadLayout = .keyboard, viewKey: Character? = nil, multiTapTimeout: Duration = .seconds(1),
        findTimeout: Duration = .seconds(3), lines: LineKeys? = nil, shutter: ShutterKeys? = nil
    ) {
        self.layout = layout
        self.chosenViewKey = viewKey
        self.multiTapTimeout = multiTapTimeout
        self.findTimeout = findTimeout
        self.lines = lines
        self.shutter = shutter
    }

    /// The keys of the simulated booth's terminal: a keyboard whose keys come a line at a time
    /// (``LineKeys``), v opening the gallery; when the terminal is also the button
    /// (`pressesShutter`), Enter on the main screen and `p` in the gallery press the shutter.
    package static func terminal(pressesShutter: Bool) -> KeyBindings {
        KeyBindings(layout: .keyboard, viewKey: "v", lines: LineKeys(), shutter: pressesShutter ? ShutterKeys() : nil)
    }

    /// The letters of each phone key, in multi-tap order; the digit itself comes last.
    static let phoneLetters: [Character: [Character]] = [
        "1": [".", "-", "1"], "2": ["a", "b", "c", "2"], "3": ["d", "e", "f", "3"], "4": ["g", "h", "i", "4"],
        "5": ["j", "k", "l", "5"], "6": ["m", "n", "o", "6"], "7": ["p", "q", "r", "s", "7"],
        "8": ["t", "u", "v", "8"], "9": ["w", "x", "y", "z", "9"], "0": [" ", "0"],
    ]
}

/// The keys that press the shutter on a keyboard that is also the booth's button. They come
/// before what the same keys mean otherwise: in the gallery, the shutter's key does not type.
public struct ShutterKeys: Sendable, Hashable {
    /// The key that presses the shutter on the main screen (or what stands for it: the saved
    /// screen, a fault, the slideshow).
    package var atRest: KeypadKey
    /// The key that presses the shutter in the gallery, where Enter opens a photo.
    package var inGallery: KeypadKey

    public init(atRest: KeypadKey = .enter, inGallery: KeypadKey = .character("p")) {
        self.atRest = atRest
        self.inGallery = inGallery
    }
}

/// How a keyboard whose keys come a line at a time is read: a terminal sends what is typed once
/// Enter is pressed (the simulated booth's terminal, or a script piped into it), so a line is
/// one command, and its Enter only ends it.
///
/// While a name is typed each key types at once: the line is the name, its Enter saves it, and
/// Escape keeps the placeholder and drops the rest of its line. Elsewhere a line means what its
/// keys say together once Enter ends it (``actions(of:inGallery:bindings:)``): on the main
/// screen the view key alone opens the gallery, and any other line is Enter (which presses the
/// shutter when ``KeyBindings/shutter`` says so); in the gallery an empty line is Enter, the
/// gallery's shutter key alone presses the shutter, a line that starts with ``find`` types the
/// rest as the start of a name to find, and any other line is a row of moves: ``up``, ``down``
/// and the arrows move, ``back`` and Escape go back, anything else means nothing. Letters are
/// read without their case.
public struct LineKeys: Sendable, Hashable {
    /// The letter that moves up in the gallery, beside the up arrow.
    package var up: Character
    /// The letter that moves down in the gallery, beside the down arrow.
    package var down: Character
    /// The letter that goes back in the gallery (and ends a search), beside Escape.
    package var back: Character
    /// What starts a gallery line whose rest is the start of a name to find.
    package var find: Character

    /// The most keys a line holds; the rest of a longer line is dropped.
    package static let maximumKeys = 256

    public init(up: Character = "u", down: Character = "d", back: Character = "b", find: Character = "/") {
        self.up = up
        self.down = down
        self.back = back
        self.find = find
    }

    /// What `line` (its keys before Enter) does, in the gallery or elsewhere, in order.
    func actions(of line: [KeypadKey], inGallery: Bool, bindings: KeyBindings) -> [KeyAction] {
        guard inGallery else {
            // A mode's key alone on its line makes a picture of that mode.
            if line.count == 1, let mode = bindings.modeKeys.first(where: { Self.same(line[0], .character($0.key)) })?.value {
                return [.shutter(mode)]
            }
            // The print key alone on its line prints the picture on its saved screen.
            if line.count == 1, let printKey = bindings.printKey, Self.same(line[0], .character(printKey)) { return [.print] }
            let viewKey = KeypadKey.character(bindings.viewKey)
            let key = line.count == 1 && Self.same(line[0], viewKey) ? viewKey : .enter
            return KeyAction.atRest(key, bindings: bindings).map { [$0] } ?? []
        }
        guard let first = line.first else { return KeyAction.browsing(.enter, bindings: bindings).map { [$0] } ?? [] }
        if line.count == 1, let shutter = bindings.shutter, Self.same(first, shutter.inGallery) { return [.shutter(nil)] }
        if first == .character(find) {
            return line.dropFirst().compactMap { key in
                switch key {
                case .character(let character): .type(character)
                case .backspace: .erase
                case .enter, .escape, .up, .down: nil
                }
            }
        }
        return line.compactMap { key in
            switch key {
            case .up, .down, .escape: KeyAction.browsing(key, bindings: bindings)
            case .character where Self.same(key, .character(up)): .up
            case .character where Self.same(key, .character(down)): .down
            case .character where Self.same(key, .character(back)): .back
            case .character, .backspace, .enter: nil
            }
        }
    }

    /// Whether `key` is `other`, a letter in either case.
    static func same(_ key: KeypadKey, _ other: KeypadKey) -> Bool {
        guard case .character(let typed) = key, case .character(let bound) = other else { return key == other }
        return typed == bound || typed.lowercased() == bound.lowercased()
    }
}

/// A line being typed on a keyboard whose keys come a line at a time, until its Enter.
struct TypedLine: Sendable, Hashable {
    /// Its keys so far, at most ``LineKeys/maximumKeys``.
    var keys: [KeypadKey] = []
    /// Whether the rest of the line, up to its Enter, means nothing: Escape ended the name it
    /// was typing.
    var dropsRest = false
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
    /// Press the shutter (a keyboard that is also the button, see ``ShutterKeys``), or make a
    /// picture of a mode that has a key of its own (``KeyBindings/modeKeys``).
    case shutter(PictureMode?)
    /// Print the picture just saved (``KeyBindings/printKey``).
    case print

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
        if let shutter = bindings.shutter, key == shutter.inGallery { return .shutter(nil) }
        return switch (key, bindings.layout) {
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
        if key == .character(bindings.viewKey) { return .openGallery }
        if let printKey = bindings.printKey, key == .character(printKey) { return .print }
        if case .character(let character) = key, let mode = bindings.modeKeys[character] { return .shutter(mode) }
        return key == bindings.shutter?.atRest ? .shutter(nil) : nil
    }
}

/// A phone key being tapped while a name is typed: which key, which of its letters was typed
/// last, and until when another tap of it replaces that letter.
package struct MultiTap: Sendable, Hashable {
    package let key: Character
    package let index: Int
    package let until: MonotonicInstant

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
