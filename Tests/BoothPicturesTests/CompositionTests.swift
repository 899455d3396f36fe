import BoothImaging
import BoothScreen
import Foundation
import Testing

@testable import BoothPictures

private let font = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"

/// A shot of one colour, as the camera's JPEGs are.
private func shot(_ color: PixelColor, width: Int = 1920, height: Int = 1080) throws -> Data {
    let pixels = (0..<width * height).flatMap { _ in [color.red, color.green, color.blue] }
    return try JPEGEncoder().encode(Bitmap(width: width, height: height, format: .rgb, pixels: pixels), quality: 90)
}

/// A shot whose left half is `left` and right half `right`.
private func halves(_ left: PixelColor, _ right: PixelColor, width: Int = 800, height: Int = 400) throws -> Data {
    let pixels = (0..<width * height).flatMap { index in
        let color = index % width < width / 2 ? left : right
        return [color.red, color.green, color.blue]
    }
    return try JPEGEncoder().encode(Bitmap(width: width, height: height, format: .rgb, pixels: pixels), quality: 95)
}

/// Whether `a` and `b` differ by at most `tolerance` in every channel.
private func near(_ a: PixelColor, _ b: PixelColor, within tolerance: Int = 6) -> Bool {
    abs(Int(a.red) - Int(b.red)) <= tolerance && abs(Int(a.green) - Int(b.green)) <= tolerance
        && abs(Int(a.blue) - Int(b.blue)) <= tolerance
}

private let red = PixelColor(red: 220, green: 20, blue: 30)
private let green = PixelColor(red: 20, green: 200, blue: 40)
private let blue = PixelColor(red: 30, green: 40, blue: 210)
private let yellow = PixelColor(red: 240, green: 220, blue: 10)

private func composer(_ layout: Layout) throws -> PictureComposer {
    try PictureComposer(LoadedLayout(layout), defaultFont: font)
}

/// The number of pixels in the rectangle darker than mid-grey.
private func inked(_ canvas: Canvas, x: Range<Int>, y: Range<Int>) -> Int {
    y.reduce(0) { count, row in
        count + x.count { column in Int(canvas[column, row].red) + Int(canvas[column, row].green) < 256 }
    }
}

@Suite struct CompositionTests {
    @Test func eachShotFillsItsSlotInOrder() throws {
        let strip = try composer(Layout.builtIn(named: "strip-4")!)
        let colors = [red, green, blue, yellow]
        let canvas = try strip.canvas(shots: colors.map { try shot($0) }, blanks: [:])
        #expect(canvas.width == 600 && canvas.height == 1800)
        for (slot, color) in zip(strip.layout.layout.slots, colors) {
            // Covered edge to edge: the corners are the shot's, one pixel in.
            for (x, y) in [
                (slot.x + 1, slot.y + 1), (slot.x + slot.width - 2, slot.y + slot.height - 2), (slot.x + slot.width / 2, slot.y + slot.height / 2),
            ] {
                #expect(near(canvas[x, y], color), "slot at y \(slot.y): \(canvas[x, y]) at (\(x), \(y))")
            }
            // The margin is the white background.
            #expect(canvas[slot.x - 10, slot.y + 10] == .white)
        }
    }

    @Test func theJPEGIsTheCanvasSize() throws {
        let strip = try composer(Layout.builtIn(named: "grid-2x2")!)
        let jpeg = try strip.jpeg(shots: [try shot(red), try shot(blue)], blanks: [.event: "Anna & Ben"])
        let header = try JPEGDecoder().header(of: jpeg)
        #expect(header.width == 1800 && header.height == 1200)
        // A slot with no shot shows the background.
        let decoded = try JPEGDecoder().decode(jpeg)
        let offset = (800 * decoded.width + 1300) * 3
        #expect(decoded.pixels[offset] > 240 && decoded.pixels[offset + 2] > 240)
    }

    @Test func coverCutsTheEdgesAndContainLeavesBands() throws {
        // A 2:1 shot, left half red and right half blue, in a square slot.
        let shot = try halves(red, blue)
        var layout = Layout(
            name: "test", width: 400, height: 200, background: .color(.black),
            slots: [PhotoSlot(x: 0, y: 0, width: 200, height: 200, fit: .cover), PhotoSlot(x: 200, y: 0, width: 200, height: 200, fit: .contain)])
        let canvas = try composer(layout).canvas(shots: [shot, shot], blanks: [:])
        // Cover: the shot's middle square, red then blue, from the top to the bottom.
        #expect(near(canvas[5, 2], red) && near(canvas[5, 197], red))
        #expect(near(canvas[195, 2], blue) && near(canvas[195, 197], blue))
        // Contain: the whole shot, 200x100 in the middle, black bands above and below.
        #expect(canvas[300, 20] == .black && canvas[300, 180] == .black)
        #expect(near(canvas[203, 100], red) && near(canvas[397, 100], blue))
        layout.slots[0].fit = .contain
        let contained = try composer(layout).canvas(shots: [shot], blanks: [:])
        #expect(contained[100, 20] == .black)
    }

    @Test func aTurnedSlotTurnsItsShotAboutItsCentre() throws {
        // A wide slot turned a quarter clockwise: the shot's left half ends up on top.
        let layout = Layout(
            name: "test", width: 400, height: 400, background: .color(.white),
            slots: [PhotoSlot(x: 100, y: 150, width: 200, height: 100, rotation: 90)])
        let canvas = try composer(layout).canvas(shots: [try halves(red, blue)], blanks: [:])
        #expect(near(canvas[200, 120], red, within: 10), "\(canvas[200, 120])")
        #expect(near(canvas[200, 280], blue, within: 10), "\(canvas[200, 280])")
        // Outside the turned shot, where the unturned slot was, the background shows.
        #expect(canvas[120, 200] == .white && canvas[280, 200] == .white)
        // A slight tilt smooths its edges: pixels between the shot and the background.
        let tilted = Layout(
            name: "test", width: 400, height: 400, background: .color(.white),
            slots: [PhotoSlot(x: 100, y: 100, width: 200, height: 200, rotation: 5)])
        let edge = try composer(tilted).canvas(shots: [try shot(.black, width: 400, height: 400)], blanks: [:])
        let shades = (0..<400).reduce(0) { count, y in count + (0..<400).count { x in (30..<225).contains(edge[x, y].red) } }
        #expect(shades > 400, "the edges have intermediate shades")
    }

    @Test func theOverlayIsLaidOverWithItsTransparency() throws {
        let folder = try LayoutFolder()
        // Opaque black in the top quarter, half-transparent white in the next, clear below.
        try folder.png("frame.png", width: 100, height: 100) { _, y in
            y < 25 ? (0, 0, 0, 255) : y < 50 ? (255, 255, 255, 128) : (0, 0, 0, 0)
        }
        let layout = try LayoutFile.read(
            folder.write("frame.yaml", "canvas: 200x200\noverlay: frame.png\nslots:\n  - {x: 0, y: 0, width: 200, height: 200}\n"))
        let canvas = try composer(layout).canvas(shots: [try shot(blue, width: 200, height: 200)], blanks: [:])
        // Stretched to the canvas: each band is twice as tall.
        #expect(canvas[100, 20] == .black)
        let mixed = canvas[100, 75]
        #expect(near(mixed, PixelColor(red: 143, green: 148, blue: 233), within: 8), "\(mixed)")
        #expect(near(canvas[100, 150], blue), "\(canvas[100, 150])")
    }

    @Test func textsAreDrawnWithTheirBlanksFilledAndAligned() throws {
        let layout = Layout(
            name: "test", width: 600, height: 300, background: .color(.white),
            slots: [PhotoSlot(x: 0, y: 0, width: 10, height: 10)],
            texts: [
                TextItem(text: "{event}", x: 0, y: 100, width: 600, size: 40, alignment: .right),
                TextItem(text: "{caption}", x: 0, y: 200, width: 600, size: 40, alignment: .left),
            ])
        let composer = try composer(layout)
        let named = composer.compose([], blanks: [.event: "Anna & Ben", .caption: "Alice"])
        // Right-aligned: ink in the right half of its line, none in the left.
        #expect(inked(named, x: 300..<600, y: 100..<150) > 100)
        #expect(inked(named, x: 0..<300, y: 100..<150) == 0)
        #expect(inked(named, x: 0..<300, y: 200..<250) > 100)
        // A blank with no value prints nothing.
        let unnamed = composer.compose([], blanks: [.event: "Anna & Ben"])
        #expect(inked(unnamed, x: 0..<600, y: 190..<260) == 0)
        // A name too long for its box is set smaller, and stays inside it.
        let long = composer.compose([], blanks: [.caption: String(repeating: "Wolfgang Amadeus ", count: 6)])
        #expect(inked(long, x: 0..<600, y: 200..<250) > 100)
    }

    @Test func aBackgroundPictureShowsAroundTheShots() throws {
        let folder = try LayoutFolder()
        try folder.png("paper.png", width: 20, height: 20) { _, _ in (0, 128, 255, 255) }
        let layout = try LayoutFile.read(
            folder.write("paper.yaml", "canvas: 300x300\nbackground: paper.png\nslots:\n  - {x: 100, y: 100, width: 100, height: 100}\n"))
        let canvas = try composer(layout).canvas(shots: [try shot(blue, width: 100, height: 100)], blanks: [:])
        #expect(canvas[10, 10] == PixelColor(red: 255, green: 128, blue: 0))
        #expect(near(canvas[150, 150], blue))
    }

    @Test func aPNGKeepsItsPixelsThroughEncoding() throws {
        let pixels: [UInt8] = [10, 20, 30, 255, 0, 0, 0, 0, 50, 40, 30, 128, 1, 2, 3, 4]
        let picture = TranslucentPicture(premultiplied: Bitmap(width: 2, height: 2, format: .bgrx, pixels: pixels))
        let back = try TranslucentPicture(png: picture.png())
        #expect(back.width == 2 && back.height == 2)
        for (a, b) in zip(back.bitmap.pixels, pixels) { #expect(abs(Int(a) - Int(b)) <= 1) }
        #expect(throws: ImageError.self) { try TranslucentPicture(png: Data("GIF89a".utf8)) }
    }

    @Test("Each slot's pose guide is the part of the overlay over it; a slot the overlay leaves clear has none")
    func poseGuides() throws {
        let folder = try LayoutFolder()
        // A frame 10 pixels wide around the top slot only.
        try folder.png("frame.png", width: 200, height: 400) { x, y in
            let inTopSlot = (20..<180).contains(x) && (20..<180).contains(y)
            let aroundTop = (10..<190).contains(x) && (10..<190).contains(y)
            return aroundTop && !inTopSlot ? (0, 0, 255, 255) : (0, 0, 0, 0)
        }
        let layout = try LayoutFile.read(
            folder.write(
                "two.yaml",
                "canvas: 200x400\noverlay: frame.png\nslots:\n  - {x: 10, y: 10, width: 180, height: 180}\n  - {x: 10, y: 210, width: 180, height: 180}\n"
            ))
        let guides = try LoadedLayout(layout).poseGuides
        #expect(guides.count == 2)
        let top = try #require(guides[0])
        #expect(top.width == 180 && top.height == 180)
        // Its edge is the frame (red, opaque); its middle is clear.
        #expect(Array(top.bitmap.pixels[0..<4]) == [0, 0, 255, 255])
        let middle = (90 * 180 + 90) * 4
        #expect(top.bitmap.pixels[middle + 3] == 0)
        #expect(guides[1] == nil)
    }
}
