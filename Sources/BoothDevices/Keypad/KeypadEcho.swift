import BoothCore

/// What a keypad with a character display (or a terminal on the serial line) shows: the booth's
/// prompts and the name being typed, as plain text with CR/LF line ends, or with ANSI codes
/// that redraw the line in place.
public struct KeypadEcho: Sendable {
    public let ansi: Bool
    private var lastLine = ""
    private var last: ScreenContent?

    public init(ansi: Bool) {
        self.ansi = ansi
    }

    /// The text to send when the screen changes to `content`; empty when nothing changes on the
    /// keypad's display.
    public mutating func text(for content: ScreenContent) -> String {
        defer { last = content }
        guard content != last else { return "" }
        if case .naming(let typed, let placeholder) = content {
            let line = "Name: \(typed)"
            defer { lastLine = line }
            if case .naming = last {
                // Redraw the line: ANSI erases it; plain text overwrites it with spaces.
                if ansi { return "\r\u{1B}[K\(line)" }
                let blanks = String(repeating: " ", count: max(0, lastLine.count - line.count))
                return "\r\(line)\(blanks)\r\(line)"
            }
            return "\r\nName your photo (Enter saves, Esc keeps \"\(placeholder)\")\r\n\(line)"
        }
        lastLine = ""
        let message = switch content {
        case .starting: "Starting..."
        case .ready: "Ready! Press the button for a photo."
        case .countdown(let seconds): "\(seconds)..."
        case .smile: "Smile!"
        case .naming: ""
        case .saving: "Saving..."
        case .saved(let caption, _): "Saved as \(caption)"
        case .fault(let fault): fault.message
        }
        return ansi && content == .ready ? "\u{1B}[2J\u{1B}[H\(message)\r\n" : "\r\n\(message)\r\n"
    }
}
