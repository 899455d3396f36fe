import BoothCore

/// What the keys are called on the keypad in use, for the hints on the booth's screens.
public struct KeyLabels: Sendable, Hashable {
    /// The key that opens the gallery from the main screen.
    package var view: String
    /// The key that prints the picture on its saved screen; `nil` when none does.
    package var print: String?
    package var up: String
    package var down: String
    package var open: String
    package var back: String
    /// The key that saves a name.
    package var confirm: String
    /// The key that keeps the placeholder instead of a name; `nil` on a keypad without one
    /// (a phone keypad keeps it when nothing is typed).
    package var cancel: String?
    /// The key that erases the last letter of a name.
    package var erase: String
    /// The key that starts finding a photo by its name in the gallery; `nil` on a keyboard,
    /// whose letters find a name as they are typed.
    package var find: String?
    /// The key that ends finding a name, leaving the selection where it led.
    package var endFind: String
    /// The key that takes a photo on the main screen, where a key does (the terminal of a
    /// simulated booth, see ``KeyBindings/shutter``); `nil` when the button does. The booth's
    /// painted screens say "the button" all the same: they speak to the guest at the booth.
    package var shutter: String?
    /// The key that takes a photo in the gallery, where a key does.
    package var galleryShutter: String?
    /// What the button (and ``shutter``) makes: the booth's standard mode.
    package var standardMode: PictureMode = .single
    /// The keys that make a picture of another mode on the main screen, by label.
    package var modeKeys: [ModeKey] = []

    /// A key that makes a picture of `mode`, as it is called.
    package struct ModeKey: Sendable, Hashable {
        package var label: String
        package var mode: PictureMode

        package init(label: String, mode: PictureMode) {
            self.label = label
            self.mode = mode
        }
    }

    /// Labels for these keys; a keyboard's named keys are called as in English by default.
    public init(
        view: String = "v", up: String = "\u{2191}", down: String = "\u{2193}", open: String = BoothTexts.english(.keyEnter),
        back: String = BoothTexts.english(.keyEscape), confirm: String = BoothTexts.english(.keyEnter),
        cancel: String? = BoothTexts.english(.keyEscape), erase: String = BoothTexts.english(.keyBackspace), find: String? = nil,
        endFind: String = BoothTexts.english(.keyEscape), shutter: String? = nil, galleryShutter: String? = nil
    ) {
        self.view = view
        self.up = up
        self.down = down
        self.open = open
        self.back = back
        self.confirm = confirm
        self.cancel = cancel
        self.erase = erase
        self.find = find
        self.endFind = endFind
        self.shutter = shutter
        self.galleryShutter = galleryShutter
    }

    /// A keyboard, or a keypad with arrow keys, its keys called as in English.
    public static let keyboard = KeyLabels()

    /// A keyboard whose named keys (Enter, Escape, Backspace) are called as `texts` calls them,
    /// and whose view key is `view`.
    public static func keyboard(view: String = "v", in texts: BoothTexts) -> KeyLabels {
        KeyLabels(
            view: view, open: texts(.keyEnter), back: texts(.keyEscape), confirm: texts(.keyEnter), cancel: texts(.keyEscape),
            erase: texts(.keyBackspace), endFind: texts(.keyEscape))
    }

    /// The keys of a keypad bound as `bindings` (see ``KeyBindings``), a keyboard's named keys
    /// called as `texts` calls them: a 12-key phone keypad moves with 2 and 8, opens with 5,
    /// goes back with `*`, and saves a name with `#`; in the gallery its view key starts
    /// finding a name, and `#` ends it. A keyboard whose keys come a line at a time (a
    /// terminal) moves and goes back with its letters and finds a name with its find key
    /// (``LineKeys``); the keys that press the shutter are named when a key does.
    public init(for bindings: KeyBindings, in texts: BoothTexts = .english) {
        switch (bindings.layout, bindings.lines) {
        case (.keyboard, let lines?):
            self.init(
                view: String(bindings.viewKey), up: String(lines.up), down: String(lines.down), open: texts(.keyEnter),
                back: String(lines.back), confirm: texts(.keyEnter), cancel: texts(.keyEscape), erase: texts(.keyBackspace),
                find: String(lines.find), endFind: String(lines.back))
        case (.keyboard, nil):
            self = .keyboard(view: String(bindings.viewKey), in: texts)
        case (.phone, _):
            self.init(
                view: String(bindings.viewKey), up: "2", down: "8", open: "5", back: "*", confirm: "#", cancel: nil, erase: "*",
                find: String(bindings.viewKey), endFind: "#")
        }
        shutter = bindings.shutter.map { Self.name(of: $0.atRest, in: texts) }
        print = bindings.printKey.map { String($0) }
        galleryShutter = bindings.shutter.map { Self.name(of: $0.inGallery, in: texts) }
        modeKeys = bindings.modeKeys.sorted { ($0.value.sortOrder, $0.key) < ($1.value.sortOrder, $1.key) }.map {
            ModeKey(label: String($0.key), mode: $0.value)
        }
    }

    /// The main screen's invitations, in `texts`: what `button` makes, then what each mode's
    /// key makes.
    package func invitations(button: String, in texts: BoothTexts) -> [[BoothTexts.Run]] {
        [texts.runs(Self.invitation(to: standardMode), ["button": button])]
            + modeKeys.map { texts.runs(Self.invitation(to: $0.mode), ["button": $0.label]) }
    }

    private static func invitation(to mode: PictureMode) -> BoothText {
        switch mode {
        case .single: .readyToShoot
        case .collage: .readyForCollage
        case .animation: .readyForAnimation
        case .boomerang: .readyForBoomerang
        }
    }

    /// What `key` is called in `texts`: a character is itself, the named keys are named.
    package static func name(of key: KeypadKey, in texts: BoothTexts = .english) -> String {
        switch key {
        case .character(let character): String(character)
        case .enter: texts(.keyEnter)
        case .escape: texts(.keyEscape)
        case .backspace: texts(.keyBackspace)
        case .up: "\u{2191}"
        case .down: "\u{2193}"
        }
    }

    /// The gallery's keys, in `texts`: with the key that starts finding a name, or saying that
    /// typing finds one.
    package func galleryHint(in texts: BoothTexts) -> String {
        let keys = ["up": up, "down": down, "open": open, "back": back]
        guard let find else { return texts(.galleryHint, keys) }
        return texts(.galleryHintFindKey, keys.merging(["find": find]) { own, _ in own })
    }

    /// The name being found, whether a photo has it, and how to erase and end, in `texts`; a
    /// search before its first letter says to type one.
    package func findingLine(_ search: NameSearch, in texts: BoothTexts) -> [BoothTexts.Run] {
        let key: BoothText = search.prefix.isEmpty ? .galleryFindingStart : search.matches ? .galleryFinding : .galleryFindingNone
        return texts.runs(key, ["prefix": search.prefix, "erase": erase, "done": endFind])
    }

    /// How to finish a name with these keys, keeping `placeholder` without one, in `texts`.
    package func namingHint(keeping placeholder: String, in texts: BoothTexts) -> String {
        guard let cancel else {
            return texts(.namingHintNoCancel, ["confirm": confirm, "erase": erase, "placeholder": placeholder])
        }
        return texts(.namingHint, ["confirm": confirm, "cancel": cancel, "placeholder": placeholder])
    }
}
