import BoothCore
import Foundation
import Testing

@testable import BoothScreen

@Suite("The gallery while a name is found")
struct GallerySearchScreenTests {
    func paint(_ search: NameSearch?) throws -> Canvas {
        var list = GalleryList(position: GalleryPosition(index: 1, count: 3), search: search)
        list.rows = ["Anna", "Ben", "Carl"].map { name in
            GalleryList.Row(entry: GalleryEntry(id: UUID(), caption: Caption(sanitizing: name)!, takenOn: "23/11/2026"), thumbnail: Data())
        }
        var canvas = Canvas(width: 1280, height: 800)
        try ScreenPainter(keys: .keyboard).paint(.gallery(list), preview: nil, into: &canvas)
        return canvas
    }

    @Test("The name typed replaces the keys' hint, set apart in the accent colour; the rest of the list is unchanged")
    func typedName() throws {
        let hint = PixelRect(x: 0, y: 800 * 88 / 100, width: 1280, height: 800 * 12 / 100)
        let above = PixelRect(x: 0, y: 0, width: 1280, height: hint.y)
        let plain = try paint(nil)
        let finding = try paint(NameSearch(prefix: "Be"))
        let none = try paint(NameSearch(prefix: "Bex", matches: false))
        #expect(plain.pixels(in: above) == finding.pixels(in: above))
        #expect(plain.pixels(in: hint) != finding.pixels(in: hint) && finding.pixels(in: hint) != none.pixels(in: hint))
        let accent = { (pixel: PixelColor) in pixel.red > 200 && pixel.green > 120 && pixel.blue < 90 }
        #expect(plain.count(in: hint, where: accent) == 0)
        #expect(finding.count(in: hint, where: accent) > 20, "the typed letters stand out")
    }
}
