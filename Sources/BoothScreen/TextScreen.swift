import BoothCore
import BoothImaging
import Foundation

/// The booth's screens as text, for the devices that show text: the terminal of a simulated
/// booth (or the file its lines go to), and a keypad's character display (or a terminal on the
/// keypad's serial line). The words are the same for both; the ``Form`` says how they are laid
/// out and spelled.
///
/// It remembers what it sent, so that ``text(for:)`` returns only what changes: the device it
/// feeds only carries the bytes.
public struct TextScreen: Sendable {
    /// How the text reaches its reader.
    public enum Form: Sendable, Hashable {
        /// Lines printed one after the other, as a terminal (or a file) keeps them: a screen that
        /// changes is printed whole, every line ended by a line feed. The gallery is a numbered
        /// page with the selected photo marked, a full-screen photo its name, time and file, and
        /// a photo page's link is drawn as a QR code in half blocks too when `drawsQRCodes` (a
        /// terminal, where a file would get the blocks as text).
        case lines(drawsQRCodes: Bool)
        /// A small display (a keypad's): prompts between CR/LF, and the line that changes as the
        /// guest types or moves (the name, the photo selected in the gallery) redrawn in place,
        /// with ANSI codes when `ansi` (a terminal on the serial line), else by overwriting it.
        /// Without ANSI the booth's own words are spelled in ASCII ("..." for "…", "e" for "é"),
        /// which character displays show where they would show garbage for other characters.
        case display(ansi: Bool)
    }

    package let form: Form
    /// What the keys are called, for the hints; ``KeyLabels/shutter`` names what takes a photo.
    public let keys: KeyLabels
    /// Whether a screen of the booth (the framebuffer, the web's mirror) shows the photo just
    /// taken, which the naming prompt then says.
    package let photoOnScreen: Bool
    /// Who reads the text: a photo page's link carries the guest's deletion key only for them.
    package let audience: ScreenAudience
    /// The words, in the booth's language (in ASCII on a character display).
    private let texts: BoothTexts
    /// What was sent last.
    private var sent = Sent()

    private struct Sent: Sendable {
        /// The lines printed last (``Form/lines(drawsQRCodes:)``), so that only changes are printed.
        var lines: String?
        /// The screen shown last on a display, and its live line.
        var content: ScreenContent?
        var liveLine = ""
        var liveKind: LiveLine.Kind?
    }

    /// - Parameters:
    ///   - keys: what the keys of the reader's keypad (or terminal) are called.
    ///   - texts: the words, in the booth's language.
    ///   - photoOnScreen: whether a screen of the booth shows the photo just taken.
    ///   - audience: who reads the text, which decides whether the saved screen's link carries
    ///     the guest's deletion key.
    public init(
        form: Form, keys: KeyLabels = .keyboard, texts: BoothTexts = .english, photoOnScreen: Bool = false,
        audience: ScreenAudience = .anyone
    ) {
        self.form = form
        self.keys = keys
        self.photoOnScreen = photoOnScreen
        self.audience = audience
        self.texts = form == .display(ansi: false) ? texts.mapping(Self.ascii) : texts
    }

    /// The text to send when the booth shows `content`; empty when nothing changes for the reader.
    public mutating func text(for content: ScreenContent) -> String {
        switch form {
        case .lines(let drawsQRCodes): printed(content, drawsQRCodes: drawsQRCodes)
        case .display(let ansi): displayed(content, ansi: ansi)
        }
    }

    /// The text to send when the printer starts or stops holding prints (`fault`, or `nil`):
    /// the notice on a line of its own; the next screen is then sent whole again.
    public mutating func text(forNotice fault: PrinterFault?) -> String {
        let line = fault.map { $0.notice(in: texts) } ?? texts(.printerPrintsAgain)
        sent = Sent()
        switch form {
        case .lines: return line + "\n"
        case .display: return "\r\n" + line + "\r\n"
        }
    }

    /// What the terminal of a simulated booth says first to the person at it: how to use it as
    /// the shutter button (`shoots`), the keypad (`types`) or both; `nil` when it is neither.
    package static func terminalHelp(shoots: Bool, types: Bool, in texts: BoothTexts = .english) -> String? {
        switch (shoots, types) {
        case (true, true): texts(.consoleHelp) + "\n"
        case (true, false): texts(.consoleHelpButton) + "\n"
        case (false, true): texts(.consoleHelpKeypad) + "\n"
        case (false, false): nil
        }
    }

    // MARK: What both forms say

    /// The lines both forms say alike; `nil` for the screens each form lays out its own way.
    private func commonLines(for content: ScreenContent) -> [String]? {
        switch content {
        case .starting: [texts(.starting)]
        case .ready: readyLines
        case .countdown(let secondsLeft, _): ["\(secondsLeft)"]
        case .smile: [texts(.smile)]
        case .review(_, let number, let count): [texts(.shotOfCount, ["number": "\(number)", "count": "\(count)"])]
        case .saving: [texts(.saving)]
        case .saved(let caption, _, _, let pendingName, let printing):
            [texts(.savedAs, ["name": caption.text])] + (pendingName.map { [texts(.savedPendingName, ["name": $0.text])] } ?? [])
                + (printing ? [texts(.printQueued)] : keys.print.map { [texts(.printInvitation, ["key": $0])] } ?? [])
        case .fault(let fault): [fault.sentence(in: texts)]
        case .naming, .gallery, .photo, .attract: nil
        }
    }

    /// The main screen's invitation: what takes a photo, and the key that shows the photos.
    private var readyLines: [String] {
        keys.invitations(button: keys.shutter ?? texts(.theButton), in: texts).map { $0.map(\.text).joined() }
            + [texts(.readyToBrowse, ["key": keys.view])]
    }

    // MARK: Lines

    private mutating func printed(_ content: ScreenContent, drawsQRCodes: Bool) -> String {
        let text = lines(for: content, drawsQRCodes: drawsQRCodes).joined(separator: "\n")
        // A fault shown again answers a press: it is printed again, or the press would seem lost.
        guard text != sent.lines || content.isFault else { return "" }
        sent.lines = text
        return text + "\n"
    }

    private func lines(for content: ScreenContent, drawsQRCodes: Bool) -> [String] {
        switch content {
        case .saved(_, _, let link, _, _):
            var lines = commonLines(for: content) ?? []
            if let join = link?.join {
                lines.append(texts(.joinWiFiNamed, ["name": join.name]))
                if drawsQRCodes, let code = try? QRCode(encoding: join.code) { lines += Self.halfBlocks(code) }
            }
            if let link = link?.address(for: audience) {
                lines.append(texts(.scanLink, ["link": link]))
                if drawsQRCodes, let code = try? QRCode(encoding: link) { lines += Self.halfBlocks(code) }
            }
            return lines
        // The slideshow is the main screen to a terminal: its lines, printed once.
        case .attract: return readyLines
        // A prompt: what the next line is.
        case .naming: return (photoOnScreen ? [texts(.photoOnScreen)] : []) + [texts(.consoleNamingPrompt)]
        case .gallery(let list): return galleryLines(list)
        case .photo(let photo): return photoLines(photo)
        case .starting, .ready, .countdown, .smile, .review, .saving, .fault: return commonLines(for: content) ?? []
        }
    }

    /// The page of the list, numbered from the newest photo, the selected one marked with `>`,
    /// and the keys under it.
    private func galleryLines(_ list: GalleryList) -> [String] {
        let position = list.position
        guard position.count > 0 else {
            return [
                texts(.galleryEmpty), texts(.galleryEmptyHint, ["button": keys.galleryShutter ?? texts(.theButton)]),
                texts(.galleryEmptyBack, ["back": keys.back]),
            ]
        }
        var lines = [texts(.galleryHeading, ["index": "\(position.index + 1)", "count": "\(position.count)"])]
        if list.rows.isEmpty { lines.append("  \(texts(.galleryUnreadable))") }
        for (offset, row) in list.rows.enumerated() {
            let index = list.page.lowerBound + offset
            let marker = index == position.index ? ">" : " "
            let text = texts(.galleryRow, ["number": "\(index + 1)", "name": row.entry.caption.text, "time": row.entry.takenOn])
            lines.append("\(marker) \(text)")
        }
        lines.append(list.search.map { keys.findingLine($0, in: texts).map(\.text).joined() } ?? keys.galleryHint(in: texts))
        if let shutter = keys.galleryShutter { lines.append(texts(.readyToShoot, ["button": shutter])) }
        return lines
    }

    /// A full-screen photo: its position, name and time, where its original is, and the keys.
    private func photoLines(_ photo: GalleryPhoto) -> [String] {
        let index = "\(photo.position.index + 1)"
        let count = "\(photo.position.count)"
        guard let entry = photo.entry, let originals = photo.originals else {
            return [texts(.photoUnreadableAt, ["index": index, "count": count])]
        }
        return [
            texts(.photoHeading, ["index": index, "count": count, "name": entry.caption.text, "time": entry.takenOn]),
            "  \(originals.location(of: entry.id))",
            texts(.photoHint, ["up": keys.up, "down": keys.down, "back": keys.back]),
        ]
    }

    /// `code` in Unicode half blocks, two modules per character cell, quiet zone included. A
    /// terminal draws text light on dark, so the light modules are the blocks and the dark ones
    /// the terminal's own background.
    static func halfBlocks(_ code: QRCode) -> [String] {
        let span = -QRCode.quietZone..<(code.size + QRCode.quietZone)
        let light = { (x: Int, y: Int) in span.contains(y) && !code[x, y] }
        return stride(from: span.lowerBound, to: span.upperBound, by: 2).map { y in
            String(
                span.map { x -> Character in
                    switch (light(x, y), light(x, y + 1)) {
                    case (true, true): "\u{2588}"
                    case (true, false): "\u{2580}"
                    case (false, true): "\u{2584}"
                    case (false, false): " "
                    }
                })
        }
    }

    // MARK: Display

    private mutating func displayed(_ content: ScreenContent, ansi: Bool) -> String {
        defer { sent.content = content }
        guard content != sent.content else { return "" }
        // The slideshow follows the main screen, whose invitation stays on the display.
        if case .attract = content { return "" }
        if let live = LiveLine(content, keys: keys, photoOnScreen: photoOnScreen, texts: texts) {
            defer {
                sent.liveLine = live.line
                sent.liveKind = live.kind
            }
            if live.kind == sent.liveKind {
                // Redraw the line: ANSI erases it; plain text overwrites it with spaces.
                if ansi { return "\r\u{1B}[K\(live.line)" }
                let blanks = String(repeating: " ", count: max(0, sent.liveLine.count - live.line.count))
                return "\r\(live.line)\(blanks)\r\(live.line)"
            }
            return "\r\n" + (live.heading.map { "\($0)\r\n" } ?? "") + live.line
        }
        sent.liveLine = ""
        sent.liveKind = nil
        let message = (commonLines(for: content) ?? []).joined(separator: "\r\n")
        return ansi && content == .ready ? "\u{1B}[2J\u{1B}[H\(message)\r\n" : "\r\n\(message)\r\n"
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
        case .starting, .ready, .countdown, .smile, .review, .saving, .saved, .fault, .attract:
            return nil
        }
    }
}

extension ScreenContent {
    fileprivate var isFault: Bool {
        if case .fault = self { true } else { false }
    }
}
