/// The name a guest is typing, key by key.
///
/// It applies the same rules as ``Caption`` while typing, so the screen never shows a character
/// that would not be saved, and it stops accepting characters at ``Caption/maximumLength`` (or
/// ``Caption/maximumBytes``).
public struct CaptionDraft: Sendable, Hashable {
    /// What has been typed so far.
    public private(set) var text: String
    /// Whether the last key was a character that was kept, which ``retype(_:)`` may replace.
    private var lastTypeKept = false

    /// Creates a draft, empty unless some text is given.
    package init(_ text: String = "") {
        self.text = ""
        for character in text { type(character) }
    }

    /// Appends a character; returns `false` when it was ignored (a control character, a space
    /// before anything else, which the caption would trim, or the draft is full). A character
    /// of more than ``Caption/maximumScalarsPerCharacter`` scalars keeps the first ones.
    @discardableResult
    package mutating func type(_ character: Character) -> Bool {
        let scalars = character.unicodeScalars.compactMap(Caption.clean)
        guard !scalars.isEmpty else { return false }
        let typed = String(String.UnicodeScalarView(scalars)).map(Caption.bounded).joined()
        guard !(text.isEmpty && typed.allSatisfy(\.isWhitespace)) else { return false }
        let longer = text + typed
        lastTypeKept = longer.count <= Caption.maximumLength && longer.utf8.count <= Caption.maximumBytes
        guard lastTypeKept else { return false }
        text = longer
        return true
    }

    /// Replaces the character the last key typed by `character` (multi-tap on a phone keypad).
    /// When the last key typed nothing (the draft was full, or a leading space), nothing is
    /// replaced: `character` is typed like any other.
    @discardableResult
    package mutating func retype(_ character: Character) -> Bool {
        guard lastTypeKept else { return type(character) }
        let before = self
        text.removeLast()
        if type(character) { return true }
        // The new letter is not allowed where the old one was: the old one stays.
        self = before
        return false
    }

    /// Removes the last character; returns `false` when the draft was already empty.
    @discardableResult
    package mutating func erase() -> Bool {
        lastTypeKept = false
        return text.popLast() != nil
    }

    // Two drafts are the same when they hold the same text.
    public static func == (lhs: CaptionDraft, rhs: CaptionDraft) -> Bool { lhs.text == rhs.text }
    public func hash(into hasher: inout Hasher) { hasher.combine(text) }

    /// The caption the draft would be saved as, or `nil` when it holds nothing printable.
    public var caption: Caption? {
        Caption(sanitizing: text)
    }
}
