import BoothCore
import BoothImaging
import BoothPictures
import BoothPrint
import Foundation
import Testing

@testable import BoothService

@Suite("The print layout (print.layout)")
struct PrintLayoutTests {
    /// A configuration file in a folder of its own with `layout` beside it as `print.yaml`.
    static func configuration(media: String, layout: String) throws -> (BoothConfiguration, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("photobooth-print-layout-\(UUID().lowercased)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try layout.write(to: folder.appendingPathComponent("print.yaml"), atomically: true, encoding: .utf8)
        let file = folder.appendingPathComponent("photobooth.yaml")
        try "print: {printer: Booth, media: \(media), layout: print.yaml}\n".write(to: file, atomically: true, encoding: .utf8)
        var configuration = BoothConfiguration(dataDirectory: folder, simulate: true)
        try configuration.apply(file: file.path)
        return (configuration, folder)
    }

    @Test("The layout is the sheet at the printer's resolution: its background around, the picture in each slot, turned as its canvas")
    func page() throws {
        let (configuration, folder) = try Self.configuration(
            media: "4x6",
            layout: """
                canvas: 1800x1200
                background: "#D02020"
                slots:
                  - {x: 60, y: 60, width: 800, height: 1080}
                  - {x: 940, y: 60, width: 800, height: 1080}
                texts:
                  - {text: "{caption}", x: 0, y: 1140, width: 1800, size: 40}
                """)
        defer { try? FileManager.default.removeItem(at: folder) }
        let settings = try #require(try configuration.printSettings())
        #expect(settings.layout?.slots.count == 2)
        let pages = PageMaker(media: settings.media, margin: settings.margin, layout: settings.layout, defaultFont: settings.defaultFont)
        var green = Bitmap(width: 400, height: 540)
        for index in stride(from: 0, to: green.pixels.count, by: 3) { green.pixels[index + 1] = 200 }
        let picture = try JPEGEncoder().encode(green, quality: 90)
        let jpeg = try pages.page(of: picture, width: 400, height: 540, dpi: 150, blanks: [.caption: "Ada"])
        let page = try JPEGDecoder().decode(jpeg)
        #expect((page.width, page.height) == (900, 600), "6x4 in, landscape as the canvas, at 150 dpi")
        func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(page.pixels[(y * page.width + x) * 3..<(y * page.width + x) * 3 + 3]) }
        let corner = pixel(10, 10)
        #expect(corner[0] > 180 && corner[1] < 60, "the layout's background: \(corner)")
        for x in [215, 685] {
            let slot = pixel(x, 300)
            #expect(slot[1] > 160 && slot[0] < 60, "the picture in the slot around x \(x): \(slot)")
        }
    }

    @Test("A canvas within 2% of the paper's shape fits and is drawn to the sheet's edges, each way by its own ratio")
    func nearlyTheShape() throws {
        let media = try #require(PrintMedia(named: "4x6"))
        let slot = PhotoSlot(x: 0, y: 1700, width: 1220, height: 100)
        let near = Layout(name: "near", width: 1220, height: 1800, slots: [slot])
        #expect(PageMaker.fits(near, on: media) && !PageMaker.fits(Layout(name: "far", width: 1300, height: 1800, slots: [slot]), on: media))
        let page = PageMaker.scaled(near, to: media, dpi: 300)
        #expect((page.width, page.height) == (1200, 1800))
        let scaled = try #require(page.slots.first)
        #expect(scaled.x + scaled.width == 1200 && scaled.y + scaled.height == 1800, "the slot ends at the sheet's edges: \(scaled)")
    }

    @Test("A canvas not of the paper's shape, or a layout file with a mistake, stops the start with print.layout")
    func refused() throws {
        let square = "canvas: 1000x1000\nslots:\n  - {x: 0, y: 0, width: 1000, height: 1000}\n"
        let (wrongShape, folder) = try Self.configuration(media: "4x6", layout: square)
        defer { try? FileManager.default.removeItem(at: folder) }
        let shape = #expect(throws: ConfigurationError.self) { try wrongShape.printSettings() }
        #expect(shape?.key == "print.layout" && shape?.description.contains("not the shape of the paper") == true, "\(String(describing: shape))")
        let (broken, other) = try Self.configuration(media: "4x6", layout: "canvas: 1200x1800\nslots: 3\n")
        defer { try? FileManager.default.removeItem(at: other) }
        let mistake = #expect(throws: ConfigurationError.self) { try broken.printSettings() }
        #expect(mistake?.key == "print.layout" && mistake?.description.contains("print.yaml:2") == true, "\(String(describing: mistake))")
    }
}
