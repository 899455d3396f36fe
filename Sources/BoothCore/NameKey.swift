import Foundation

/// Names as guests mean them, for comparing: "Zoë", "zoe" and " ZOE " are one name. Search,
/// the albums of names and the booth's jump to a name all compare names through this one key,
/// so that what one finds, the others group.
public enum NameKey {
    /// `text` without case, accents or width differences, its runs of white space made one
    /// space, trimmed: "  Zoë  Ünal " is "zoe unal". A key folds to itself, as an album's
    /// address needs: it holds the key, which is folded again when the address is read.
    public static func fold(_ text: String) -> String {
        // One pass of Foundation's folding can leave what the next removes: a half-width katakana
        // with a diaeresis becomes a full-width one, whose diaeresis goes only then (the fuzz
        // target `http` found it). Folding until nothing changes makes the key stable.
        var folded = text
        for _ in 0..<8 {
            let next = folded.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            if next == folded { break }
            folded = next
        }
        return folded.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The words of `text` as search compares them: folded, split at everything that is not a
    /// letter or a digit ("anna & ben" is "anna", "ben").
    public static func words(_ text: String) -> [String] {
        fold(text).split { !($0.isLetter || $0.isNumber) }.map(String.init)
    }

    /// The key of a photo's name for albums and the jump to a name; empty for the placeholder a
    /// photo gets when nobody names it ("Photo 42"), which is nobody's name.
    public static func of(_ caption: Caption, number: Int) -> String {
        caption == .placeholder(number: number) ? "" : fold(caption.text)
    }
}
