import BoothCore
import BoothImaging
import Foundation
import StoreFixture
import Testing

@testable import BoothScreen

/// A photo page's address as the booth links it, and the guest's deletion key for it.
private let link = PhotoLink(
    page: "http://booth.local:8080/photos/6f1c2a7e-3b9d-4c55-8e2a-0d4b7f9a1c3e", deletionKey: "Z0wIAHXlYlY7mR3K9QTLsPq8cQE")
private let caption = Caption(sanitizing: "Anna and Zoë")!

/// Reads QR codes in pictures with zbarimg (Debian's zbar-tools), when it is installed.
enum QRScanner {
    static let zbarimg = ["/usr/bin/zbarimg", "/usr/local/bin/zbarimg"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let missing: Comment = "zbarimg is not installed (apt-get install zbar-tools): the QR code was not scanned"

    /// The text of the one code in the picture `data` (a PPM or a JPEG, as `suffix` says);
    /// `nil` when zbarimg finds none.
    static func scan(_ data: Data, suffix: String) async throws -> String? {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("scan-\(UUID().lowercased).\(suffix)")
        try data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        // zbarimg complains on standard error when there is no D-Bus, which a test need not show.
        let scan = try await ProcessLaunch.output(of: try #require(zbarimg), ["--quiet", "--raw", file.path])
        guard scan.status == 0 else { return nil }
        return String(decoding: scan.output, as: UTF8.self).trimmingCharacters(in: .newlines)
    }
}

extension Canvas {
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

    /// The picture as a binary PPM (P6), which zbarimg reads.
    var ppm: Data {
        var data = Data("P6\n\(width) \(height)\n255\n".utf8)
        data.reserveCapacity(data.count + width * height * 3)
        for pixel in pixels {
            let colour = PixelColor(xrgb: pixel)
            data.append(contentsOf: [colour.red, colour.green, colour.blue])
        }
        return data
    }
}

@Suite("Saved screen")
struct SavedScreenTests {
    @Test(
        "The QR code is the link's modules exactly, each a square of whole pixels, black on white with its quiet zone, about 40% of the height",
        arguments: ScreenPainterTests.sizes)
    func qrCodeModules(width: Int, height: Int) throws {
        let canvas = try ScreenFixtures.paint(.saved(caption, photo: UUID(), link: link), width: width, height: height)
        let code = try QRCode(encoding: link.page)
        // Nothing else on the screen is pure white: the white pixels' bounds are the quiet zone's.
        let square = try #require(canvas.bounds { $0 == .white })
        let modules = code.size + 2 * QRCode.quietZone
        #expect(square.width == square.height && square.width % modules == 0, "\(square) is not a whole number of modules")
        let moduleSize = square.width / modules
        #expect(moduleSize >= 4, "modules of \(moduleSize) px are too small to scan at arm's length")
        #expect(square.height <= height * 40 / 100 && square.height > height * 33 / 100)
        #expect(square.maxX <= width - width / 20, "inside the margin")

        var decoded: [[Bool]] = []
        var blurred = 0
        for row in 0..<modules {
            var line: [Bool] = []
            for column in 0..<modules {
                let module = PixelRect(x: square.x + column * moduleSize, y: square.y + row * moduleSize, width: moduleSize, height: moduleSize)
                let dark = canvas[module.midX, module.midY] == .black
                blurred += canvas.count(in: module) { $0 != (dark ? .black : .white) }
                line.append(dark)
            }
            decoded.append(line)
        }
        let expected = (0..<modules).map { row in
            (0..<modules).map { column in code[column - QRCode.quietZone, row - QRCode.quietZone] }
        }
        #expect(blurred == 0, "every pixel of a module has the module's colour")
        #expect(decoded == expected)
    }

    @Test(
        "The caption, \"Saved as\" and \"Scan to download\" stay left of and under the code, inside the margins", arguments: ScreenPainterTests.sizes)
    func textBesideTheCode(width: Int, height: Int) throws {
        let long = try #require(Caption(sanitizing: String(repeating: "W", count: 64)))
        let canvas = try ScreenFixtures.paint(.saved(long, photo: UUID(), link: link), width: width, height: height)
        let square = try #require(canvas.bounds { $0 == .white })
        let accent = try #require(canvas.bounds { $0.red > 200 && $0.green > 140 && $0.blue < 60 }, "the caption")
        #expect(accent.maxX < square.x && accent.x >= width / 20)
        let below = PixelRect(x: square.x, y: square.maxY, width: square.width, height: height - square.maxY)
        #expect(canvas.count(in: below) { $0.brightness > 120 } > 20, "\"Scan to download\" under the code")
        let beside = PixelRect(x: square.maxX, y: 0, width: width - square.maxX, height: height)
        #expect(canvas.count(in: beside) { $0 != canvas[width - 1, 0] } == 0, "nothing right of the code, in the margin")
    }

    @Test("Without a link the saved screen shows no code and the caption in the middle")
    func noLink() throws {
        let canvas = try ScreenFixtures.paint(.saved(caption, photo: UUID(), link: nil))
        #expect(canvas.bounds { $0 == .white } == nil)
        let accent = try #require(canvas.bounds { $0.red > 200 && $0.green > 140 && $0.blue < 60 })
        #expect(abs(accent.midX - 640) < 8, "centred")
    }

    @Test(
        "zbarimg reads the saved screen's QR code back as the link: with the guest's deletion key on the guest's own screen, without it on any other",
        .enabled(if: QRScanner.zbarimg != nil, QRScanner.missing),
        arguments: [(1280, 800), (640, 480)])
    func scanned(width: Int, height: Int) async throws {
        let content = ScreenContent.saved(caption, photo: UUID(), link: link)
        let guest = try ScreenFixtures.paint(content, width: width, height: height, audience: .guest)
        let scanned = try #require(try await QRScanner.scan(guest.ppm, suffix: "ppm"), "no code in the guest's \(width)x\(height) screen")
        #expect(scanned == link.page + "?key=" + (link.deletionKey ?? ""))
        let anyone = try ScreenFixtures.paint(content, width: width, height: height, audience: .anyone)
        let seen = try #require(try await QRScanner.scan(anyone.ppm, suffix: "ppm"), "no code in the \(width)x\(height) screen for anyone")
        #expect(seen == link.page)
        #expect(!seen.contains("key="))
    }

    @Test(
        "With the booth's own Wi-Fi, zbarimg reads two codes, the network's join code and the photo's page, each under its step in the guest's language",
        .enabled(if: QRScanner.zbarimg != nil, QRScanner.missing),
        arguments: [(800, 480), (1280, 800), (1920, 1080)])
    func joinCode(width: Int, height: Int) async throws {
        let join = try #require(WiFiJoin(name: "Anna & Zoe", security: .wpa2, passphrase: "say;cheese"))
        let withNetwork = PhotoLink(page: link.page, deletionKey: link.deletionKey, join: join)
        let content = ScreenContent.saved(caption, photo: UUID(), link: withNetwork)
        let guest = try ScreenFixtures.paint(content, width: width, height: height, audience: .guest)
        let scanned = try #require(try await QRScanner.scan(guest.ppm, suffix: "ppm"), "no code in the \(width)x\(height) screen")
        #expect(Set(scanned.split(separator: "\n").map(String.init)) == [join.code, link.page + "?key=" + (link.deletionKey ?? "")])
        // (ASCII: zbarimg guesses the character set of a code's bytes, and reads UTF-8 as Shift JIS.)
        #expect(join.code == #"WIFI:T:WPA;S:Anna & Zoe;P:say\;cheese;;"#)
        // The white of the two codes stays within the screen's right part, beside the photo.
        let white = try #require(guest.bounds { $0 == .white })
        #expect(white.x > width / 2 && white.y > 0 && white.y + white.height < height, "the codes at \(white)")
    }

    @Test("A terminal or a keypad's display names the network to join before the photo's address")
    func joinLine() throws {
        let join = try #require(WiFiJoin(name: "Booth", security: .open, passphrase: ""))
        var screen = TextScreen(form: .lines(drawsQRCodes: false), texts: BoothLanguage.german.texts)
        let text = screen.text(for: .saved(caption, photo: UUID(), link: PhotoLink(page: link.page, join: join)))
        let network = try #require(text.range(of: "Mit dem WLAN Booth verbinden"), "\(text)")
        let page = try #require(text.range(of: link.page), "\(text)")
        #expect(network.lowerBound < page.lowerBound)
    }
}
