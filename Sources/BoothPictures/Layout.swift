import BoothScreen

/// How a composed picture is laid out: a canvas, a background, the places the shots go, the
/// words printed on it and a transparent picture drawn over everything (the event's frame, a
/// logo).
///
/// A layout is a value read from a small YAML file (``LayoutFile``) or one of the built-in
/// ones (``builtIn(named:)``); the images and fonts it names are loaded once, when the booth
/// starts or reloads (``LoadedLayout``), never per picture.
package struct Layout: Sendable, Hashable {
    /// The layout's name, as `booth.layout` and the library's records give it: a built-in
    /// layout's name, or a file's name without its `.yaml`.
    package var name: String
    /// The composed picture's size in pixels: 1800x1200 is a 6x4 in print at 300 dpi, 600x1800
    /// a 2x6 in strip.
    package var width: Int
    package var height: Int
    /// What is under the shots.
    package var background: Background
    /// Where the shots go, in the order they are taken; at least one.
    package var slots: [PhotoSlot]
    /// Words printed on the picture, drawn after the shots and before the overlay.
    package var texts: [TextItem]
    /// A PNG with transparency drawn over everything, stretched to the canvas.
    package var overlay: String?

    package init(
        name: String, width: Int, height: Int, background: Background = .color(.white), slots: [PhotoSlot], texts: [TextItem] = [],
        overlay: String? = nil
    ) {
        self.name = name
        self.width = width
        self.height = height
        self.background = background
        self.slots = slots
        self.texts = texts
        self.overlay = overlay
    }

    /// What is under the shots: a colour, or a picture (JPEG or PNG) stretched to the canvas.
    package enum Background: Sendable, Hashable {
        case color(PixelColor)
        case image(path: String)
    }
}

/// The place of one shot on the canvas.
package struct PhotoSlot: Sendable, Hashable {
    /// The slot's top left corner and size, in the canvas's pixels, before rotation.
    package var x: Int
    package var y: Int
    package var width: Int
    package var height: Int
    /// Degrees clockwise about the slot's centre; a tilted print on a scrapbook page.
    package var rotation: Double
    /// How the shot fills the slot.
    package var fit: Fit

    package init(x: Int, y: Int, width: Int, height: Int, rotation: Double = 0, fit: Fit = .cover) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.rotation = rotation
        self.fit = fit
    }

    /// How a shot whose shape is not the slot's fills it.
    package enum Fit: String, Sendable, Hashable, CaseIterable {
        /// The whole slot, the shot's edges cut off evenly: no bands, what a print looks like.
        case cover
        /// The whole shot, with bands of the background beside or above it.
        case contain
    }
}

/// Words printed on the picture, in a box of the canvas.
package struct TextItem: Sendable, Hashable {
    /// What is printed, with blanks filled when the picture is composed: `{event}`,
    /// `{date}`, `{time}`, `{caption}`, `{booth}` (``TextBlank``).
    package var text: String
    /// The box: its left edge, its top (where the letters' tops are) and its width. A line too
    /// long for the box is set smaller until it fits.
    package var x: Int
    package var y: Int
    package var width: Int
    /// The letters' size in pixels per em.
    package var size: Int
    package var color: PixelColor
    package var alignment: Alignment
    /// A TrueType font file; the booth's bold font when none is named.
    package var font: String?

    package init(
        text: String, x: Int, y: Int, width: Int, size: Int, color: PixelColor = .black, alignment: Alignment = .center,
        font: String? = nil
    ) {
        self.text = text
        self.x = x
        self.y = y
        self.width = width
        self.size = size
        self.color = color
        self.alignment = alignment
        self.font = font
    }

    /// Where a line sits in its box.
    package enum Alignment: String, Sendable, Hashable, CaseIterable {
        case left, center, right
    }
}

extension Layout {
    /// Whether a text prints the picture's name, which the guest types after it is composed:
    /// then it is composed again once named.
    package var printsCaption: Bool { texts.contains { $0.text.contains("{\(TextBlank.caption.rawValue)}") } }
}

/// The blanks a layout's text may hold, filled when a picture is composed.
package enum TextBlank: String, Sendable, Hashable, CaseIterable {
    /// The event's name (`web.title`).
    case event
    /// The day the picture was taken, in the booth's language.
    case date
    /// The hour and minute it was taken.
    case time
    /// The name typed on the keypad; empty until one is typed.
    case caption
    /// The booth's name in the event (`sync.booth`).
    case booth

    /// `text` with each blank replaced by its value in `values` (a blank without one by
    /// nothing).
    package static func fill(_ text: String, with values: [TextBlank: String]) -> String {
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}"), let blank = TextBlank(rawValue: String(rest[rest.index(after: open)..<close]))
            else {
                result.append("{")
                rest = rest[rest.index(after: open)...]
                continue
            }
            result += values[blank] ?? ""
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    /// The names between braces in `text` that are not blanks, for a layout file's message.
    static func unknownNames(in text: String) -> [String] {
        var names: [String] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            let name = String(rest[rest.index(after: open)..<close])
            if TextBlank(rawValue: name) == nil { names.append(name) }
            rest = rest[rest.index(after: close)...]
        }
        return names
    }
}

extension PixelColor {
    /// The colour `#RRGGBB` (or `#RGB`) spells in a layout file, or `nil`.
    package init?(hex text: String) {
        guard text.hasPrefix("#") else { return nil }
        var digits = String(text.dropFirst())
        if digits.count == 3 { digits = digits.map { "\($0)\($0)" }.joined() }
        guard digits.count == 6, digits.allSatisfy(\.isHexDigit), let value = UInt32(digits, radix: 16) else { return nil }
        self.init(red: UInt8(value >> 16), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF))
    }
}
