import Foundation
import StoreFixture
import Testing

@testable import BoothImaging

@Suite("JPEG decoding and encoding")
struct JPEGCodecTests {
    @Test("The header gives the size without decoding")
    func header() throws {
        let header = try JPEGHeader(try Fixtures.jpeg(width: 640, height: 480))
        #expect(header.width == 640 && header.height == 480)
    }

    @Test("Scaled decodes have the sizes TurboJPEG promises", arguments: ScalingFactor.allCases)
    func scaledDecode(scale: ScalingFactor) throws {
        let jpeg = try Fixtures.jpeg(width: 1001, height: 501)
        let bitmap = try JPEGDecoder().decode(jpeg, scale: scale)
        #expect(bitmap.width == (1001 + scale.rawValue - 1) / scale.rawValue)
        #expect(bitmap.height == (501 + scale.rawValue - 1) / scale.rawValue)
        #expect(bitmap.pixels.count == bitmap.width * bitmap.height * 3)
    }

    @Test("A fast decode into the framebuffer's layout")
    func fastDecodeToBGRX() throws {
        let jpeg = try JPEGEncoder().encode(Fixtures.solid(width: 64, height: 32, color: (200, 40, 10)), quality: 95)
        let bitmap = try JPEGDecoder().decode(jpeg, scale: .half, format: .bgrx, fast: true)
        #expect(bitmap.width == 32 && bitmap.height == 16)
        let pixel = Array(bitmap.pixels[0..<4])
        #expect(abs(Int(pixel[0]) - 10) < 8 && abs(Int(pixel[1]) - 40) < 8 && abs(Int(pixel[2]) - 200) < 8)
    }

    @Test(
        "A decode fitted to a box keeps the aspect ratio, shrinks or enlarges to the box, in the framebuffer's layout",
        arguments: [(1920, 1080, 1280, 800, 1280, 720), (480, 640, 1280, 800, 600, 800), (160, 120, 640, 480, 640, 480)])
    func fittedDecode(width: Int, height: Int, boxWidth: Int, boxHeight: Int, fittedWidth: Int, fittedHeight: Int) throws {
        let jpeg = try JPEGEncoder().encode(Fixtures.solid(width: width, height: height, color: (200, 40, 10)), quality: 95)
        let bitmap = try JPEGDecoder().decode(jpeg, fitting: boxWidth, boxHeight)
        #expect(bitmap.format == .bgrx)
        #expect(bitmap.width == fittedWidth && bitmap.height == fittedHeight)
        let centre = (bitmap.height / 2 * bitmap.width + bitmap.width / 2) * 4
        let pixel = Array(bitmap.pixels[centre..<centre + 3])
        #expect(abs(Int(pixel[0]) - 10) < 8 && abs(Int(pixel[1]) - 40) < 8 && abs(Int(pixel[2]) - 200) < 8)
    }

    @Test("A fitted decode of something that is not a JPEG throws")
    func fittedDecodeOfGarbage() {
        #expect(throws: ImageError.notJPEG) { try JPEGDecoder().decode(Data("not a photo".utf8), fitting: 640, 480) }
    }

    @Test("Encoding then decoding keeps the colours")
    func roundTrip() throws {
        let jpeg = try JPEGEncoder().encode(Fixtures.solid(width: 48, height: 48, color: (30, 140, 220)), quality: 95)
        let decoded = try JPEGDecoder().decode(jpeg)
        for channel in 0..<3 {
            let expected = [30, 140, 220][channel]
            #expect(abs(Int(decoded.pixels[channel]) - expected) < 6)
        }
    }

    @Test("Data that is not a JPEG is rejected", arguments: [Data(), Data("hello".utf8), Data([0xFF, 0xD8, 0xFF])])
    func notJPEG(data: Data) {
        #expect(throws: ImageError.self) { try JPEGDecoder().decode(data) }
        #expect(throws: ImageError.self) { try JPEGHeader(data) }
    }

    @Test("A truncated JPEG is rejected, wherever it is cut")
    func truncated() throws {
        let jpeg = try Fixtures.jpeg(width: 320, height: 240)
        for fraction in stride(from: 0.05, to: 0.99, by: 0.07) {
            let cut = jpeg.prefix(Int(Double(jpeg.count) * fraction))
            #expect(throws: ImageError.self) { try JPEGDecoder().decode(cut) }
            #expect(throws: ImageError.self) { try JPEGThumbnailer().thumbnail(of: cut) }
        }
    }

    @Test("A header claiming a huge image is refused before anything is allocated")
    func hugeHeader() throws {
        var jpeg = try Fixtures.jpeg(width: 64, height: 48)
        // Height and width follow the SOF0 marker, its length and the sample precision.
        let sof = try #require(jpeg.indices.first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
        jpeg.replaceSubrange(sof + 5..<sof + 9, with: [0xF0, 0x00, 0xF0, 0x00])
        #expect(throws: ImageError.undecodable) { try JPEGDecoder().decode(jpeg, scale: .eighth) }
    }

    @Test("Damaged JPEG data never crashes the decoder")
    func damagedData() throws {
        let jpeg = try Fixtures.jpeg(width: 160, height: 120)
        let seed = TestSeed(for: "Damaged JPEG data")
        var generator = seed.generator
        for _ in 0..<200 {
            var damaged = jpeg
            for _ in 0..<8 {
                let index = Int(generator.next() % UInt64(damaged.count))
                damaged[index] = UInt8(truncatingIfNeeded: generator.next())
            }
            // Some damage still decodes (to wrong pixels); what matters is a value or an error.
            _ = try? JPEGDecoder().decode(damaged)
            _ = try? JPEGSegments.repairedMJPEG(damaged)
        }
    }
}

@Suite("Enlarging a preview")
struct EnlargingTests {
    /// A `.bgrx` picture whose every byte is `value(x, y)`.
    static func picture(width: Int, height: Int, _ value: (Int, Int) -> UInt8) -> Bitmap {
        var pixels: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width { pixels += Array(repeating: value(x, y), count: 4) }
        }
        return Bitmap(width: width, height: height, format: .bgrx, pixels: pixels)
    }

    static func value(_ bitmap: Bitmap, _ x: Int, _ y: Int) -> UInt8 { bitmap.pixels[(y * bitmap.width + x) * 4] }

    @Test("A ramp across stays a ramp across, the same on every row; a ramp down, the same in every column")
    func ramps() {
        let across = Self.picture(width: 64, height: 36) { x, _ in UInt8(x * 4) }.resampled(toWidth: 96, height: 54)
        let down = Self.picture(width: 64, height: 36) { _, y in UInt8(y * 7) }.resampled(toWidth: 96, height: 54)
        #expect(across.width == 96 && across.height == 54)
        for y in 0..<54 {
            for x in 0..<96 {
                #expect(Self.value(across, x, y) == Self.value(across, x, 0), "row \(y) differs at \(x)")
                #expect(Self.value(down, x, y) == Self.value(down, 0, y), "column \(x) differs at \(y)")
                if x > 0 { #expect(Self.value(across, x, y) >= Self.value(across, x - 1, y)) }
                if y > 0 { #expect(Self.value(down, x, y) >= Self.value(down, x, y - 1)) }
            }
        }
        #expect(Self.value(across, 0, 0) == 0 && Self.value(across, 95, 0) == 252, "the ends are the source's")
        #expect(Self.value(down, 0, 0) == 0 && Self.value(down, 0, 53) == 245)
    }

    @Test("Halfway between two rows is their average, and rows are not mixed up when the picture more than doubles")
    func betweenRows() {
        // Rows alternate dark and light; enlarged 2.5 times, each output row lies between two
        // source rows and mixes only those.
        let stripes = Self.picture(width: 8, height: 8) { _, y in y % 2 == 0 ? 0 : 200 }
        let enlarged = stripes.resampled(toWidth: 20, height: 20)
        for y in 0..<20 {
            let value = Int(Self.value(enlarged, 3, y))
            #expect((0...200).contains(value))
            // Output row y's centre lies at source row (y + 0.5) / 2.5 - 0.5.
            // (Above the first row's centre and below the last's, the edge row alone.)
            let centre = min(7, max(0, (Double(y) + 0.5) / 2.5 - 0.5))
            let lower = Int(centre.rounded(.down))
            let fraction = centre - Double(lower)
            func source(_ row: Int) -> Double { row % 2 == 0 ? 0 : 200 }
            let expected = source(lower) * (1 - fraction) + source(min(7, lower + 1)) * fraction
            #expect(abs(Double(value) - expected) <= 2, "row \(y): \(value), expected \(expected)")
        }
    }
}
