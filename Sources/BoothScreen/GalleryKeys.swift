import BoothCore

/// What the keys that move through the gallery are called on the keypad in use, for the hints
/// on the gallery's screens.
public struct GalleryKeys: Sendable, Hashable {
    public var up: String
    public var down: String
    public var open: String
    public var back: String

    public init(up: String, down: String, open: String, back: String) {
        self.up = up
        self.down = down
        self.open = open
        self.back = back
    }

    /// A keyboard, or a keypad with arrow keys.
    public static let keyboard = GalleryKeys(up: "\u{2191}", down: "\u{2193}", open: "Enter", back: "Esc")
    /// A 12-key phone keypad, outside name entry (``KeyBindings``).
    public static let phone = GalleryKeys(up: "2", down: "8", open: "5", back: "*")

    /// The keys of a keypad laid out as `layout`.
    public init(for layout: KeypadLayout) {
        self = layout == .phone ? .phone : .keyboard
    }
}
