import Foundation

/// A photo's name as people see it: on the booth's screen, in lists and in exported file names.
///
/// Whatever the source (keypad, terminal, a pipe, a command line, another booth's record), a
/// caption is trimmed, has its control characters removed and holds at most ``maximumLength``
/// characters (grapheme clusters, so an emoji or an accented letter counts once), each of at most
/// ``maximumScalarsPerCharacter`` scalars, and at most ``maximumBytes`` bytes in all. Everything
/// else is kept exactly as typed.
public struct Caption: Sendable, Hashable, CustomStringConvertible {
    /// The longest caption, in characters as people count them.
    package static let maximumLength = 64
    /// The longest caption in UTF-8 bytes. A key of a keypad or keyboard types a character of at
    /// most 4 bytes (the letters of every script, CJK, a single emoji), so 64 typed characters
    /// take at most 256 bytes; twice that leaves room for letters typed as a letter and its
    /// marks and for a few emoji sequences. Without it, 64 "characters" each carrying thousands
    /// of combining marks made a 5 MB caption that every page repeated.
    package static let maximumBytes = 512
    /// The most scalars one character keeps. The longest emoji sequences have 10 (a kiss with
    /// two skin tones) and a script's syllable fewer; marks stacked beyond that on one letter
    /// only draw over the lines around it.
    package static let maximumScalarsPerCharacter = 16

    /// The cleaned text, never empty.
    public let text: String

    /// Cleans `raw`; `nil` when nothing printable is left, so the caller falls back to a default.
    public init?(sanitizing raw: String) {
        let cleaned = String(String.UnicodeScalarView(raw.unicodeScalars.compactMap(Caption.clean)))
        let trimmed = cleaned.trimmingCharacters(in: .whitespacesAndNewlines)
        var cut = ""
        var count = 0
        for character in trimmed {
            let bounded = Caption.bounded(character)
            guard count < Caption.maximumLength, cut.utf8.count + bounded.utf8.count <= Caption.maximumBytes else { break }
            cut += bounded
            count += 1
        }
        cut = cut.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !cut.isEmpty else { return nil }
        text = cut
    }

    /// `character` with at most ``maximumScalarsPerCharacter`` scalars: the first ones, which
    /// are the letter and its first marks.
    static func bounded(_ character: Character) -> String {
        let scalars = character.unicodeScalars
        guard scalars.count > maximumScalarsPerCharacter else { return String(character) }
        return String(String.UnicodeScalarView(scalars.prefix(maximumScalarsPerCharacter)))
    }

    /// Decodes bytes as UTF-8, dropping what is not valid UTF-8, then cleans the text.
    public init?(sanitizing bytes: some Sequence<UInt8>) {
        self.init(sanitizing: String(droppingInvalidUTF8: bytes))
    }

    /// The caption a photo gets when nobody names it: readable, and unique because the photo
    /// number is.
    public static func placeholder(number: Int) -> Caption {
        Caption(trusted: "Photo \(number)")
    }

    private init(trusted text: String) {
        self.text = text
    }

    public var description: String { text }

    /// The caption in double quotes, with `\` and `"` escaped by a backslash: how log lines
    /// write it, so that a program (or an operator's grep) reads back the very name a guest typed,
    /// even one holding quotes. A caption has no control characters, so nothing else needs escaping.
    package var quoted: String {
        var result = "\""
        for scalar in text.unicodeScalars {
            if scalar == "\\" || scalar == "\"" { result.unicodeScalars.append("\\") }
            result.unicodeScalars.append(scalar)
        }
        return result + "\""
    }

    /// What one typed scalar becomes in a caption: itself, a space (for tabs and line breaks),
    /// or nothing (other control characters, the bidirectional overrides that would let a name
    /// display in a different order than it was typed, and the noncharacters such as U+FFFE, which
    /// no text means and XML, the sidecar's format, forbids).
    static func clean(_ scalar: Unicode.Scalar) -> Unicode.Scalar? {
        if scalar.properties.isNoncharacterCodePoint { return nil }
        switch scalar.properties.generalCategory {
        case .control:
            return scalar.properties.isWhitespace ? " " : nil
        case .lineSeparator, .paragraphSeparator:
            return " "
        case .format where (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value):
            return nil
        default:
            return scalar
        }
    }
}

extension String {
    /// Decodes UTF-8, leaving out every byte that is not part of a valid sequence (instead of
    /// replacing it with U+FFFD), so that garbage from a keypad line does not end up in a name.
    public init(droppingInvalidUTF8 bytes: some Sequence<UInt8>) {
        var scalars = String.UnicodeScalarView()
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        decoding: while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded): scalars.append(Unicode.UTF8.decode(encoded))
            case .error: continue
            case .emptyInput: break decoding
            }
        }
        self.init(scalars)
    }
}
