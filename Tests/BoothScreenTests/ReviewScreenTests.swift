import BoothCore
import BoothImaging
import Foundation
import Synchronization
import Testing

@testable import BoothScreen

/// The left half of the test's photo.
private let magenta = PixelColor(red: 200, green: 40, blue: 200)
/// The right half, but for a pure white square in its middle.
private let teal = PixelColor(red: 20, green: 160, blue: 150)

/// A photo as the photo writer decodes it for a 1280x800 screen: 1280x720, `.bgrx`, magenta on
/// the left, teal on the right with a pure white square (a shirt, a flash's glare).
private func shot(width: Int = 1280, height: Int = 720) -> Bitmap {
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    for y in 0..<height {
        for x in 0..<width {
            let white = x > width * 3 / 4 - width / 16 && x < width * 3 / 4 + width / 16 && abs(y - height / 2) < height / 8
            let colour = white ? PixelColor.white : x < width / 2 ? magenta : teal
            let offset = (y * width + x) * 4
            (pixels[offset], pixels[offset + 1], pixels[offset + 2], pixels[offset + 3]) = (colour.blue, colour.green, colour.red, 255)
        }
    }
    return Bitmap(width: width, height: height, format: .bgrx, pixels: pixels)
}

/// The photos whose pictures arrived, in order.
private final class Arrivals: Sendable {
    let ids = Mutex<[UUID]>([])
}

extension Canvas {
    /// The smallest rectangle holding every pixel of `colour`; `nil` when there is none.
    fileprivate func bounds(of colour: PixelColor) -> PixelRect? {
        bounds { $0 == colour }
    }

    /// The smallest rectangle holding every pixel that matches; `nil` when none does.
    fileprivate func bounds(where matches: (PixelColor) -> Bool) -> PixelRect? {
        var (left, top, right, bottom) = (width, height, -1, -1)
        for y in 0..<height {
            for x in 0..<width where matches(self[x, y]) {
                (left, top, right, bottom) = (min(left, x), min(top, y), max(right, x), max(bottom, y))
            }
        }
        guard right >= 0 else { return nil }
        return PixelRect(x: left, y: top, width: right - left + 1, height: bottom - top + 1)
    }
}

@Suite("Review pictures")
struct ReviewScreenTests {
    @Test("The naming screen shows the photo just taken, large, above the prompt and the name field", arguments: ScreenPainterTests.sizes)
    func naming(width: Int, height: Int) throws {
        let id = UUID()
        let reviews = ReviewPictures()
        reviews.add(ScreenPicture(still: shot()), of: id)
        let canvas = try ScreenFixtures.paint(
            .naming(typed: "Anna", placeholder: .placeholder(number: 4), photo: id), width: width, height: height, reviews: reviews)
        let left = try #require(canvas.bounds(of: magenta), "the photo's left half")
        let right = try #require(canvas.bounds(of: teal), "the photo's right half")
        #expect(left.height == right.height && left.maxX <= right.x + 1 && abs(left.width - right.width) <= 2, "the picture whole: \(left) \(right)")
        #expect(left.height >= height * 55 / 100, "large: \(left.height) of \(height) pixels high")
        #expect(abs((left.x + right.maxX) / 2 - width / 2) <= 2, "centred")
        let field = ScreenPainter.nameField(Layout(canvas: canvas))
        #expect(left.maxY < field.y, "above the name field")
        #expect(canvas.count(in: field) { $0 == .white } > 100, "the typed name still shows")
    }

    @Test("Before its picture arrives, the naming screen leaves the photo's place empty; nothing else moves")
    func namingBeforeThePicture() throws {
        let id = UUID()
        let reviews = ReviewPictures()
        let content = ScreenContent.naming(typed: "", placeholder: .placeholder(number: 4), photo: id)
        let waiting = try ScreenFixtures.paint(content, reviews: reviews)
        // Another shot's picture is not this one's.
        reviews.add(ScreenPicture(still: shot()), of: UUID())
        #expect(try ScreenFixtures.paint(content, reviews: reviews) == waiting)
        reviews.add(ScreenPicture(still: shot()), of: id)
        let shown = try ScreenFixtures.paint(content, reviews: reviews)
        let box = ScreenPainter.namingPhotoBox(Layout(canvas: shown))
        #expect(waiting.count(in: box) { $0 != waiting[0, 0] } == 0, "an empty place")
        #expect(shown.count(in: box) { $0 == magenta } > box.width * box.height / 4)
        let below = PixelRect(x: 0, y: box.maxY, width: shown.width, height: shown.height - box.maxY)
        #expect(shown.pixels(in: below) == waiting.pixels(in: below))
    }

    @Test("The saved screen shows the photo over its name, left of the QR code, which stays the only pure white", arguments: ScreenPainterTests.sizes)
    func saved(width: Int, height: Int) throws {
        let id = UUID()
        let reviews = ReviewPictures()
        reviews.add(ScreenPicture(still: shot()), of: id)
        let link = "http://booth.local:8080/photos/\(id.lowercased)"
        let canvas = try ScreenFixtures.paint(
            .saved(Caption(sanitizing: "Anna")!, photo: id, link: PhotoLink(page: link)), width: width, height: height, reviews: reviews)
        let left = try #require(canvas.bounds(of: magenta))
        let right = try #require(canvas.bounds(of: teal))
        let code = try QRCode(encoding: link)
        let square = try #require(canvas.bounds(of: .white))
        #expect(square.width == square.height && square.width % (code.size + 2 * QRCode.quietZone) == 0, "the code's square: \(square)")
        #expect(right.maxX < square.x, "the photo is left of the code")
        #expect(left.height >= height * 40 / 100, "large: \(left.height) of \(height) pixels high")
        // The photo's white square is drawn a shade darker, inside its teal half.
        let glare = PixelRect(x: right.x + right.width / 2, y: right.midY, width: 1, height: 1)
        #expect(canvas.count(in: glare) { $0.brightness >= 250 && $0 != .white } == 1)
        let caption = try #require(canvas.bounds { $0.red > 200 && $0.green > 140 && $0.blue < 60 })
        #expect(caption.y > left.maxY, "the name under the photo")
    }

    @Test("The store keeps the last two shots until let go, and decodes for the largest screen registered")
    func store() {
        let reviews = ReviewPictures()
        #expect(reviews.screenSize == nil)
        let arrived = Arrivals()
        reviews.register(screen: PixelSize(width: 1280, height: 800)) { id in arrived.ids.withLock { $0.append(id) } }
        reviews.register(screen: PixelSize(width: 1366, height: 720)) { _ in }
        #expect(reviews.screenSize == PixelSize(width: 1366, height: 800))
        let ids = [UUID(), UUID(), UUID()]
        for id in ids { reviews.add(ScreenPicture(still: shot(width: 16, height: 9)), of: id) }
        #expect(arrived.ids.withLock { $0 } == ids)
        #expect(reviews.picture(of: ids[0]) == nil)
        #expect(reviews.picture(of: ids[1]) != nil && reviews.picture(of: ids[2]) != nil)
        // The booth, idle a while, lets go of them; the next shot's picture is kept again.
        reviews.removeAll()
        #expect(reviews.picture(of: ids[1]) == nil && reviews.picture(of: ids[2]) == nil)
        let next = UUID()
        reviews.add(ScreenPicture(still: shot(width: 16, height: 9)), of: next)
        #expect(reviews.picture(of: next) != nil)
    }

    @Test("A picture that arrives asks for a redraw only of a screen showing its photo")
    func redraw() {
        var schedule = RenderSchedule(previewInterval: .milliseconds(100))
        let id = UUID()
        let now = MonotonicInstant(nanoseconds: 1_000_000_000)
        schedule.show(.naming(typed: "", placeholder: .placeholder(number: 1), photo: id))
        _ = schedule.next(at: now)
        let otherPhoto = schedule.redraw(showingPhoto: UUID())
        #expect(!otherPhoto)
        guard case .sleep = schedule.next(at: now) else {
            Issue.record("nothing new to draw")
            return
        }
        let naming = schedule.redraw(showingPhoto: id)
        #expect(naming)
        guard case .render(.naming(_, _, id), nil) = schedule.next(at: now) else {
            Issue.record("the naming screen is drawn again")
            return
        }
        schedule.show(.saved(.placeholder(number: 1), photo: id))
        _ = schedule.next(at: now)
        let saved = schedule.redraw(showingPhoto: id)
        #expect(saved)
        schedule.show(.ready)
        let ready = schedule.redraw(showingPhoto: id)
        #expect(!ready)
    }

    @Test("A renderer draws the picture once it arrives, for the same content")
    func renderer() throws {
        let id = UUID()
        let reviews = ReviewPictures()
        var renderer = try ScreenRenderer(width: 640, height: 400, keys: KeyLabels(view: "v"), reviews: reviews, logger: ScreenFixtures.logger)
        let content = ScreenContent.saved(.placeholder(number: 2), photo: id)
        renderer.render(content)
        #expect(renderer.canvas.bounds(of: magenta) == nil)
        reviews.add(ScreenPicture(still: shot()), of: id)
        renderer.render(content)
        #expect(renderer.canvas.bounds(of: magenta) != nil)
    }
}
