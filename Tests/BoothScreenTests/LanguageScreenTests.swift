import BoothCore
import Foundation
import Testing

@testable import BoothScreen

@Suite("Screens in the booth's language")
struct LanguageScreenTests {
    /// The screens a guest reads most, by name: the main screen, naming, saved, the gallery
    /// (full and empty) and a fault.
    static func screens() -> [(name: String, content: ScreenContent)] {
        var list = GalleryList(position: GalleryPosition(index: 0, count: 2))
        list.rows = ["Anna", "Ben"].map { name in
            GalleryList.Row(entry: GalleryEntry(id: UUID(), caption: Caption(sanitizing: name)!, takenOn: "23/11/2026 14:04"), thumbnail: Data())
        }
        return [
            ("ready", .ready), ("naming", .naming(typed: "", placeholder: .placeholder(number: 7), photo: UUID())),
            ("saved", .saved(Caption(sanitizing: "Anna")!, photo: UUID())), ("gallery", .gallery(list)),
            ("empty gallery", .gallery(GalleryList(position: GalleryPosition(index: 0, count: 0)))),
            ("fault", .fault(.storageFull)),
        ]
    }

    func paint(_ content: ScreenContent, in texts: BoothTexts) throws -> Canvas {
        var canvas = Canvas(width: 1280, height: 800)
        try ScreenPainter(keys: .keyboard(in: texts), texts: texts).paint(content, preview: nil, into: &canvas)
        return canvas
    }

    @Test("French and German screens show their own words, not English's", arguments: [BoothLanguage.french, .german])
    func translated(language: BoothLanguage) throws {
        for (name, content) in Self.screens() {
            let english = try paint(content, in: .english)
            let translated = try paint(content, in: language.texts)
            #expect(translated != english, "\(language) \(name)")
            #expect(translated.count(in: translated.bounds) { $0.brightness > 150 } > 100, "\(language) \(name) shows text")
        }
    }

    @Test("The words of the main, gallery and fault screens all come from the table: with every template empty, none is left")
    func everyWordFromTheTable() throws {
        let silent = BoothTexts.english.mapping { _ in "" }
        for (name, content) in Self.screens() where ["ready", "empty gallery", "fault"].contains(name) {
            let canvas = try paint(content, in: silent)
            // Below the fault screen's accent bar, which spans the top.
            let below = PixelRect(x: 0, y: 800 / 30, width: 1280, height: 800 - 800 / 30)
            #expect(canvas.count(in: below) { $0.brightness > 100 } == 0, "\(name) draws words of its own")
        }
        // The gallery's title, position and keys go; its rows (names and times) are values.
        guard case .gallery(let list) = Self.screens()[3].content else { return }
        let hint = PixelRect(x: 0, y: 800 * 88 / 100, width: 1280, height: 800 * 12 / 100)
        let title = PixelRect(x: 0, y: 0, width: 1280, height: 800 * 13 / 100)
        let canvas = try paint(.gallery(list), in: silent)
        #expect(canvas.count(in: hint) { $0.brightness > 100 } == 0 && canvas.count(in: title) { $0.brightness > 100 } == 0)
    }
}
