import BoothCore
import BoothImaging
import Foundation
import Logging
import Testing

@testable import BoothScreen

@Suite("Screen painter")
struct ScreenPainterTests {
    static let sizes = [(1280, 800), (1920, 1080), (800, 480), (640, 480)]

    @Test("The default fonts are installed (CI installs fonts-dejavu-core)")
    func fontsInstalled() {
        for path in [ScreenFonts.dejaVu.bold, ScreenFonts.dejaVu.regular] {
            #expect(FileManager.default.fileExists(atPath: path), "\(path) is missing: apt-get install fonts-dejavu-core")
        }
    }

    @Test("A missing font is an error that names the file and the package")
    func missingFont() {
        let fonts = ScreenFonts(bold: "/nonexistent/Bold.ttf", regular: ScreenFonts.dejaVu.regular)
        let error = #expect(throws: ScreenError.self) { try ScreenPainter(fonts: fonts, keys: KeyLabels(view: "View")) }
        #expect(error?.description.contains("/nonexistent/Bold.ttf") == true)
        #expect(error?.description.contains("fonts-dejavu-core") == true)
    }

    @Test("The countdown digit is huge, bright in the centre, and differs from one second to the next")
    func countdown() throws {
        let preview = ScreenFixtures.solidPreview(width: 1280, height: 720, grey: 90)
        let three = try ScreenFixtures.paint(.countdown(secondsLeft: 3), preview: preview)
        let two = try ScreenFixtures.paint(.countdown(secondsLeft: 2), preview: preview)
        let centre = PixelRect(x: 1280 / 3, y: 800 / 4, width: 1280 / 3, height: 800 / 2)
        #expect(three.pixels(in: centre) != two.pixels(in: centre))
        for canvas in [three, two] {
            let white = canvas.rows(in: centre) { $0.brightness > 240 }
            #expect(white.count >= 800 / 3, "the digit is at least a third of the screen high")
            // The halo keeps the digit apart from any picture: there is dark around it.
            #expect(canvas.count(in: centre) { $0.brightness < 40 } > 1000)
        }
    }

    @Test("Typing a name changes the name field and nothing above it")
    func namingField() throws {
        let placeholder = Caption.placeholder(number: 7)
        let photo = UUID()
        let typed = try ScreenFixtures.paint(.naming(typed: "ANNA", placeholder: placeholder, photo: photo))
        let empty = try ScreenFixtures.paint(.naming(typed: "", placeholder: placeholder, photo: photo))
        let field = PixelRect(x: 0, y: 800 * 71 / 100, width: 1280, height: 800 * 16 / 100)
        let prompt = PixelRect(x: 0, y: 0, width: 1280, height: field.y)
        #expect(typed.pixels(in: field) != empty.pixels(in: field))
        #expect(typed.pixels(in: prompt) == empty.pixels(in: prompt))
        // The typed name is white; the placeholder is greyed.
        #expect(typed.count(in: field) { $0 == .white } > 200)
        #expect(empty.count(in: field) { $0 == .white } == 0)
    }

    @Test("Long names stay inside the margins, at every screen size", arguments: sizes)
    func longNames(width: Int, height: Int) throws {
        let long = String(repeating: "W", count: 200)
        let caption = try #require(Caption(sanitizing: long))
        let screens: [ScreenContent] = [
            .naming(typed: long, placeholder: caption, photo: UUID()), .saved(caption, photo: UUID()),
            .fault(.storageFull), .fault(.shotFailed),
        ]
        let margin = width / 20
        for content in screens {
            let canvas = try ScreenFixtures.paint(content, width: width, height: height)
            let background = canvas[0, height / 2]
            for strip in [PixelRect(x: 0, y: 0, width: margin, height: height), PixelRect(x: width - margin, y: 0, width: margin, height: height)] {
                // The fault screen's accent bar spans the width at the very top; text never does.
                let below = PixelRect(x: strip.x, y: height / 30, width: strip.width, height: height - height / 30)
                #expect(canvas.count(in: below) { $0 != background } == 0, "\(content) at \(width)x\(height) reaches the edge")
            }
        }
    }

    @Test("Every screen paints at every size", arguments: sizes)
    func everyScreen(width: Int, height: Int) throws {
        let screens: [ScreenContent] = [
            .starting, .ready, .countdown(secondsLeft: 1), .smile, .naming(typed: "Zoë", placeholder: .placeholder(number: 1), photo: UUID()),
            .saving, .saved(.placeholder(number: 1), photo: UUID()), .fault(.cameraMissing), .fault(.storageFailing),
        ]
        for content in screens {
            let canvas = try ScreenFixtures.paint(content, width: width, height: height)
            #expect(canvas.count(in: canvas.bounds) { $0.brightness > 150 } > 100, "\(content) shows text")
        }
    }

    @Test("The fault screens say what is wrong")
    func faults() throws {
        #expect(BoothTexts.english(BoothFault.cameraMissing.headline) == "Camera disconnected")
        #expect(BoothFault.storageFull.sentence().hasPrefix("Storage full: "))
        let camera = try ScreenFixtures.paint(.fault(.cameraMissing))
        let storage = try ScreenFixtures.paint(.fault(.storageFull))
        #expect(camera != storage)
    }

    @Test("A name that could not be written yet is promised under the caption")
    func pendingName() throws {
        let id = UUID()
        let plain = try ScreenFixtures.paint(.saved(.placeholder(number: 3), photo: id))
        let pending = try ScreenFixtures.paint(.saved(.placeholder(number: 3), photo: id, pendingName: Caption(sanitizing: "Alice")!))
        // The caption's part of the screen is the same; the note below it adds text.
        let below = PixelRect(x: 0, y: plain.height * 76 / 100, width: plain.width, height: plain.height * 24 / 100)
        #expect(plain.count(in: below) { $0.brightness > 100 } == 0)
        #expect(pending.count(in: below) { $0.brightness > 100 } > 100)
    }

    @Test("The main screen shows the preview with both options below it")
    func ready() throws {
        let preview = ScreenFixtures.solidPreview(width: 1280, height: 720, grey: 128)
        let canvas = try ScreenFixtures.paint(.ready, preview: preview)
        // Letterbox bars above and below a 16:9 picture on a 16:10 screen.
        #expect(canvas.count(in: PixelRect(x: 0, y: 0, width: 1280, height: 40)) { $0 != .black } == 0)
        #expect(canvas[640, 100].brightness > 100)
        let band = PixelRect(x: 0, y: 800 * 3 / 4, width: 1280, height: 800 / 4)
        let lines = canvas.rows(in: band) { $0 == .white }
        #expect(lines.count > 60, "two lines of large text")
    }
}

@Suite("Screen text")
struct ScreenTextTests {
    @Test("FreeType renders coverage for a letter and nothing for a space")
    func coverage() throws {
        let face = try FontFace(path: ScreenFonts.dejaVu.bold)
        var letter = Canvas(width: 100, height: 100)
        letter.draw(try face.line("A", size: 60), atX: 10, baseline: 80, color: .white)
        #expect(letter.count(in: letter.bounds) { $0 == .white } > 100)
        #expect(letter.count(in: letter.bounds) { $0 != .white && $0 != .black } > 10, "edges are anti-aliased")
        var space = Canvas(width: 100, height: 100)
        space.draw(try face.line(" ", size: 60), atX: 10, baseline: 80, color: .white)
        #expect(space.count(in: space.bounds) { $0 != .black } == 0)
        #expect(try face.line(" ", size: 60).width > 0, "a space still advances the pen")
    }

    @Test("Pairs are kerned")
    func kerning() throws {
        let face = try FontFace(path: ScreenFonts.dejaVu.regular)
        let pair = try face.line("AV", size: 100).width
        let apart = try face.line("A", size: 100).width + face.line("V", size: 100).width
        #expect(pair < apart)
    }

    @Test("Text too wide gets smaller, then an ellipsis at the end it gives up")
    func fitting() throws {
        let face = try FontFace(path: ScreenFonts.dejaVu.bold)
        let text = String(repeating: "Photobooth ", count: 20)
        let tail = try face.line(text, size: 80, minimumSize: 30, maxWidth: 600, truncating: .tail)
        #expect(tail.width <= 600 && tail.width > 500)
        #expect(tail.size == 30)
        let short = try face.line("Hi", size: 80, minimumSize: 30, maxWidth: 600)
        #expect(short.size == 80)
        let squeezed = try face.line("Photobooth", size: 200, minimumSize: 30, maxWidth: 600)
        #expect(squeezed.width <= 600 && squeezed.width > 550, "the largest size that fits, give or take a step")
    }

    @Test("A long message wraps at spaces into lines that fit")
    func wrapping() throws {
        let face = try FontFace(path: ScreenFonts.dejaVu.regular)
        let lines = try face.lines(wrapping: BoothTexts.english(BoothFault.shotFailed.message), size: 50, maxWidth: 700, maxLines: 3)
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0.width <= 700 })
        let cut = try face.lines(wrapping: String(repeating: "word ", count: 100), size: 50, maxWidth: 700, maxLines: 3)
        #expect(cut.count == 3 && cut.allSatisfy { $0.width <= 700 })
    }
}

/// Screens painted the way the booth paints them.
enum ScreenFixtures {
    static func paint(
        _ content: ScreenContent, width: Int = 1280, height: Int = 800, preview: Bitmap? = nil, reviews: ReviewPictures? = nil,
        audience: ScreenAudience = .anyone
    ) throws -> Canvas {
        var canvas = Canvas(width: width, height: height)
        try ScreenPainter(keys: KeyLabels(view: "View"), reviews: reviews, audience: audience).paint(content, preview: preview, into: &canvas)
        return canvas
    }

    static func solidPreview(width: Int, height: Int, grey: UInt8) -> Bitmap {
        Bitmap(width: width, height: height, format: .bgrx, pixels: [UInt8](repeating: grey, count: width * height * 4))
    }

    /// A Motion JPEG frame of the test pattern, without Huffman tables like a webcam's.
    static func mjpegFrame(width: Int, height: Int, sequence: UInt64 = 1) throws -> CameraFrame {
        let picture = TestPattern(width: width, height: height).render(frame: sequence, at: Date(timeIntervalSince1970: 1_700_000_000))
        let jpeg = try JPEGSegments(try JPEGEncoder().encode(picture, quality: 85)).removingHuffmanTables()
        return CameraFrame(
            bytes: jpeg, encoding: .mjpeg, width: width, height: height, timestamp: MonotonicInstant(nanoseconds: 0),
            sequence: sequence)
    }

    static let logger = Logger(label: "screen-tests")
}

extension PixelColor {
    /// The mean of the three channels, a rough brightness.
    var brightness: Int { (Int(red) + Int(green) + Int(blue)) / 3 }
}

extension Canvas {
    /// The pixels inside `rect`, row by row.
    func pixels(in rect: PixelRect) -> [UInt32] {
        (rect.y..<rect.maxY).flatMap { row in pixels[(row * width + rect.x)..<(row * width + rect.maxX)] }
    }

    func count(in rect: PixelRect, where matches: (PixelColor) -> Bool) -> Int {
        pixels(in: rect).reduce(0) { $0 + (matches(PixelColor(xrgb: $1)) ? 1 : 0) }
    }

    /// The rows of `rect` in which some pixel matches.
    func rows(in rect: PixelRect, where matches: (PixelColor) -> Bool) -> [Int] {
        (rect.y..<rect.maxY).filter { row in (rect.x..<rect.maxX).contains { matches(self[$0, row]) } }
    }
}
