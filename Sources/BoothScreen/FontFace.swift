import CFreeType
import Foundation

/// Where the screen's TrueType fonts are: a bold face for headlines and a regular one for the
/// rest.
public struct ScreenFonts: Sendable, Hashable {
    package var bold: String
    package var regular: String

    public init(bold: String, regular: String) {
        self.bold = bold
        self.regular = regular
    }

    /// One font for all text, headlines and the rest alike: what a configuration that names a
    /// single font file gets.
    public init(_ path: String) {
        self.init(bold: path, regular: path)
    }

    /// DejaVu Sans, from Debian's and Raspberry Pi OS's `fonts-dejavu-core`.
    public static let dejaVu = ScreenFonts(
        bold: "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
        regular: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
}

/// One glyph rendered at one size: its anti-aliased coverage and where it sits relative to the
/// pen on the baseline.
private struct Glyph {
    let mask: CoverageMask
    /// From the pen to the mask's left edge, in pixels.
    let left: Int
    /// From the baseline up to the mask's top edge, in pixels.
    let top: Int
    /// How far the pen moves after the glyph, in 1/64 pixel.
    let advance: Int
    /// The glyph's index in the font, for kerning.
    let index: FT_UInt
    /// The mask grown by the line's halo radius, when the line has a halo.
    let halo: CoverageMask?
}

/// A line of text laid out in one face at one size, with its pen at 0 on the baseline.
package struct TextLine {
    /// Each glyph with the pen position it is drawn at.
    fileprivate let glyphs: [(glyph: Glyph, penX: Int)]
    /// The size the line is set in, in pixels per em.
    package let size: Int
    /// From the first pen position to the last, in pixels.
    package let width: Int
    /// How far each glyph's halo reaches beyond it; 0 for none.
    let haloRadius: Int
    /// The text laid out.
    package let text: String
    /// Whether the text was too long for its place and lost its end or its start to an
    /// ellipsis (``FontFace/line(_:size:minimumSize:maxWidth:truncating:haloRadius:)``).
    package internal(set) var isShortened = false

    /// How far the letters themselves reach above the baseline (the height of a digit), in
    /// pixels: what centres a line on its ink rather than on the font's line box.
    var inkAscent: Int {
        glyphs.lazy.filter { !$0.glyph.mask.values.isEmpty }.map(\.glyph.top).max() ?? 0
    }
}

/// A TrueType font loaded with FreeType, which renders anti-aliased glyphs at any pixel size.
///
/// Glyphs are cached per size, since the screen draws the same few strings at the same few
/// sizes, frame after frame. A face owns its own FreeType library instance, which is not
/// thread-safe: a face is used by one thread (it is not `Sendable`).
package final class FontFace {
    private let path: String
    private let library: FT_Library
    private let face: FT_Face
    /// The pixel size FreeType is set to, to set it only when it changes.
    private var currentSize = 0
    private var cache: [GlyphKey: Glyph] = [:]
    /// Enough for every glyph of every screen at its sizes; names typed in many scripts and
    /// shrunk to many sizes start the cache over rather than grow it for ever.
    private static let cacheLimit = 4096

    private struct GlyphKey: Hashable {
        let size: Int
        let index: FT_UInt
        let haloRadius: Int
    }

    /// Loads the font at `path`. The corresponding C functions are `FT_Init_FreeType` and
    /// `FT_New_Face`.
    package init(path: String) throws(ScreenError) {
        guard FileManager.default.fileExists(atPath: path) else {
            throw ScreenError(
                "The font \(path) does not exist. Install it (Debian: apt-get install fonts-dejavu-core) or configure another TrueType font.")
        }
        var library: FT_Library?
        try Self.check(FT_Init_FreeType(&library), "FT_Init_FreeType", path: path)
        guard let library else { throw ScreenError("\(path): FreeType could not start.") }
        var face: FT_Face?
        let status = FT_New_Face(library, path, 0, &face)
        guard status == 0, let face else {
            FT_Done_FreeType(library)
            throw Self.error(status, "FT_New_Face", path: path)
        }
        self.path = path
        self.library = library
        self.face = face
    }

    deinit {
        FT_Done_Face(face)
        FT_Done_FreeType(library)
    }

    /// Lays out `text` at `size` pixels per em, kerned.
    ///
    /// - Parameter haloRadius: when above 0, each glyph also gets a halo of that radius
    ///   (``CoverageMask/halo(radius:)``), to outline text drawn over a picture.
    package func line(_ text: String, size: Int, haloRadius: Int = 0) throws(ScreenError) -> TextLine {
        try select(size)
        let hasKerning = face.pointee.face_flags & FT_FACE_FLAG_KERNING != 0
        var glyphs: [(glyph: Glyph, penX: Int)] = []
        var pen = 0  // 1/64 pixel
        var previous: FT_UInt?
        for scalar in text.precomposedStringWithCanonicalMapping.unicodeScalars {
            let glyph = try self.glyph(FT_Get_Char_Index(face, FT_ULong(scalar.value)), size: size, haloRadius: haloRadius)
            if hasKerning, let previous {
                pen += try kerning(between: previous, and: glyph.index)
            }
            glyphs.append((glyph, (pen + 32) >> 6))
            pen += glyph.advance
            previous = glyph.index
        }
        return TextLine(glyphs: glyphs, size: size, width: (pen + 32) >> 6, haloRadius: haloRadius, text: text)
    }

    /// How far the font's tallest letters reach above the baseline at `size` pixels per em:
    /// where to put the baseline of a line whose top is given.
    package func ascent(size: Int) throws(ScreenError) -> Int {
        try select(size)
        return Int((face.pointee.size.pointee.metrics.ascender + 32) >> 6)
    }

    /// Sets the pixel size. The corresponding C function is `FT_Set_Pixel_Sizes`.
    private func select(_ size: Int) throws(ScreenError) {
        guard size != currentSize else { return }
        try Self.check(FT_Set_Pixel_Sizes(face, 0, FT_UInt(max(1, size))), "FT_Set_Pixel_Sizes(\(size))", path: path)
        currentSize = size
    }

    /// The glyph at `index`, rendered at the current size, with a halo when `haloRadius` is
    /// above 0.
    private func glyph(_ index: FT_UInt, size: Int, haloRadius: Int) throws(ScreenError) -> Glyph {
        let key = GlyphKey(size: size, index: index, haloRadius: haloRadius)
        if let cached = cache[key] { return cached }
        let glyph = try renderedGlyph(index, size: size)
        let result =
            haloRadius > 0 && !glyph.mask.values.isEmpty
            ? Glyph(
                mask: glyph.mask, left: glyph.left, top: glyph.top, advance: glyph.advance, index: index,
                halo: glyph.mask.halo(radius: haloRadius))
            : glyph
        remember(result, as: key)
        return result
    }

    /// The glyph at `index`, rendered at the current size. The corresponding C function is
    /// `FT_Load_Glyph` with `FT_LOAD_RENDER`.
    private func renderedGlyph(_ index: FT_UInt, size: Int) throws(ScreenError) -> Glyph {
        let key = GlyphKey(size: size, index: index, haloRadius: 0)
        if let cached = cache[key] { return cached }
        // Light hinting: crisp horizontal stems without distorting the shapes, which at the
        // screen's large sizes looks better than full hinting.
        let lightTarget = Int32(FT_RENDER_MODE_LIGHT.rawValue & 15) << 16
        try Self.check(FT_Load_Glyph(face, index, Int32(FT_LOAD_RENDER) | lightTarget), "FT_Load_Glyph(\(index))", path: path)
        let slot = face.pointee.glyph.pointee
        let bitmap = slot.bitmap
        guard bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_GRAY.rawValue) || bitmap.rows == 0 || bitmap.width == 0 else {
            throw ScreenError(
                "\(path): FreeType rendered glyph \(index) in pixel mode \(bitmap.pixel_mode), not 8-bit grey; use a scalable TrueType font.")
        }
        let width = Int(bitmap.width)
        let height = Int(bitmap.rows)
        var values = [UInt8](repeating: 0, count: width * height)
        if let buffer = bitmap.buffer {
            let pitch = Int(bitmap.pitch)
            // A negative pitch means the rows are stored bottom up, starting at the last one.
            let firstRow = pitch < 0 ? buffer + (height - 1) * -pitch : buffer
            for row in 0..<height {
                for column in 0..<width {
                    values[row * width + column] = firstRow[row * pitch + column]
                }
            }
        }
        let glyph = Glyph(
            mask: CoverageMask(width: width, height: height, values: values), left: Int(slot.bitmap_left),
            top: Int(slot.bitmap_top), advance: slot.advance.x, index: index, halo: nil)
        remember(glyph, as: key)
        return glyph
    }

    private func remember(_ glyph: Glyph, as key: GlyphKey) {
        if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
        cache[key] = glyph
    }

    /// How much closer (negative) or further apart the pair is set, in 1/64 pixel. The
    /// corresponding C function is `FT_Get_Kerning`.
    private func kerning(between left: FT_UInt, and right: FT_UInt) throws(ScreenError) -> Int {
        var delta = FT_Vector()
        try Self.check(
            FT_Get_Kerning(face, left, right, FT_KERNING_DEFAULT.rawValue, &delta), "FT_Get_Kerning", path: path)
        return delta.x
    }

    private static func check(_ status: FT_Error, _ call: String, path: String) throws(ScreenError) {
        guard status == 0 else { throw error(status, call, path: path) }
    }

    private static func error(_ status: FT_Error, _ call: String, path: String) -> ScreenError {
        // Debian's FreeType is built without error strings; name the errors a font file causes.
        let reason =
            switch status {
            case 0x01: "cannot open the file"
            case 0x02: "not a font file FreeType knows"
            case 0x03: "the font file is damaged"
            default: FT_Error_String(status).map { String(cString: $0) } ?? "FreeType error \(status)"
            }
        return ScreenError("\(path): \(call) failed: \(reason).")
    }
}

extension Canvas {
    /// Draws `line` with its pen starting at `x` on the baseline `baseline`, over its halo in
    /// `haloColor` when it has one.
    package mutating func draw(_ line: TextLine, atX x: Int, baseline: Int, color: PixelColor, haloColor: PixelColor = .black) {
        let radius = line.haloRadius
        for (glyph, penX) in line.glyphs {
            guard let halo = glyph.halo else { continue }
            draw(halo, atX: x + penX + glyph.left - radius, y: baseline - glyph.top - radius, color: haloColor)
        }
        for (glyph, penX) in line.glyphs where !glyph.mask.values.isEmpty {
            draw(glyph.mask, atX: x + penX + glyph.left, y: baseline - glyph.top, color: color)
        }
        if drawnText != nil { drawnText?.append(DrawnText(line, atX: x, baseline: baseline, color: color)) }
    }
}

extension DrawnText {
    /// `line` as drawn at `x` on `baseline`: its letters' coverage in one mask.
    init(_ line: TextLine, atX x: Int, baseline: Int, color: PixelColor) {
        let placed = line.glyphs.filter { !$0.glyph.mask.values.isEmpty }.map { glyph, penX in
            (glyph.mask, PixelRect(x: x + penX + glyph.left, y: baseline - glyph.top, width: glyph.mask.width, height: glyph.mask.height))
        }
        let left = placed.map(\.1.x).min() ?? x
        let top = placed.map(\.1.y).min() ?? baseline
        let frame = PixelRect(
            x: left, y: top, width: (placed.map(\.1.maxX).max() ?? left) - left, height: (placed.map(\.1.maxY).max() ?? top) - top)
        var values = [UInt8](repeating: 0, count: frame.width * frame.height)
        for (mask, rect) in placed {
            for row in 0..<rect.height {
                for column in 0..<rect.width {
                    let index = (rect.y - top + row) * frame.width + rect.x - left + column
                    values[index] = max(values[index], mask.values[row * mask.width + column])
                }
            }
        }
        self.init(
            text: line.text, color: color, size: line.size, isShortened: line.isShortened, frame: frame,
            ink: CoverageMask(width: frame.width, height: frame.height, values: values))
    }
}
