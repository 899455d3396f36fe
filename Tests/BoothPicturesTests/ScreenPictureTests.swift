import BoothCore
import BoothImaging
import BoothScreen
import Foundation
import Logging
import Testing

@testable import BoothPictures

/// A `size` x `size` frame of one colour: red `10 * (index + 1)`, so the order reads back.
private func plain(_ index: Int, size: Int = 8) -> Bitmap {
    Bitmap(
        width: size, height: size, format: .bgrx,
        pixels: (0..<(size * size)).flatMap { _ in [UInt8(0), UInt8(0), UInt8(10 * (index + 1)), UInt8(255)] })
}

/// The red of a `.bgrx` bitmap's pixel.
private func red(_ bitmap: Bitmap, x: Int = 0, y: Int = 0) -> UInt8 { bitmap.pixels[(y * bitmap.width + x) * 4 + 2] }

/// One image block of a hand-made GIF: a graphic control extension, then the image.
private func image(x: Int, y: Int, width: Int, height: Int, indices: [UInt8], delay: Int = 10, disposal: Int = 0, transparent: UInt8? = nil)
    -> [UInt8]
{
    var block: [UInt8] = [0x21, 0xF9, 0x04, UInt8(disposal << 2) | (transparent == nil ? 0 : 1), UInt8(delay), 0, transparent ?? 0, 0]
    block += [0x2C, UInt8(x), 0, UInt8(y), 0, UInt8(width), 0, UInt8(height), 0, 0]
    block += [UInt8](LZWEncoder.encode(indices, minimumCodeSize: 2))
    return block
}

/// A GIF of a 4x4 canvas with four colours (black, red, green, blue) and `images`.
private func gif(_ images: [[UInt8]]) -> Data {
    var bytes: [UInt8] = Array("GIF89a".utf8) + [4, 0, 4, 0, 0x81, 0, 0]
    bytes += [0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255]
    for image in images { bytes += image }
    return Data(bytes + [0x3B])
}

@Suite("Animations on the booth's screen")
struct ScreenPictureTests {
    @Test("A boomerang's frames are decoded once each and play forward then backward, each for its delay")
    func boomerang() throws {
        let gif = AnimatedGIF.encode((0..<10).map { plain($0) }, order: AnimatedGIF.boomerang(10), delay: 8)
        let picture = try GIFFile(gif).screenPicture()
        #expect(picture.frames.count == 10, "the way back is the same ten pictures")
        #expect(picture.sequence.map(\.frame) == AnimatedGIF.boomerang(10))
        #expect(picture.frames.map { Int(red($0)) / 10 - 1 } == Array(0..<10))
        #expect(picture.sequence.allSatisfy { $0.duration == .milliseconds(80) } && picture.loopDuration == .milliseconds(80 * 18))
        // Time picks the frame, and says when the next comes; the loop starts again.
        #expect(picture.frame(at: .zero) == (0, .milliseconds(80)))
        #expect(picture.frame(at: .milliseconds(85)) == (1, .milliseconds(160)))
        #expect(picture.frame(at: .milliseconds(80 * 10 + 1)).frame == 8, "on its way back")
        #expect(picture.frame(at: .milliseconds(80 * 18 + 1)) == (0, .milliseconds(80 * 19)))
        #expect(ScreenPicture(still: plain(0)).frame(at: .seconds(100)) == (0, nil))
    }

    @Test("Frames are made smaller for a smaller screen, never larger, and a long animation keeps what fits")
    func sizes() throws {
        let gif = AnimatedGIF.encode((0..<6).map { plain($0) }, delay: 10)
        #expect(try GIFFile(gif).screenPicture(fitting: PixelSize(width: 4, height: 4)).frames.allSatisfy { $0.width == 4 && $0.height == 4 })
        #expect(try GIFFile(gif).screenPicture(fitting: PixelSize(width: 100, height: 50)).width == 8)
        let limited = try GIFFile(gif).screenPicture(byteLimit: 8 * 8 * 4 * 3)
        #expect(limited.frames.count == 3 && limited.sequence.map(\.frame) == [0, 1, 2])
    }

    @Test("Transparent pixels show the frame before; disposal 2 clears an image's rectangle to black")
    func composition() throws {
        let red = image(x: 0, y: 0, width: 4, height: 4, indices: [UInt8](repeating: 1, count: 16))
        // A 2x2 image at (1, 1): green where it is not transparent (index 0), then cleared.
        let green = image(x: 1, y: 1, width: 2, height: 2, indices: [0, 2, 2, 0], disposal: 2, transparent: 0)
        let blue = image(x: 0, y: 0, width: 1, height: 1, indices: [3], delay: 1)
        let picture = try GIFFile(gif([red, green, blue])).screenPicture()
        #expect(picture.frames.count == 3)
        let second = picture.frames[1]
        #expect(Array(second.pixels[((1 * 4 + 1) * 4)..<((1 * 4 + 1) * 4 + 3)]) == [0, 0, 255], "transparent: the red under it")
        #expect(Array(second.pixels[((1 * 4 + 2) * 4)..<((1 * 4 + 2) * 4 + 3)]) == [0, 255, 0])
        let third = picture.frames[2]
        #expect(Array(third.pixels[0..<3]) == [255, 0, 0], "the blue pixel")
        #expect(Array(third.pixels[((2 * 4 + 2) * 4)..<((2 * 4 + 2) * 4 + 3)]) == [0, 0, 0], "cleared after the green image")
        #expect(Array(third.pixels[((3 * 4 + 3) * 4)..<((3 * 4 + 3) * 4 + 3)]) == [0, 0, 255], "outside it, the red stays")
        // A delay under two hundredths plays as a tenth of a second, as browsers play it.
        #expect(picture.sequence.map(\.duration) == [.milliseconds(100), .milliseconds(100), .milliseconds(100)])
    }

    @Test("A GIF too large to show is refused with why, before any frame is allocated")
    func tooLarge() throws {
        var bytes = [UInt8](gif([image(x: 0, y: 0, width: 1, height: 1, indices: [1])]))
        bytes[6...9] = [0xFF, 0xFF, 0xFF, 0xFF]
        #expect(throws: ImageError.undecodable) { try GIFFile(Data(bytes)).screenPicture() }
        #expect(throws: ImageError.undecodable) { try GIFFile(Data(bytes)).firstFrame() }
    }

    @Test("The gallery plays an animation full screen: the frame of the moment, and when the next is due")
    func galleryPlays() throws {
        let entry = GalleryEntry(id: UUID(), caption: .placeholder(number: 1), takenOn: "today")
        let gif = AnimatedGIF.encode([plain(4, size: 64), plain(19, size: 64)], delay: 25)
        let photo = GalleryPhoto(position: GalleryPosition(index: 0, count: 1), entry: entry, originals: Originals(gif: gif, id: entry.id))
        let painter = try ScreenPainter(keys: KeyLabels(view: "v"))
        let start = MonotonicInstant(nanoseconds: 5_000_000_000)
        var canvas = Canvas(width: 640, height: 400)
        let first = try painter.paint(.photo(photo), preview: nil, at: start, into: &canvas)
        #expect(first == start + .milliseconds(250))
        #expect(canvas[320, 200].red == 50)
        // Enlarged to the screen's height, not left at 64 pixels.
        #expect(canvas[320, 60].red == 50 && canvas[320 - 150, 200].red == 50)
        let second = try painter.paint(.photo(photo), preview: nil, at: start + .milliseconds(260), into: &canvas)
        #expect(canvas[320, 200].red == 200 && second == start + .milliseconds(500))
        try painter.paint(.photo(photo), preview: nil, at: start + .milliseconds(510), into: &canvas)
        #expect(canvas[320, 200].red == 50, "it loops")
        // A still stays: no next frame.
        #expect(try painter.paint(.ready, preview: nil, at: start, into: &canvas) == nil)
    }

    @Test("The naming screen plays an animation's review picture, and the schedule draws its next frame when due")
    func namingPlays() throws {
        let id = UUID()
        let reviews = ReviewPictures()
        let gif = AnimatedGIF.encode([plain(4, size: 64), plain(19, size: 64)], delay: 25)
        reviews.add(try ShotDecoder(screen: PixelSize(width: 640, height: 400)).decode(gif).review, of: id)
        var renderer = try ScreenRenderer(width: 640, height: 400, keys: KeyLabels(view: "v"), reviews: reviews, logger: Logger(label: "test"))
        var schedule = RenderSchedule(previewInterval: .milliseconds(100))
        let start = MonotonicInstant(nanoseconds: 1_000_000_000)
        schedule.show(.naming(typed: "", placeholder: .placeholder(number: 1), photo: id))
        var reds: [UInt8] = []
        var now = start
        // Eight steps of the render thread: each drawing says when to draw again.
        for _ in 0..<8 {
            switch schedule.next(at: now) {
            case .render(let content, _):
                schedule.drawn(changingAt: renderer.render(content, at: now))
                let box = renderer.canvas
                reds.append(box[320, box.height / 3].red)
            case .wait(let deadline):
                #expect(deadline > now)
                now = deadline
            case .sleep:
                Issue.record("an animation on screen never sleeps")
                return
            }
        }
        #expect(reds == [50, 200, 50, 200], "\(reds)")
        #expect(now == start + .milliseconds(1000))
        // Another screen: the animation's next frame is not drawn over it.
        schedule.show(.ready)
        guard case .render = schedule.next(at: now) else { return }
        schedule.drawn(changingAt: nil)
        guard case .sleep = schedule.next(at: now + .seconds(1)) else {
            Issue.record("the main screen does not move")
            return
        }
    }
}

/// One GIF as the library's original of photo `id`.
private struct Originals: PhotoOriginals {
    let gif: Data
    let id: UUID

    func original(of id: UUID) throws -> Data {
        guard id == self.id else { throw CocoaError(.fileNoSuchFile) }
        return gif
    }

    func location(of id: UUID) -> String { "memory" }
}
