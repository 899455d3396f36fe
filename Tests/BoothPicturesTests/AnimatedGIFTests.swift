import BoothImaging
import Foundation
import StoreFixture
import Testing

@testable import BoothPictures

/// A frame of a scene with gradients and edges, moved by `step`: what a camera's frames of
/// people are like to a palette.
private func frame(_ step: Int, width: Int = 160, height: Int = 90) -> Bitmap {
    var pixels = [UInt8](repeating: 255, count: width * height * 4)
    for y in 0..<height {
        for x in 0..<width {
            let offset = (y * width + x) * 4
            let inBall = (x - 40 - step * 6) * (x - 40 - step * 6) + (y - 45) * (y - 45) < 300
            pixels[offset] = inBall ? 40 : UInt8(255 * y / height)  // blue: the sky's gradient
            pixels[offset + 1] = inBall ? 60 : UInt8(128 + 100 * x / width)
            pixels[offset + 2] = inBall ? 220 : UInt8(60 + (x * y) % 64)
        }
    }
    return Bitmap(width: width, height: height, format: .bgrx, pixels: pixels)
}

/// The peak signal-to-noise ratio of `decoded` (RGB) against `source` (`.bgrx`), in dB.
func psnr(_ decoded: [UInt8], _ source: Bitmap) -> Double {
    var squares = 0.0
    for pixel in 0..<(source.width * source.height) {
        for channel in 0..<3 {
            let difference = Double(decoded[pixel * 3 + channel]) - Double(source.pixels[pixel * 4 + 2 - channel])
            squares += difference * difference
        }
    }
    let mean = squares / Double(source.width * source.height * 3)
    return mean == 0 ? .infinity : 10 * log10(255 * 255 / mean)
}

@Suite struct AnimatedGIFTests {
    @Test func itLoopsForEverWithEveryFrameAndItsDelay() throws {
        let frames = (0..<10).map { frame($0) }
        let gif = AnimatedGIF.encode(frames, delay: 15)
        let read = try GIFReader(gif)
        #expect(read.width == 160 && read.height == 90)
        #expect(read.loops == 0)
        #expect(read.frames.count == 10)
        #expect(read.frames.allSatisfy { $0.delay == 15 })
        // Each frame looks like its source: dithered onto 256 colours, well above 30 dB.
        for (decoded, source) in zip(read.frames, frames) {
            #expect(psnr(decoded.pixels, source) > 30, "PSNR \(psnr(decoded.pixels, source))")
        }
        // The moving ball is in each frame where it was taken, not in the first frame's place.
        let ballOfLast = (45 * 160 + 40 + 9 * 6) * 3
        #expect(read.frames[9].pixels[ballOfLast] > 180 && read.frames[0].pixels[ballOfLast] < 180)
    }

    @Test func aBoomerangPlaysForwardThenBackward() throws {
        #expect(AnimatedGIF.boomerang(5) == [0, 1, 2, 3, 4, 3, 2, 1])
        #expect(AnimatedGIF.boomerang(2) == [0, 1])
        // Frames of one colour each, 10 to 100 in red: the order reads back from the colours.
        let frames = (0..<10).map { index in
            Bitmap(
                width: 8, height: 8, format: .bgrx,
                pixels: (0..<64).flatMap { _ in [UInt8(0), UInt8(0), UInt8(10 * (index + 1)), UInt8(255)] })
        }
        let read = try GIFReader(AnimatedGIF.encode(frames, order: AnimatedGIF.boomerang(10), delay: 8))
        #expect(read.frames.map { Int($0.pixels[0]) / 10 - 1 } == [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 8, 7, 6, 5, 4, 3, 2, 1])
    }

    @Test func itCarriesAnXMPPacketThatReadersSkip() throws {
        let packet = "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><dc:title>Anna &amp; Zoë</dc:title></x:xmpmeta>"
        let read = try GIFReader(AnimatedGIF.encode([frame(0)], delay: 10, xmp: packet))
        #expect(read.xmp == packet)
        #expect(read.frames.count == 1)
    }

    @Test func compressionRoundTripsThroughFullDictionaries() throws {
        let seed = TestSeed(for: "compressionRoundTripsThroughFullDictionaries")
        var random = seed.generator
        for codeSize in [2, 4, 8] {
            // Long enough to fill the dictionary many times, with runs that make long codes.
            var indices: [UInt8] = []
            while indices.count < 200_000 {
                let value = UInt8(truncatingIfNeeded: random.next() % UInt64(1 << codeSize))
                indices += Array(repeating: value, count: Int(random.next() % 5) + 1)
            }
            let data = [UInt8](LZWEncoder.encode(indices, minimumCodeSize: codeSize))
            #expect(Int(data[0]) == codeSize)
            var blocks: [UInt8] = []
            var position = 1
            while data[position] != 0 {
                blocks += data[(position + 1)...(position + Int(data[position]))]
                position += Int(data[position]) + 1
            }
            #expect(position == data.count - 1, "the terminator ends the data")
            #expect(try GIFReader.decompress(blocks, minimumCodeSize: codeSize) == indices, "code size \(codeSize), \(seed)")
        }
        #expect(try GIFReader.decompress(Array(LZWEncoder.encode([], minimumCodeSize: 2).dropFirst(2).dropLast()), minimumCodeSize: 2) == [])
    }

    @Test func theLibraryReadsTheFirstFrameAsTheReferenceReaderDoes() throws {
        // Large enough to fill LZW's dictionary several times over.
        let frames = (0..<3).map { frame($0, width: 400, height: 300) }
        let gif = AnimatedGIF.encode(frames, delay: 10, xmp: "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"/>")
        let file = try GIFFile(gif)
        #expect(file.width == 400 && file.height == 300 && file.frameCount == 3)
        let first = try file.firstFrame()
        let reference = try GIFReader(gif).frames[0].pixels
        var rgb: [UInt8] = []
        for pixel in 0..<(400 * 300) { rgb += [first.pixels[pixel * 4 + 2], first.pixels[pixel * 4 + 1], first.pixels[pixel * 4]] }
        #expect(rgb == reference)
    }

    @Test func aCopyCarriesOnlyItsNewXMPAndEveryFrameAsItWas() throws {
        let gif = AnimatedGIF.encode((0..<4).map { frame($0) }, delay: 12, xmp: "<x:xmpmeta>old</x:xmpmeta>")
        let once = try GIFFile(gif).tagged(with: "<x:xmpmeta>Anna</x:xmpmeta>")
        let twice = try GIFFile(once).tagged(with: "<x:xmpmeta>Zoë</x:xmpmeta>")
        let (before, after) = (try GIFReader(gif), try GIFReader(twice))
        #expect(after.xmp == "<x:xmpmeta>Zoë</x:xmpmeta>")
        #expect(after.frames.map(\.pixels) == before.frames.map(\.pixels) && after.loops == 0)
        #expect(twice.count - once.count == "Zoë".utf8.count - "Anna".utf8.count, "one packet replaced, none added")
        // Untagged, it gets one too.
        #expect(try GIFReader(GIFFile(AnimatedGIF.encode([frame(0)], delay: 10)).tagged(with: "<a/>")).xmp == "<a/>")
    }

    @Test func aBrokenGIFIsRefusedWithWhy() throws {
        let gif = AnimatedGIF.encode([frame(0)], delay: 10)
        #expect(throws: ImageError.truncated) { try GIFFile(gif.prefix(gif.count / 2)) }
        #expect(throws: ImageError.notJPEG) { try GIFFile(Data("PNG?".utf8)) }
        var corrupt = gif
        corrupt[corrupt.count - 1] = 0x99  // the trailer is not a block
        #expect(throws: ImageError.malformed) { try GIFFile(corrupt) }
        // A frame whose compressed data stops short: the structure reads, its pixels do not.
        let noImage = Data(gif.prefix(13 + 3 * 256)) + Data([0x2C, 0, 0, 0, 0, 160, 0, 90, 0, 0, 8, 2, 0x00, 0x00, 0x00, 0x3B])
        #expect(throws: ImageError.truncated) { try GIFFile(noImage).firstFrame() }
    }

    @Test func thePaletteKeepsAFewColoursExactly() {
        // Four colours only: the palette has them, and nothing else is needed.
        let colors: [[UInt8]] = [[10, 20, 30], [200, 100, 50], [0, 255, 0], [255, 255, 255]]
        let pixels: [UInt8] = (0..<400).flatMap { index in colors[index % 4] + [UInt8(255)] }
        let palette = ColorPalette(for: [Bitmap(width: 20, height: 20, format: .bgrx, pixels: pixels)])
        #expect(palette.colors.count == 4)
        for color in colors {
            #expect(palette.colors.contains { $0.blue == color[0] && $0.green == color[1] && $0.red == color[2] })
        }
    }
}
