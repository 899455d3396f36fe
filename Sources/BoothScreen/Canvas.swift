import BoothImaging

/// A colour on the booth's screen.
package struct PixelColor: Sendable, Hashable, CustomStringConvertible {
    package var red: UInt8
    package var green: UInt8
    package var blue: UInt8

    package init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// The colour of a canvas pixel (`0xXXRRGGBB`).
    init(xrgb: UInt32) {
        self.init(red: UInt8(truncatingIfNeeded: xrgb >> 16), green: UInt8(truncatingIfNeeded: xrgb >> 8), blue: UInt8(truncatingIfNeeded: xrgb))
    }

    /// The colour as a canvas pixel: `0xFFRRGGBB`, the unused byte set like TurboJPEG sets it.
    var xrgb: UInt32 {
        0xFF00_0000 | UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue)
    }

    package var description: String { "rgb(\(red), \(green), \(blue))" }

    package static let black = PixelColor(red: 0, green: 0, blue: 0)
    package static let white = PixelColor(red: 255, green: 255, blue: 255)
}

/// A rectangle of pixels; `x` and `y` are its top left corner.
struct PixelRect: Sendable, Hashable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int

    var maxX: Int { x + width }
    var maxY: Int { y + height }
    var midX: Int { x + width / 2 }
    var midY: Int { y + height / 2 }
    var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The part of this rectangle inside `other`, empty when they do not overlap.
    func intersection(_ other: PixelRect) -> PixelRect {
        let left = max(x, other.x)
        let top = max(y, other.y)
        return PixelRect(x: left, y: top, width: max(0, min(maxX, other.maxX) - left), height: max(0, min(maxY, other.maxY) - top))
    }

    /// This rectangle shrunk by `amount` on every side.
    func inset(by amount: Int) -> PixelRect {
        PixelRect(x: x + amount, y: y + amount, width: width - 2 * amount, height: height - 2 * amount)
    }
}

/// The booth's screen drawn off-screen: 32-bit pixels in memory, which a framebuffer, a
/// display plane, a web preview or a test reads once the picture is complete.
///
/// A pixel is `0xAARRGGBB` with its colour premultiplied by its alpha, which is 255 (opaque)
/// everywhere unless a part was made transparent (``clear(_:)``): then what is drawn there
/// keeps how much it covers, and the canvas is a layer for a display plane over the live
/// preview. On an opaque canvas every drawing gives exactly the colours it would without alpha.
///
/// Drawing clips to the canvas, so nothing drawn can land outside it.
package struct Canvas: Sendable, Hashable {
    public let width: Int
    public let height: Int
    /// `0xAARRGGBB` per pixel (premultiplied), rows top to bottom: the layout of an XRGB8888
    /// framebuffer and of an ARGB8888 plane, so presenting it there is a copy.
    package private(set) var pixels: [UInt32]
    /// Every line of text drawn since this was set to `[]`, for checking what a screen shows
    /// (``textProblems()``, ``contrast(of:)``); `nil`, as it starts: nothing is recorded.
    package var drawnText: [DrawnText]?

    /// A canvas filled with `color`.
    package init(width: Int, height: Int, color: PixelColor = .black) {
        precondition(width > 0 && height > 0, "a canvas needs at least one pixel")
        self.width = width
        self.height = height
        pixels = [UInt32](repeating: color.xrgb, count: width * height)
    }

    /// The colour at column `x`, row `y` (premultiplied where the canvas is transparent).
    package subscript(x: Int, y: Int) -> PixelColor {
        PixelColor(xrgb: pixels[y * width + x])
    }

    /// How much the pixel at column `x`, row `y` covers what lies under the canvas: 255 opaque,
    /// 0 transparent.
    package func alpha(x: Int, y: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: pixels[y * width + x] >> 24)
    }

    /// Makes `rect` transparent: what lies under the canvas (the live preview on its own
    /// plane) shows through there.
    mutating func clear(_ rect: PixelRect) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        let width = width
        pixels.withUnsafeMutableBufferPointer { pixels in
            for row in area.y..<area.maxY {
                let start = row * width
                pixels[(start + area.x)..<(start + area.maxX)].update(repeating: 0)
            }
        }
    }

    /// The picture as a `.bgrx` bitmap, ready for a JPEG encoder.
    package var bitmap: Bitmap {
        let bytes = [UInt8](unsafeUninitializedCapacity: pixels.count * 4) { buffer, count in
            let target = UnsafeMutableRawBufferPointer(buffer)
            pixels.withUnsafeBufferPointer { pixels in
                for index in pixels.indices {
                    target.storeBytes(of: pixels[index].littleEndian, toByteOffset: index * 4, as: UInt32.self)
                }
            }
            count = buffer.count
        }
        return Bitmap(width: width, height: height, format: .bgrx, pixels: bytes)
    }

    /// The whole canvas as a rectangle.
    var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

    /// Fills `rect` with `color`; below full `opacity`, the colour is laid over what is there
    /// (black at half opacity darkens the preview behind text).
    mutating func fill(_ rect: PixelRect, with color: PixelColor, opacity: UInt8 = 255) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        let width = width
        let solid = color.xrgb
        pixels.withUnsafeMutableBufferPointer { pixels in
            for row in area.y..<area.maxY {
                let start = row * width
                for index in (start + area.x)..<(start + area.maxX) {
                    pixels[index] = opacity == 255 ? solid : Self.blend(color, over: pixels[index], alpha: UInt32(opacity))
                }
            }
        }
    }

    /// Copies `bitmap` with its top left corner at (`x`, `y`).
    package mutating func draw(_ bitmap: Bitmap, atX x: Int, y: Int) {
        let area = PixelRect(x: x, y: y, width: bitmap.width, height: bitmap.height).intersection(bounds)
        guard !area.isEmpty else { return }
        let width = width
        let bytesPerPixel = bitmap.format.bytesPerPixel
        let bytesPerRow = bitmap.bytesPerRow
        pixels.withUnsafeMutableBufferPointer { pixels in
            bitmap.pixels.withUnsafeBytes { source in
                for row in area.y..<area.maxY {
                    let start = (row - y) * bytesPerRow + (area.x - x) * bytesPerPixel
                    let target = row * width + area.x
                    // One loop per format, so that each is a straight run the compiler can vectorise.
                    switch bitmap.format {
                    case .bgrx:
                        for column in 0..<area.width {
                            let pixel = source.loadUnaligned(fromByteOffset: start + column * 4, as: UInt32.self)
                            pixels[target + column] = 0xFF00_0000 | UInt32(littleEndian: pixel)
                        }
                    case .rgb:
                        for column in 0..<area.width {
                            let offset = start + column * 3
                            pixels[target + column] =
                                PixelColor(red: source[offset], green: source[offset + 1], blue: source[offset + 2]).xrgb
                        }
                    }
                }
            }
        }
    }

    /// Lays `picture` over what is there with its top left corner at (`x`, `y`): opaque pixels
    /// replace it, transparent ones leave it, the rest mix (an event's frame over the shots, or
    /// over the live preview).
    package mutating func draw(_ picture: TranslucentPicture, atX x: Int, y: Int) {
        let area = PixelRect(x: x, y: y, width: picture.width, height: picture.height).intersection(bounds)
        guard !area.isEmpty else { return }
        let width = width
        let bytesPerRow = picture.bitmap.bytesPerRow
        pixels.withUnsafeMutableBufferPointer { pixels in
            picture.bitmap.pixels.withUnsafeBytes { source in
                for row in area.y..<area.maxY {
                    let start = (row - y) * bytesPerRow + (area.x - x) * 4
                    let target = row * width + area.x
                    for column in 0..<area.width {
                        let over = UInt32(littleEndian: source.loadUnaligned(fromByteOffset: start + column * 4, as: UInt32.self))
                        let alpha = over >> 24
                        if alpha == 0 { continue }
                        if alpha == 255 {
                            pixels[target + column] = 0xFF00_0000 | over
                            continue
                        }
                        // Premultiplied: the picture's colour plus what shows through of the canvas,
                        // and its coverage plus what the canvas covered of the rest.
                        let under = pixels[target + column]
                        let keep = 255 - alpha
                        let redBlue = ((under & 0x00FF_00FF) &* keep &+ 0x0080_0080)
                        let green = ((under & 0x0000_FF00) &* keep &+ 0x0000_8000)
                        let shown =
                            ((redBlue &+ (redBlue >> 8 & 0x00FF_00FF)) >> 8 & 0x00FF_00FF)
                            | ((green &+ (green >> 8 & 0x0000_FF00)) >> 8 & 0x0000_FF00)
                        let coverage = alpha + ((under >> 24) * keep + 127) / 255
                        pixels[target + column] = coverage << 24 | (shown &+ (over & 0x00FF_FFFF))
                    }
                }
            }
        }
    }

    /// Paints `color` through `mask` with its top left corner at (`x`, `y`): each pixel gets as
    /// much of the colour as the mask covers of it, times `opacity`, which is what makes text
    /// smooth.
    mutating func draw(_ mask: CoverageMask, atX x: Int, y: Int, color: PixelColor, opacity: UInt8 = 255) {
        let area = PixelRect(x: x, y: y, width: mask.width, height: mask.height).intersection(bounds)
        guard !area.isEmpty else { return }
        let width = width
        pixels.withUnsafeMutableBufferPointer { pixels in
            mask.values.withUnsafeBufferPointer { coverage in
                for row in area.y..<area.maxY {
                    var source = (row - y) * mask.width + (area.x - x)
                    for index in (row * width + area.x)..<(row * width + area.maxX) {
                        let alpha = UInt32(coverage[source]) * UInt32(opacity) / 255
                        if alpha == 255 {
                            pixels[index] = color.xrgb
                        } else if alpha > 0 {
                            pixels[index] = Self.blend(color, over: pixels[index], alpha: alpha)
                        }
                        source += 1
                    }
                }
            }
        }
    }

    /// `color` laid over `pixel` with `alpha` out of 255 (premultiplied: over a transparent
    /// pixel it leaves the colour times `alpha`, covering `alpha`).
    @inline(__always)
    private static func blend(_ color: PixelColor, over pixel: UInt32, alpha: UInt32) -> UInt32 {
        let inverse = 255 - alpha
        let red = (UInt32(color.red) * alpha + (pixel >> 16 & 0xFF) * inverse + 127) / 255
        let green = (UInt32(color.green) * alpha + (pixel >> 8 & 0xFF) * inverse + 127) / 255
        let blue = (UInt32(color.blue) * alpha + (pixel & 0xFF) * inverse + 127) / 255
        let coverage = (255 * alpha + (pixel >> 24) * inverse + 127) / 255
        return coverage << 24 | red << 16 | green << 8 | blue
    }
}

extension Canvas {
    /// Draws `code` black on white with its quiet zone, its top left corner (the quiet zone's)
    /// at (`x`, `y`), each module a `moduleSize`-pixel square: whole pixels, so that every
    /// module edge is sharp for a scanner.
    mutating func draw(_ code: QRCode, atX x: Int, y: Int, moduleSize: Int) {
        let quietZone = QRCode.quietZone
        let side = (code.size + 2 * quietZone) * moduleSize
        fill(PixelRect(x: x, y: y, width: side, height: side), with: .white)
        for row in 0..<code.size {
            for column in 0..<code.size where code[column, row] {
                fill(
                    PixelRect(
                        x: x + (quietZone + column) * moduleSize, y: y + (quietZone + row) * moduleSize, width: moduleSize,
                        height: moduleSize),
                    with: .black)
            }
        }
    }
}
