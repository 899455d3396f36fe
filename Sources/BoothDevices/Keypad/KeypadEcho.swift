import BoothCore
import BoothScreen
import Foundation

/// What a keypad with a character display (or a terminal on the serial line) shows: the booth's
/// prompts, the name being typed and the photo selected in the gallery, as plain text with
/// CR/LF line ends, or with ANSI codes that redraw the line in place.
public struct KeypadEcho: Sendable {
    public let ansi: Bool
    /// What the keypad's keys are called, for the prompts.
    public let keys: KeyLabels
    /// Whether the booth's screen shows the photo just taken, which the naming prompt then says.
    public let photoOnScreen: Bool
    private let texts: BoothTexts
    private var lastLine = ""
    private var lastKind: LiveLine.Kind?
    private var last: ScreenContent?

    /// - Parameters:
    ///   - ansi: whether the other end is a terminal; otherwise it is a character display, and
    ///     the booth's own words are sent in ASCII ("..." for "…", "e" for "é"), which such
    ///     displays show where they would show garbage for other characters.
    ///   - photoOnScreen: whether the booth's screen shows the photo just taken (it has one).
    public init(ansi: Bool, keys: KeyLabels = .keyboard, photoOnScreen: Bool = false, texts: BoothTexts = .english) {
        self.ansi = ansi
        self.keys = keys
        self.photoOnScreen = photoOnScreen
        self.texts = ansi ? texts : texts.mapping(Self.ascii)
    }

    /// `text` spelled in ASCII: typographic punctuation as its plain form, a letter with an
    /// accent as the letter without it, the ligatures and German's ß as two letters. A
    /// character with no such spelling becomes `?`.
    static func ascii(_ text: String) -> String {
        let spellings: [Character: String] = [
            "\u{2026}": "...", "\u{00B7}": "-", "\u{201C}": "\"", "\u{201D}": "\"", "\u{201E}": "\"", "\u{2018}": "'",
            "\u{2019}": "'", "\u{2013}": "-", "\u{2014}": "-", "\u{2190}": "<-", "\u{2192}": "->", "\u{00A0}": " ",
            "\u{202F}": " ", "\u{00AB}": "\"", "\u{00BB}": "\"", "\u{00DF}": "ss", "\u{0152}": "OE", "\u{0153}": "oe",
            "\u{00C6}": "AE", "\u{00E6}": "ae",
        ]
        // A guillemet's inner space goes with it: « Anna » reads "Anna".
        let text = text.replacing("\u{00AB}\u{00A0}", with: "\u{00AB}").replacing("\u{00A0}\u{00BB}", with: "\u{00BB}")
        return text.reduce(into: "") { result, character in
            if character.isASCII {
                result.append(character)
            } else if let spelling = spellings[character] {
                result += spelling
            } else {
                // "é" is "e" and a combining accent: keep the letter.
                let letters = String(character).decomposedStringWithCanonicalMapping.unicodeScalars.filter(\.isASCII)
                result += letters.isEmpty ? "?" : String(String.UnicodeScalarView(letters))
            }
        }
    }

    /// The text to send when the screen changes to `content`; empty when nothing changes on the
    /// keypad's display.
    public mutating func text(for content: ScreenContent) -> String {
        defer { last = content }
        guard content != last else { return "" }
        // The slideshow follows the main screen, whose invitation stays on the display.
        if case .attract = content { return "" }
        if let live = LiveLine(content, keys: keys, photoOnScreen: photoOnScreen, texts: texts) {
            defer {
                lastLine = live.line
                lastKind = live.kind
            }
            if live.kind == lastKind {
                // Redraw the line: ANSI erases it; plain text overwrites it with spaces.
                if ansi { return "\r\u{1B}[K\(live.line)" }
                let blanks = String(repeating: " ", count: max(0, lastLine.count - live.line.count))
                return "\r\(live.line)\(blanks)\r\(live.line)"
            }
            return "\r\n" + (live.heading.map { "\($0)\r\n" } ?? "") + live.line
        }
        lastLine = ""
        lastKind = nil
        let message =
            switch content {
            case .starting: texts(.starting)
            case .ready: texts(.readyToShoot, ["button": texts(.theButton)]) + "\r\n" + texts(.readyToBrowse, ["key": keys.view])
            case .countdown(let seconds): "\(seconds)"
            case .smile: texts(.smile)
            case .saving: texts(.saving)
            case .saved(let caption, _, _, nil): texts(.savedAs, ["name": caption.text])
            case .saved(let caption, _, _, let pendingName?):
                texts(.savedAs, ["name": caption.text]) + "\r\n" + texts(.savedPendingName, ["name": pendingName.text])
            case .fault(let fault): fault.sentence(in: texts)
            case .naming, .gallery, .photo, .attract: ""
            }
        return ansi && content == .ready ? "\u{1B}[2J\u{1B}[H\(message)\r\n" : "\r\n\(message)\r\n"
    }
}

/// A screen that a small display shows as one line, redrawn in place while the screen stays of
/// the same kind: the name being typed, the photo selected in the gallery ("3/120 Anna").
private struct LiveLine {
    enum Kind {
        case naming, gallery
    }

    let kind: Kind
    /// Printed once above the line, when the screen starts.
    let heading: String?
    let line: String

    init?(_ content: ScreenContent, keys: KeyLabels, photoOnScreen: Bool, texts: BoothTexts) {
        switch content {
        case .naming(let typed, let placeholder, _):
            kind = .naming
            heading =
                (photoOnScreen ? texts(.photoOnScreen) + "\r\n" : "") + texts(.namingPrompt) + "\r\n"
                + keys.namingHint(keeping: placeholder.text, in: texts)
            line = texts(.namingField, ["name": typed])
        case .gallery(let list):
            kind = .gallery
            heading = nil
            let position = list.position
            let selected = ["index": "\(position.index + 1)", "count": "\(position.count)", "name": list.selectedRow?.entry.caption.text ?? ""]
            line =
                switch (position.count, list.search) {
                case (0, _): texts(.galleryEmpty)
                case (_, nil): texts(.galleryLine, selected)
                // The name being found, and the photo it led to ("Find an: 3/120 Anna").
                case (_, let search?) where search.matches && !search.prefix.isEmpty:
                    texts(.galleryLineFinding, selected.merging(["prefix": search.prefix]) { own, _ in own })
                case (_, let search?): keys.findingLine(search, in: texts).map(\.text).joined()
                }
        case .photo(let photo):
            kind = .gallery
            heading = nil
            line = texts(
                .photoLine,
                [
                    "index": "\(photo.position.index + 1)", "count": "\(photo.position.count)",
                    "name": photo.entry?.caption.text ?? "",
                ])
        default:
            return nil
        }
    }
}
