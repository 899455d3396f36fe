/// How the booth's screen looks to a guest: how strongly its words stand out from what lies
/// behind them, and how large they are.
public struct ScreenTheme: Sendable, Hashable, CustomStringConvertible {
    public var contrast: ScreenContrast
    public var textSize: ScreenTextSize

    public init(contrast: ScreenContrast = .normal, textSize: ScreenTextSize = .normal) {
        self.contrast = contrast
        self.textSize = textSize
    }

    /// The screen as it has always been.
    public static let standard = ScreenTheme()

    /// How the log says it: `normal contrast, large text`.
    public var description: String { "\(contrast.rawValue) contrast, \(textSize.rawValue) text" }

    /// The colours the painter uses.
    var palette: Palette { contrast == .high ? .high : .standard }
}

/// `screen.contrast`.
public enum ScreenContrast: String, CaseIterable, Sendable {
    /// Light text on a dark grey-blue, the accent amber, the preview seen through the bands.
    case normal
    /// Every text at 7:1 or more against what is right around it (WCAG's AAA level), whatever
    /// the preview shows: black bands, a bright yellow accent, thicker outlines.
    case high
}

/// `screen.text_size`.
public enum ScreenTextSize: String, CaseIterable, Sendable {
    case normal
    /// A third larger, for guests who stand back from the screen: each screen gives its words
    /// more room, and a text still too long is set smaller rather than cut.
    case large

    /// Percent of the normal sizes.
    var percent: Int {
        switch self {
        case .normal: 100
        case .large: 133
        }
    }
}

/// The screen's colours: light text on a dark background, and one accent.
struct Palette {
    let background: PixelColor
    /// The name field's inside.
    let field: PixelColor
    /// The gallery's selected row.
    let selection: PixelColor
    let text: PixelColor
    let secondary: PixelColor
    let accent: PixelColor
    /// How opaque the dark bands are behind text over a picture (the main screen's options, a
    /// slide's or a photo's caption), out of 255.
    let band: UInt8
    /// How opaque the printer's notice is over the top of the screen.
    let notice: UInt8
    /// The outline of text over the preview, as a fraction of its size: 1 in `haloDivisor`.
    let haloDivisor: Int

    static let standard = Palette(
        background: PixelColor(red: 18, green: 20, blue: 28), field: PixelColor(red: 38, green: 42, blue: 56),
        selection: PixelColor(red: 52, green: 58, blue: 78), text: .white, secondary: PixelColor(red: 170, green: 176, blue: 190),
        accent: PixelColor(red: 255, green: 184, blue: 28), band: 200, notice: 220, haloDivisor: 20)

    /// Black behind everything, near-white secondary text, a yellow accent: the darkest text,
    /// the accent (0.73 of white's luminance), stands at 7:1 over anything under 6%; a band 92%
    /// black leaves under 1% of a white picture. The outline around text over the preview is
    /// thicker, so that the pixels right around each letter are the outline's.
    static let high = Palette(
        background: .black, field: .black, selection: PixelColor(red: 40, green: 40, blue: 40), text: .white,
        secondary: PixelColor(red: 225, green: 225, blue: 225), accent: PixelColor(red: 255, green: 221, blue: 0), band: 235, notice: 255,
        haloDivisor: 12)
}
