import BoothCore
import BoothImaging
import Foundation
import Testing

@testable import BoothScreen

/// Originals from memory.
private struct StoredOriginals: PhotoOriginals {
    let originals: [UUID: Data]

    func original(of id: UUID) throws -> Data {
        guard let data = originals[id] else { throw CocoaError(.fileNoSuchFile) }
        return data
    }

    func location(of id: UUID) -> String { "memory" }
}

/// A 4:3 photo in one colour, as a JPEG.
private func photo(_ red: UInt8, _ green: UInt8, _ blue: UInt8) throws -> Data {
    let pixels = (0..<640 * 480).flatMap { _ in [red, green, blue] }
    return try JPEGEncoder().encode(Bitmap(width: 640, height: 480, format: .rgb, pixels: pixels), quality: 90)
}

@Suite("Attract screen")
struct AttractScreenTests {
    @Test("A slide is the photo on the whole screen, its name and the invitation over the bottom", arguments: ScreenPainterTests.sizes)
    func slide(width: Int, height: Int) throws {
        let id = UUID()
        let originals = StoredOriginals(originals: [id: try photo(30, 160, 150)])
        let entry = GalleryEntry(id: id, caption: Caption(sanitizing: "Anna")!, takenOn: "today")
        let canvas = try ScreenFixtures.paint(.attract(AttractSlide(number: 3, entry: entry, originals: originals)), width: width, height: height)
        let band = ScreenPainter.attractBand(Layout(canvas: canvas))
        // The photo fills the height above the band: teal, give or take the JPEG.
        let above = PixelRect(x: width / 2 - width / 8, y: 0, width: width / 4, height: band.y)
        #expect(canvas.count(in: above) { abs(Int($0.green) - 160) < 8 && abs(Int($0.blue) - 150) < 8 } == above.width * above.height)
        #expect(canvas.count(in: band) { $0 == .white } > 50, "the photo's name")
        #expect(canvas.count(in: band) { $0.red > 200 && $0.green > 140 && $0.blue < 60 } > 50, "the button, set apart")
    }

    @Test("Without a photo to show, the slide is the invitation alone, and no apology")
    func noPhoto() throws {
        let empty = try ScreenFixtures.paint(.attract(AttractSlide(number: 0)))
        let missing = try ScreenFixtures.paint(
            .attract(
                AttractSlide(
                    number: 0, entry: GalleryEntry(id: UUID(), caption: .placeholder(number: 1), takenOn: "today"),
                    originals: StoredOriginals(originals: [:]))))
        #expect(empty == missing)
        #expect(empty.count(in: empty.bounds) { $0.red > 200 && $0.green > 140 && $0.blue < 60 } > 100)
        #expect(empty[5, 5] == empty[1270, 790], "the screen's background, no band")
    }

    @Test("Each slide shows its own photo")
    func slides() throws {
        let (first, second) = (UUID(), UUID())
        let originals = StoredOriginals(originals: [first: try photo(200, 40, 200), second: try photo(240, 220, 40)])
        let slides = [first, second].enumerated().map { number, id in
            ScreenContent.attract(
                AttractSlide(
                    number: number, entry: GalleryEntry(id: id, caption: .placeholder(number: number + 1), takenOn: ""), originals: originals))
        }
        let painted = try slides.map { try ScreenFixtures.paint($0) }
        #expect(painted[0][640, 300].red > 180 && painted[0][640, 300].green < 60)
        #expect(painted[1][640, 300].green > 200)
    }
}
