import BoothImaging
import Foundation
import Testing

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
            #expect(throws: ImageError.self) { try JPEGThumbnailer().thumbnail(forJPEG: cut) }
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
        var generator = SplitMix64(seed: 42)
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

/// A small deterministic random number generator, so a failure can be replayed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
