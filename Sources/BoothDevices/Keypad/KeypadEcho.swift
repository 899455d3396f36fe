import BoothCore

/// What a keypad with a character display (or a terminal on the serial line) shows: the booth's
/// prompts, the name being typed and the photo selected in the gallery, as plain text with
/// CR/LF line ends, or with ANSI codes that redraw the line in place.
public struct KeypadEcho: Sendable {
    public let ansi: Bool
    private var lastLine = ""
    private var lastKind: LiveLine.Kind?
    private var last: ScreenContent?

    public init(ansi: Bool) {
        self.ansi = ansi
    }

    /// The text to send when the screen changes to `content`; empty when nothing changes on the
    /// keypad's display.
    public mutating func text(for content: ScreenContent) -> String {
        defer { last = content }
        guard content != last else { return "" }
        if let live = LiveLine(content) {
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
            case .starting: "Starting..."
            case .ready: "Ready! Press the button for a photo."
            case .countdown(let seconds): "\(seconds)..."
            case .smile: "Smile!"
            case .saving: "Saving..."
            case .saved(let caption, _, _, nil): "Saved as \(caption)"
            case .saved(let caption, _, _, let pendingName?): "Saved as \(caption)\r\n\(ScreenContent.pendingNameNote(pendingName))"
            case .fault(let fault): fault.sentence
            case .naming, .gallery, .photo: ""
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

    init?(_ content: ScreenContent) {
        switch content {
        case .naming(let typed, let placeholder):
            kind = .naming
            heading = "Name your photo (Enter saves, Esc keeps \"\(placeholder)\")"
            line = "Name: \(typed)"
        case .gallery(let list):
            kind = .gallery
            heading = nil
            let position = list.position
            line =
                position.count == 0
                ? "No photos yet"
                : "\(position.index + 1)/\(position.count) \(list.selectedRow?.entry.caption.text ?? "")"
        case .photo(let photo):
            kind = .gallery
            heading = nil
            line = "View \(photo.position.index + 1)/\(photo.position.count) \(photo.entry?.caption.text ?? "")"
        default:
            return nil
        }
    }
}
