import Foundation

/// The picture the simulated camera films: colour bars, a grey ramp, and along the bottom the
/// time of day with milliseconds and the frame number in large digits on a black plate, so that
/// consecutive frames always differ, a saved photo shows when it was taken, and two shots of
/// the scene are near duplicates as two shots of a still scene are.
///
/// Only the bottom band moves (``liveTop`` down, at a multiple of 16 pixel rows): an encoder
/// can keep the rows above it from one frame to the next (``RowSplicedEncoder``).
///
/// The still background carries a fixed grain, like a sensor's noise, so that frames compress
/// to the sizes of real webcam frames and timings measured on them mean something.
package struct TestPattern: Sendable {
    public let width: Int
    public let height: Int
    /// The first pixel row that changes from frame to frame, a multiple of 16.
    package let liveTop: Int
    /// The still part of the picture, drawn once: the whole picture but the clock.
    package let still: Bitmap
    /// The size of a pixel of the clock's font.
    private let scale: Int
    /// The top of the clock's plate.
    private let plateTop: Int

    /// A pattern of the given size (at least 64 x 48).
    ///
    /// - Parameter grain: the largest change the grain makes to a colour value; 0 for none.
    package init(width: Int, height: Int, grain: Int = 12) {
        precondition(width >= 64 && height >= 48, "the test pattern needs at least 64 x 48 pixels")
        self.width = width
        self.height = height
        scale = max(1, height / 90)
        plateTop = height - (Glyphs.height + 3) * scale
        liveTop = plateTop / 16 * 16
        var background = Self.drawBackground(width: width, height: height)
        if grain > 0 { Self.addGrain(to: &background, amplitude: grain) }
        still = background
    }

    /// The picture of frame number `frame`, filmed at `time`.
    package func render(frame: UInt64, at time: Date) -> Bitmap {
        var bitmap = still
        let band = renderLive(frame: frame, at: time)
        bitmap.pixels.replaceSubrange(liveTop * bitmap.bytesPerRow..<bitmap.pixels.count, with: band.pixels)
        return bitmap
    }

    /// The rows from ``liveTop`` down of frame number `frame`, filmed at `time`: what differs
    /// from ``still``.
    package func renderLive(frame: UInt64, at time: Date) -> Bitmap {
        var band = stillBand
        drawLive(frame: frame, at: time, secondsFromGMT: TimeZone.current.secondsFromGMT(for: time), into: &band)
        return band
    }

    /// The rows from ``liveTop`` down as ``still`` has them: the band a camera draws each
    /// frame's clock into (``drawLive(frame:at:secondsFromGMT:into:)``).
    package var stillBand: Bitmap {
        Bitmap(width: width, height: height - liveTop, format: .rgb, pixels: Array(still.pixels[(liveTop * still.bytesPerRow)...]))
    }

    /// Draws the clock of frame number `frame`, filmed at `time` (local time being
    /// `secondsFromGMT` ahead of UTC), into `band`: a ``stillBand`` or a band drawn into
    /// before, since the plate covers every earlier one. Only the plate is drawn, with no copy
    /// of the band and nothing from Foundation: a camera does it 30 times a second.
    package func drawLive(frame: UInt64, at time: Date, secondsFromGMT: Int, into band: inout Bitmap) {
        let plateHeight = (Glyphs.height + 2) * scale
        let top = plateTop - liveTop
        // The plate keeps its width as the frame number grows (up to 7 digits), so that what
        // moves is only digits: two frames of one scene stay near duplicates (PerceptualHash).
        let text = Self.timeOfDay(time, secondsFromGMT: secondsFromGMT) + " #" + String(frame)
        let plateWidth = Glyphs.advance * scale * max(text.utf8.count, "00:00:00.000 #0000000".utf8.count) + 2 * scale
        let plateX = (width - plateWidth) / 2
        band.fill(x: plateX, y: top, width: plateWidth, height: plateHeight, color: (0, 0, 0))
        let textX = max(0, (width - Glyphs.width(of: text, scale: scale)) / 2)
        band.draw(text, x: textX, y: top + scale, scale: scale, color: (255, 255, 255))
    }

    /// "14:03:12.345", `secondsFromGMT` ahead of UTC.
    private static func timeOfDay(_ time: Date, secondsFromGMT: Int) -> String {
        let local = time.timeIntervalSince1970 + Double(secondsFromGMT)
        let milliseconds = Int((local * 1000).rounded(.down)) % 86_400_000
        func digits(_ value: Int, _ count: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, count - text.utf8.count)) + text
        }
        return digits(milliseconds / 3_600_000, 2) + ":" + digits(milliseconds / 60_000 % 60, 2) + ":"
            + digits(milliseconds / 1000 % 60, 2) + "." + digits(milliseconds % 1000, 3)
    }

    /// Adds noise from a fixed seed, so every run films the same picture.
    private static func addGrain(to bitmap: inout Bitmap, amplitude: Int) {
        var state: UInt32 = 0x9E37_79B9
        bitmap.pixels.withUnsafeMutableBufferPointer { pixels in
            for index in pixels.indices {
                // xorshift32: cheap and good enough for grain.
                state ^= state << 13
                state ^= state >> 17
                state ^= state << 5
                let offset = Int(state % UInt32(2 * amplitude + 1)) - amplitude
                pixels[index] = UInt8(clamping: Int(pixels[index]) + offset)
            }
        }
    }

    /// Eight vertical colour bars over the upper two thirds, a grey ramp below.
    private static func drawBackground(width: Int, height: Int) -> Bitmap {
        var bitmap = Bitmap(width: width, height: height, format: .rgb)
        let bars: [(UInt8, UInt8, UInt8)] = [
            (192, 192, 192), (192, 192, 0), (0, 192, 192), (0, 192, 0),
            (192, 0, 192), (192, 0, 0), (0, 0, 192), (16, 16, 16),
        ]
        let barsHeight = height * 2 / 3
        for (index, color) in bars.enumerated() {
            let x0 = width * index / bars.count
            let x1 = width * (index + 1) / bars.count
            bitmap.fill(x: x0, y: 0, width: x1 - x0, height: barsHeight, color: color)
        }
        for x in 0..<width {
            let level = UInt8(255 * x / max(1, width - 1))
            bitmap.fill(x: x, y: barsHeight, width: 1, height: height - barsHeight, color: (level, level, level))
        }
        return bitmap
    }
}

extension Bitmap {
    /// Fills a rectangle, clipped to the bitmap, with an RGB colour.
    mutating func fill(x: Int, y: Int, width w: Int, height h: Int, color: (UInt8, UInt8, UInt8)) {
        precondition(format == .rgb, "drawing is done in RGB")
        let x0 = max(0, x)
        let y0 = max(0, y)
        let x1 = min(width, x + w)
        let y1 = min(height, y + h)
        guard x0 < x1, y0 < y1 else { return }
        let rowBytes = bytesPerRow
        pixels.withUnsafeMutableBufferPointer { buffer in
            for row in y0..<y1 {
                var offset = row * rowBytes + x0 * 3
                // A grey (the clock's black plate, its white digits) is one byte repeated: memset.
                if color.0 == color.1 && color.1 == color.2 {
                    buffer[offset..<offset + (x1 - x0) * 3].update(repeating: color.0)
                    continue
                }
                for _ in x0..<x1 {
                    buffer[offset] = color.0
                    buffer[offset + 1] = color.1
                    buffer[offset + 2] = color.2
                    offset += 3
                }
            }
        }
    }

    /// Draws `text` in the built-in 5 x 7 digit font, each font pixel `scale` pixels wide.
    mutating func draw(_ text: String, x: Int, y: Int, scale: Int, color: (UInt8, UInt8, UInt8)) {
        var penX = x
        for character in text {
            if let rows = Glyphs.rows[character] {
                for (rowIndex, row) in rows.enumerated() {
                    for column in 0..<Glyphs.width where row & (0b10000 >> column) != 0 {
                        fill(x: penX + column * scale, y: y + rowIndex * scale, width: scale, height: scale, color: color)
                    }
                }
            }
            penX += Glyphs.advance * scale
        }
    }
}

/// A 5 x 7 pixel font for the clock: digits and the few signs around them.
enum Glyphs {
    static let width = 5
    static let height = 7
    /// Glyph width plus one column of spacing.
    static let advance = 6

    static func width(of text: String, scale: Int) -> Int {
        text.count * advance * scale
    }

    /// Each glyph as seven rows of five bits, the leftmost pixel in the highest bit.
    static let rows: [Character: [UInt8]] = [
        "0": [0b01110, 0b10001, 0b10011, 0b10101, 0b11001, 0b10001, 0b01110],
        "1": [0b00100, 0b01100, 0b00100, 0b00100, 0b00100, 0b00100, 0b01110],
        "2": [0b01110, 0b10001, 0b00001, 0b00010, 0b00100, 0b01000, 0b11111],
        "3": [0b11111, 0b00010, 0b00100, 0b00010, 0b00001, 0b10001, 0b01110],
        "4": [0b00010, 0b00110, 0b01010, 0b10010, 0b11111, 0b00010, 0b00010],
        "5": [0b11111, 0b10000, 0b11110, 0b00001, 0b00001, 0b10001, 0b01110],
        "6": [0b00110, 0b01000, 0b10000, 0b11110, 0b10001, 0b10001, 0b01110],
        "7": [0b11111, 0b00001, 0b00010, 0b00100, 0b01000, 0b01000, 0b01000],
        "8": [0b01110, 0b10001, 0b10001, 0b01110, 0b10001, 0b10001, 0b01110],
        "9": [0b01110, 0b10001, 0b10001, 0b01111, 0b00001, 0b00010, 0b01100],
        ":": [0b00000, 0b01100, 0b01100, 0b00000, 0b01100, 0b01100, 0b00000],
        ".": [0b00000, 0b00000, 0b00000, 0b00000, 0b00000, 0b01100, 0b01100],
        "#": [0b01010, 0b01010, 0b11111, 0b01010, 0b11111, 0b01010, 0b01010],
        "-": [0b00000, 0b00000, 0b00000, 0b11111, 0b00000, 0b00000, 0b00000],
    ]
}
