import Foundation

/// A line of text as a canvas recorded it (``Canvas/drawnText``): what it says, in which
/// colour, and which pixels its letters cover.
package struct DrawnText: Sendable, Hashable, CustomStringConvertible {
    package let text: String
    package let color: PixelColor
    /// Pixels per em.
    package let size: Int
    /// Whether the text lost its end or its start to an ellipsis.
    package let isShortened: Bool
    /// The letters' bounding box on the canvas (their outline excluded).
    let frame: PixelRect
    /// How much of each pixel of `frame` the letters cover.
    let ink: CoverageMask

    package var description: String { "\"\(text)\" (\(size) px at \(frame.x),\(frame.y))" }

    /// Calls `body` with each pixel the letters cover at all, on the canvas, and how much.
    func forEachInkPixel(_ body: (_ x: Int, _ y: Int, _ coverage: UInt8) -> Void) {
        ink.values.withUnsafeBufferPointer { values in
            for row in 0..<frame.height {
                for column in 0..<frame.width where values[row * frame.width + column] > 0 {
                    body(frame.x + column, frame.y + row, values[row * frame.width + column])
                }
            }
        }
    }
}

/// How a text stands out from what is right around it, measured on the painted canvas.
package struct TextContrast: Sendable {
    package let text: DrawnText
    /// The WCAG contrast ratio, 1 to 21, of the letters' colour as painted against the least
    /// contrasting pixel right next to them; `nil` for text with no pixel fully covered (too
    /// small to measure) or nothing uncovered around it.
    package let ratio: Double?
    /// That pixel's colour.
    package let background: PixelColor?
}

extension Canvas {
    /// What is wrong with the text drawn since ``drawnText`` was set: a text cut by an
    /// ellipsis, one that reaches past the canvas's edge, two whose letters share a pixel.
    /// Empty when every text is whole, on the canvas and clear of the others.
    package func textProblems() -> [String] {
        let texts = drawnText ?? []
        var problems: [String] = []
        for text in texts {
            if text.isShortened { problems.append("\(text) is cut short") }
            if text.frame.intersection(bounds) != text.frame { problems.append("\(text) reaches past the screen's edge") }
        }
        // Which text's letters cover each pixel; a second one there overlaps it.
        var owner = [Int32](repeating: -1, count: width * height)
        var overlapping = Set<[Int]>()
        for (index, text) in texts.enumerated() {
            text.forEachInkPixel { x, y, _ in
                guard x >= 0, y >= 0, x < width, y < height else { return }
                let previous = Int(owner[y * width + x])
                if previous >= 0, previous != index { overlapping.insert([previous, index]) }
                owner[y * width + x] = Int32(index)
            }
        }
        for pair in overlapping.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            problems.append("\(texts[pair[0]]) and \(texts[pair[1]]) overlap")
        }
        return problems
    }

    /// The contrast of each text drawn since ``drawnText`` was set, measured as someone with a
    /// screendump would: the colour of the pixels its letters cover fully against each pixel
    /// right next to them that no text covers (its outline, the band behind it, the picture).
    package func textContrasts() -> [TextContrast] {
        let texts = drawnText ?? []
        var covered = [Bool](repeating: false, count: width * height)
        for text in texts {
            text.forEachInkPixel { x, y, _ in
                if x >= 0, y >= 0, x < width, y < height { covered[y * width + x] = true }
            }
        }
        return texts.map { text in
            // The letters' colour: a pixel they cover fully shows nothing else.
            var letters: PixelColor?
            text.forEachInkPixel { x, y, coverage in
                if letters == nil, coverage == 255, x >= 0, y >= 0, x < width, y < height { letters = self[x, y] }
            }
            guard let letters else { return TextContrast(text: text, ratio: nil, background: nil) }
            // Each pixel next to a letter (one of its eight neighbours is ink) that no text covers.
            let area = PixelRect(x: text.frame.x - 1, y: text.frame.y - 1, width: text.frame.width + 2, height: text.frame.height + 2)
            var near = [Bool](repeating: false, count: area.width * area.height)
            text.forEachInkPixel { x, y, _ in
                for row in (y - area.y - 1)...(y - area.y + 1) {
                    for column in (x - area.x - 1)...(x - area.x + 1) { near[row * area.width + column] = true }
                }
            }
            var worst: (ratio: Double, colour: PixelColor)?
            let visible = area.intersection(bounds)
            for y in visible.y..<visible.maxY {
                for x in visible.x..<visible.maxX where near[(y - area.y) * area.width + x - area.x] && !covered[y * width + x] {
                    let colour = PixelColor(xrgb: pixels[y * width + x])
                    let ratio = letters.contrast(with: colour)
                    if ratio < worst?.ratio ?? .infinity { worst = (ratio, colour) }
                }
            }
            return TextContrast(text: text, ratio: worst?.ratio, background: worst?.colour)
        }
    }
}

extension PixelColor {
    /// The colour's relative luminance as WCAG 2 defines it: 0 for black, 1 for white.
    package var luminance: Double {
        0.2126 * Self.linear[Int(red)] + 0.7152 * Self.linear[Int(green)] + 0.0722 * Self.linear[Int(blue)]
    }

    /// Each sRGB channel value's linear light.
    private static let linear: [Double] = (0...255).map { channel in
        let value = Double(channel) / 255
        return value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
    }

    /// WCAG 2's contrast ratio between this colour and `other`: 1 (the same) to 21 (black and white).
    package func contrast(with other: PixelColor) -> Double {
        let (lighter, darker) = (max(luminance, other.luminance), min(luminance, other.luminance))
        return (lighter + 0.05) / (darker + 0.05)
    }
}
