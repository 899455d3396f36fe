import Foundation

/// Names as guests mean them, for comparing: "Zoë", "zoe" and " ZOE " are one name. Search,
/// the albums of names and the booth's jump to a name all compare names through this one key,
/// so that what one finds, the others group.
public enum NameKey {
    /// `text` without case, accents or width differences, its runs of white space made one
    /// space, trimmed: "  Zoë  Ünal " is "zoe unal". A key folds to itself, as an album's
    /// address needs: it holds the key, which is folded again when the address is read.
    public static func fold(_ text: String) -> String {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        // Foundation strips a letter's accents, but after other characters only some marks, one
        // a pass (the fuzz target `http` found ｽ̈, whose diaeresis went only when folded again,
        // and runs of marks that took a pass each): every nonspacing or enclosing mark left goes.
        let bare = folded.decomposedStringWithCanonicalMapping.unicodeScalars.filter {
            $0.properties.generalCategory != .nonspacingMark && $0.properties.generalCategory != .enclosingMark
        }
        return String(String.UnicodeScalarView(bare)).precomposedStringWithCanonicalMapping
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The words of `text` as search compares them: folded, split at everything that is not a
    /// letter or a digit ("anna & ben" is "anna", "ben").
    public static func words(_ text: String) -> [String] {
        fold(text).split { !($0.isLetter || $0.isNumber) }.map(String.init)
    }

    /// The key of a photo's name for albums and the jump to a name; empty for the placeholder a
    /// photo gets when nobody names it ("Photo 42"), which is nobody's name.
    package static func of(_ caption: Caption, number: Int) -> String {
        caption == .placeholder(number: number) ? "" : fold(caption.text)
    }
}
