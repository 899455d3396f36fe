import BoothCore
import BoothImaging
import Foundation
import Synchronization
import Testing

@testable import BoothScreen

/// Solid colours that survive JPEG and scaling, one per row of a page.
private let rowColours: [PixelColor] = [
    PixelColor(red: 220, green: 30, blue: 30), PixelColor(red: 30, green: 200, blue: 40),
    PixelColor(red: 40, green: 60, blue: 220), PixelColor(red: 230, green: 220, blue: 30),
    PixelColor(red: 200, green: 40, blue: 210),
]

/// Gallery content as the booth fills it in.
private enum GalleryFixtures {
    static func jpeg(width: Int, height: Int, colour: PixelColor) throws -> Data {
        let pixels = (0..<width * height).flatMap { _ in [colour.red, colour.green, colour.blue] }
        return try JPEGEncoder().encode(Bitmap(width: width, height: height, format: .rgb, pixels: pixels), quality: 90)
    }

    static func entry(_ caption: String) -> GalleryEntry {
        GalleryEntry(id: UUID(), caption: Caption(sanitizing: caption)!, takenOn: "Taken on 22/11/2026 at 14h05")
    }

    /// Photo `index` of `count` selected, with the page's rows filled, each thumbnail a solid
    /// colour of `rowColours`.
    static func list(index: Int, count: Int, captions: [String]? = nil) throws -> GalleryList {
        var list = GalleryList(position: GalleryPosition(index: index, count: count))
        for (offset, photoIndex) in list.page.enumerated() {
            let caption = captions?[offset] ?? "Photo \(count - photoIndex)"
            list.rows.append(.init(entry: entry(caption), thumbnail: try jpeg(width: 320, height: 180, colour: rowColours[offset])))
        }
        return list
    }

    /// Photo `index` of `count` full screen, its original a solid `colour`.
    static func photo(_ caption: String, width: Int, height: Int, colour: PixelColor, index: Int = 0, count: Int = 1) throws -> GalleryPhoto {
        let entry = entry(caption)
        let originals = Originals([entry.id: try jpeg(width: width, height: height, colour: colour)])
        return GalleryPhoto(position: GalleryPosition(index: index, count: count), entry: entry, originals: originals)
    }
}

/// Originals held in memory, as the booth's library gives them to the screens; it counts the
/// reads, and a photo it does not hold cannot be read.
private final class Originals: PhotoOriginals {
    private let originals: [UUID: Data]
    private let readCount = Mutex(0)

    init(_ originals: [UUID: Data]) {
        self.originals = originals
    }

    var reads: Int { readCount.withLock { $0 } }

    func original(of id: UUID) throws -> Data {
        readCount.withLock { $0 += 1 }
        guard let data = originals[id] else { throw CocoaError(.fileNoSuchFile) }
        return data
    }

    func location(of id: UUID) -> String { "memory:\(id.lowercased)" }
}

extension PixelColor {
    /// Whether this is `other` give or take what JPEG and scaling change.
    fileprivate func isClose(to other: PixelColor, tolerance: Int = 24) -> Bool {
        abs(Int(red) - Int(other.red)) <= tolerance && abs(Int(green) - Int(other.green)) <= tolerance
            && abs(Int(blue) - Int(other.blue)) <= tolerance
    }
}

@Suite("Gallery screens")
struct GalleryScreenTests {
    @Test("The list shows a page of thumbnails in their boxes, the selected row highlighted, text in every row", arguments: ScreenPainterTests.sizes)
    func list(width: Int, height: Int) throws {
        let list = try GalleryFixtures.list(index: 6, count: 12)
        #expect(list.page == 5..<10)
        let canvas = try ScreenFixtures.paint(.gallery(list), width: width, height: height)
        let layout = Layout(canvas: canvas)
        for offset in 0..<5 {
            let frame = ScreenPainter.rowFrame(offset, layout)
            let box = ScreenPainter.thumbnailBox(in: frame)
            #expect(canvas[box.midX, box.midY].isClose(to: rowColours[offset]), "row \(offset)'s thumbnail at \(width)x\(height)")
            // 16:9 in a 3:2 box: bars above and below, the picture across the whole width.
            #expect(canvas[box.midX, box.y].brightness < 10 && canvas[box.x + 2, box.midY].isClose(to: rowColours[offset]))
            let selected = offset == 1
            let bar = PixelRect(x: frame.x, y: frame.y, width: max(4, frame.height / 16), height: frame.height)
            #expect(canvas.count(in: bar) { $0 == Palette.standard.accent } == (selected ? bar.width * bar.height : 0), "row \(offset)'s accent bar")
            #expect(canvas[frame.maxX - 2, frame.midY] == (selected ? Palette.standard.selection : Palette.standard.background))
            let text = PixelRect(x: box.maxX, y: frame.y, width: frame.maxX - box.maxX, height: frame.height)
            let ink = selected ? Palette.standard.accent : PixelColor.white
            #expect(canvas.count(in: text) { $0 == ink } > 30, "row \(offset)'s caption at \(width)x\(height)")
            #expect(canvas.count(in: text) { $0 == Palette.standard.secondary } > 10, "row \(offset)'s time at \(width)x\(height)")
        }
        let counter = PixelRect(x: width / 2, y: 0, width: width / 2, height: height * 14 / 100)
        #expect(canvas.count(in: counter) { $0 == Palette.standard.secondary } > 20, "the position \"7 of 12\"")
        let hint = PixelRect(x: 0, y: height * 88 / 100, width: width, height: height * 12 / 100)
        #expect(canvas.count(in: hint) { $0 == Palette.standard.secondary } > 20, "the hint line")
    }

    @Test("Moving within a page moves the highlight and nothing else; the position changes")
    func movingTheSelection() throws {
        let first = try ScreenFixtures.paint(.gallery(try GalleryFixtures.list(index: 5, count: 12)))
        var moved = try GalleryFixtures.list(index: 5, count: 12)
        moved.position.index = 7
        let second = try ScreenFixtures.paint(.gallery(moved))
        let layout = Layout(canvas: first)
        for offset in [1, 3, 4] {
            let frame = ScreenPainter.rowFrame(offset, layout)
            #expect(first.pixels(in: frame) == second.pixels(in: frame), "row \(offset) is not selected in either")
        }
        for offset in [0, 2] {
            let frame = ScreenPainter.rowFrame(offset, layout)
            #expect(first.pixels(in: frame) != second.pixels(in: frame), "row \(offset) lost or gained the highlight")
        }
        let counter = PixelRect(x: 640, y: 0, width: 640, height: 800 * 14 / 100)
        #expect(first.pixels(in: counter) != second.pixels(in: counter))
    }

    @Test("Long captions stay inside their rows and the margins, at every size", arguments: ScreenPainterTests.sizes)
    func longCaptions(width: Int, height: Int) throws {
        let long = String(repeating: "W", count: 64)
        let list = try GalleryFixtures.list(index: 0, count: 3, captions: [long, long, long])
        let canvas = try ScreenFixtures.paint(.gallery(list), width: width, height: height)
        let margin = width / 20
        for strip in [PixelRect(x: 0, y: 0, width: margin, height: height), PixelRect(x: width - margin, y: 0, width: margin, height: height)] {
            #expect(canvas.count(in: strip) { $0 != Palette.standard.background } == 0, "the list reaches the edge at \(width)x\(height)")
        }
    }

    @Test("A thumbnail that does not decode leaves a black box; the other rows are drawn")
    func brokenThumbnail() throws {
        var list = try GalleryFixtures.list(index: 0, count: 3)
        list.rows[1].thumbnail = Data("not a JPEG".utf8)
        let canvas = try ScreenFixtures.paint(.gallery(list))
        let layout = Layout(canvas: canvas)
        let broken = ScreenPainter.thumbnailBox(in: ScreenPainter.rowFrame(1, layout))
        #expect(canvas.count(in: broken) { $0 != .black } == 0)
        let fine = ScreenPainter.thumbnailBox(in: ScreenPainter.rowFrame(2, layout))
        #expect(canvas[fine.midX, fine.midY].isClose(to: rowColours[2]))
    }

    @Test("An empty library shows a friendly message instead of rows, at every size", arguments: ScreenPainterTests.sizes)
    func emptyLibrary(width: Int, height: Int) throws {
        let empty = try ScreenFixtures.paint(.gallery(GalleryList(position: GalleryPosition(index: 0, count: 0))), width: width, height: height)
        let middle = PixelRect(x: 0, y: height * 30 / 100, width: width, height: height * 40 / 100)
        #expect(empty.rows(in: middle) { $0 == .white }.count > height / 20, "the headline")
        #expect(empty.count(in: middle) { $0 == Palette.standard.accent } > 50, "what to do about it")
        #expect(empty.count(in: empty.bounds) { $0 == Palette.standard.selection } == 0, "no row is highlighted")
        let unreadable = try ScreenFixtures.paint(.gallery(GalleryList(position: GalleryPosition(index: 0, count: 3))), width: width, height: height)
        #expect(unreadable.pixels(in: middle) != empty.pixels(in: middle), "photos that cannot be read are not an empty library")
    }

    @Test("A photo full screen is fitted and letterboxed on black, with its caption in a band", arguments: ScreenPainterTests.sizes)
    func fullScreen(width: Int, height: Int) throws {
        let red = rowColours[0]
        // 2:1, wider than every screen: bars above and below.
        let photo = try GalleryFixtures.photo("Anna", width: 1600, height: 800, colour: red, index: 2, count: 9)
        let canvas = try ScreenFixtures.paint(.photo(photo), width: width, height: height)
        let picture = width / 2
        let bar = (height - picture) / 2
        #expect(canvas.count(in: PixelRect(x: 0, y: 0, width: width, height: bar - 1)) { $0 != .black } == 0, "the bar above")
        #expect(canvas[width / 2, bar + 2].isClose(to: red) && canvas[2, height / 2].isClose(to: red), "the picture fills the width")
        #expect(canvas[width / 2, height / 2].isClose(to: red))
        let band = ScreenPainter.photoBand(Layout(canvas: canvas))
        #expect(canvas.count(in: band) { $0 == .white } > 30, "the caption")
        #expect(canvas.count(in: band) { $0 == Palette.standard.secondary } > 30, "the time, position and hint")
        #expect(canvas.count(in: band) { $0.isClose(to: red, tolerance: 8) } == 0, "the band darkens the picture under it")
    }

    @Test("A tall photo is pillarboxed")
    func tallPhoto() throws {
        let canvas = try ScreenFixtures.paint(.photo(try GalleryFixtures.photo("Tall", width: 600, height: 800, colour: rowColours[2])))
        // 600x800 on 1280x800: 600 wide, 340 black on either side.
        #expect(canvas.count(in: PixelRect(x: 0, y: 0, width: 338, height: 600)) { $0 != .black } == 0)
        #expect(canvas.count(in: PixelRect(x: 1280 - 338, y: 0, width: 338, height: 600)) { $0 != .black } == 0)
        #expect(canvas[342, 300].isClose(to: rowColours[2]) && canvas[937, 300].isClose(to: rowColours[2]))
    }

    @Test("A missing or damaged original shows a message, not a crash")
    func unreadableOriginal() throws {
        let entry = GalleryFixtures.entry("Lost")
        let damaged = Originals([entry.id: Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3])])
        let missing = Originals([:])
        for (originals, what) in [(damaged, "a damaged original"), (missing, "a missing original"), (nil, "no original")] {
            let photo = GalleryPhoto(position: GalleryPosition(index: 0, count: 1), entry: entry, originals: originals)
            let canvas = try ScreenFixtures.paint(.photo(photo))
            let middle = PixelRect(x: 0, y: 300, width: 1280, height: 200)
            #expect(canvas.rows(in: middle) { $0 == .white }.count > 20, "the message about \(what)")
        }
    }

    @Test("A full-screen photo is read and decoded once: a repaint draws it again from the decode")
    func decodedOnce() throws {
        let painter = try ScreenPainter(keys: KeyLabels(view: "View"))
        let photo = try GalleryFixtures.photo("Kept", width: 1280, height: 800, colour: rowColours[1])
        var first = Canvas(width: 1280, height: 800)
        try painter.paint(.photo(photo), preview: nil, into: &first)
        var second = Canvas(width: 1280, height: 800)
        try painter.paint(.photo(photo), preview: nil, into: &second)
        #expect((photo.originals as? Originals)?.reads == 1)
        #expect(first == second)
        #expect(second[640, 300].isClose(to: rowColours[1]))
    }

    @Test("The hints name the keys of the keypad in use")
    func keyNames() throws {
        let list = try GalleryFixtures.list(index: 0, count: 2)
        var keyboard = Canvas(width: 1280, height: 800)
        try ScreenPainter(keys: KeyLabels(view: "V")).paint(.gallery(list), preview: nil, into: &keyboard)
        var phone = Canvas(width: 1280, height: 800)
        try ScreenPainter(keys: KeyLabels(for: KeyBindings(layout: .phone, viewKey: "0"))).paint(.gallery(list), preview: nil, into: &phone)
        let hint = PixelRect(x: 0, y: 800 * 88 / 100, width: 1280, height: 800 * 12 / 100)
        #expect(keyboard.pixels(in: hint) != phone.pixels(in: hint))
        #expect(
            keyboard.pixels(in: PixelRect(x: 0, y: 0, width: 1280, height: 700)) == phone.pixels(in: PixelRect(x: 0, y: 0, width: 1280, height: 700)))
    }
}
