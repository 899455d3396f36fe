/// The name a guest is typing, key by key.
///
/// It applies the same rules as ``Caption`` while typing, so the screen never shows a character
/// that would not be saved, and it stops accepting characters at ``Caption/maximumLength``.
public struct CaptionDraft: Sendable, Hashable {
    /// What has been typed so far.
    public private(set) var text: String

    /// Creates a draft, empty unless some text is given.
    public init(_ text: String = "") {
        self.text = ""
        for character in text { type(character) }
    }

    /// Appends a character; returns `false` when it was ignored (a control character, a space
    /// before anything else, which the caption would trim, or the draft is full).
    @discardableResult
    public mutating func type(_ character: Character) -> Bool {
        let scalars = character.unicodeScalars.compactMap(Caption.clean)
        guard !scalars.isEmpty else { return false }
        let typed = String(String.UnicodeScalarView(scalars))
        guard !(text.isEmpty && typed.allSatisfy(\.isWhitespace)) else { return false }
        let longer = text + typed
        guard longer.count <= Caption.maximumLength else { return false }
        text = longer
        return true
    }

    /// Removes the last character; returns `false` when the draft was already empty.
    @discardableResult
    public mutating func erase() -> Bool {
        text.popLast() != nil
    }

    /// The caption the draft would be saved as, or `nil` when it holds nothing printable.
    public var caption: Caption? {
        Caption(sanitizing: text)
    }
}
