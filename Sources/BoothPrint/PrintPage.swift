import BoothCore
import BoothImaging
import BoothPictures
import BoothScreen
import Foundation

extension PrintMedia {
    /// The sheet's sides in pixels at `dpi`.
    package func pixels(dpi: Int) -> (short: Int, long: Int) {
        (Self.pixels(shortSide, dpi: dpi), Self.pixels(longSide, dpi: dpi))
    }

    static func pixels(_ hundredthsOfMillimetre: Int, dpi: Int) -> Int {
        Int((Double(hundredthsOfMillimetre) / 2540 * Double(dpi)).rounded())
    }
}

/// Makes the page of a print: the picture on a sheet of the media, at the printer's resolution,
/// as a JPEG. The picture fills the sheet within the margin, turned with the sheet (a landscape
/// picture on a landscape page), never cropped; pictures that share a sheet (strips) stand side
/// by side. With a print layout, the layout is the sheet and the picture goes in each of its
/// slots. Used by the print thread alone (composers are not thread-safe).
package final class PageMaker {
    let media: PrintMedia
    /// The margin around the picture, in hundredths of a millimetre; 0 for borderless.
    let margin: Int
    /// The operator's print layout (`print.layout`): its canvas is the sheet, each of its slots
    /// the picture; `nil` for the picture filling the sheet within the margin.
    let printLayout: Layout?
    /// The font of the print layout's texts that name none.
    let defaultFont: String
    private var composers: [String: PictureComposer] = [:]

    package init(media: PrintMedia, margin: Int, layout: Layout? = nil, defaultFont: String = "") {
        self.media = media
        self.margin = margin
        self.printLayout = layout
        self.defaultFont = defaultFont
    }

    /// The page of `picture` (a JPEG) of `width` by `height` pixels at `dpi`; `blanks` fill the
    /// print layout's texts.
    package func page(of picture: Data, width: Int, height: Int, dpi: Int, blanks: [TextBlank: String] = [:]) throws(PrintError) -> Data {
        let layout = printLayout.map { Self.scaled($0, to: media, dpi: dpi) } ?? layout(pictureWidth: width, pictureHeight: height, dpi: dpi)
        let composer: PictureComposer
        if let made = composers[layout.name] {
            composer = made
        } else {
            do {
                composer = try PictureComposer(try LoadedLayout(layout), defaultFont: defaultFont)
            } catch {
                throw .document("The page cannot be laid out: \(error)")
            }
            composers = [layout.name: composer]
        }
        do {
            return Self.stamped(try composer.jpeg(shots: Array(repeating: picture, count: layout.slots.count), blanks: blanks), dpi: dpi)
        } catch {
            throw .document("The picture cannot be read to print it: \(error)")
        }
    }

    /// Whether `layout`'s canvas has the shape of `media`'s sheet (either way up), within 2%:
    /// a print layout is drawn on the whole sheet, neither cut nor stretched.
    package static func fits(_ layout: Layout, on media: PrintMedia) -> Bool {
        let canvas = Double(max(layout.width, layout.height)) / Double(min(layout.width, layout.height))
        let sheet = Double(media.longSide) / Double(media.shortSide)
        return abs(canvas / sheet - 1) <= 0.02
    }

    /// `layout` drawn on `media`'s sheet at `dpi`: the sheet turned as the canvas is, every
    /// place and size scaled to it.
    package static func scaled(_ layout: Layout, to media: PrintMedia, dpi: Int) -> Layout {
        let (short, long) = media.pixels(dpi: dpi)
        let (width, height) = layout.width > layout.height ? (long, short) : (short, long)
        // Each way by its own ratio: a canvas a little off the sheet's shape (``fits``) still
        // fills the sheet, nothing past its edge.
        let (across, down) = (Double(width) / Double(layout.width), Double(height) / Double(layout.height))
        func x(_ value: Int) -> Int { Int((Double(value) * across).rounded()) }
        func y(_ value: Int) -> Int { Int((Double(value) * down).rounded()) }
        var page = layout
        page.name = "print \(layout.name) \(width)x\(height)"
        (page.width, page.height) = (width, height)
        page.slots = layout.slots.map { slot in
            var slot = slot
            (slot.x, slot.y, slot.width, slot.height) = (x(slot.x), y(slot.y), max(1, x(slot.width)), max(1, y(slot.height)))
            return slot
        }
        page.texts = layout.texts.map { text in
            var text = text
            (text.x, text.y, text.width) = (x(text.x), y(text.y), max(1, x(text.width)))
            text.size = max(1, Int((Double(text.size) * min(across, down)).rounded()))
            return text
        }
        return page
    }

    /// `jpeg` with its resolution in its JFIF header (TurboJPEG writes an aspect ratio only), so
    /// that a printer that reads it knows the page's size.
    static func stamped(_ jpeg: Data, dpi: Int) -> Data {
        var bytes = [UInt8](jpeg)
        // SOI, then APP0 "JFIF\0" version, units (1: dots per inch), X and Y density.
        guard bytes.count > 18, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF, bytes[3] == 0xE0,
            Array(bytes[6..<11]) == Array("JFIF\0".utf8)
        else { return jpeg }
        bytes[13] = 1
        bytes[14] = UInt8(dpi >> 8)
        bytes[15] = UInt8(dpi & 0xFF)
        bytes[16] = UInt8(dpi >> 8)
        bytes[17] = UInt8(dpi & 0xFF)
        return Data(bytes)
    }

    /// The sheet at `dpi`, turned as the picture is, with one slot per picture on it.
    func layout(pictureWidth: Int, pictureHeight: Int, dpi: Int) -> Layout {
        let (short, long) = media.pixels(dpi: dpi)
        let border = PrintMedia.pixels(margin, dpi: dpi)
        let count = media.picturesPerSheet
        // Strips stand along the sheet's long side; a single picture turns the sheet with it.
        let landscape = count == 1 && pictureWidth > pictureHeight
        let (width, height) = landscape ? (long, short) : (short, long)
        let slotWidth = max(1, (width - border * (count + 1)) / count)
        let slotHeight = max(1, height - 2 * border)
        let slots = (0..<count).map { index in
            PhotoSlot(x: border + index * (slotWidth + border), y: border, width: slotWidth, height: slotHeight, fit: .contain)
        }
        return Layout(name: "page \(media.pwgName) \(width)x\(height) \(count)", width: width, height: height, slots: slots)
    }
}
