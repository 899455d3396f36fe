import BoothImaging
import Foundation
import Testing

@Suite("Frames encoded a band at a time")
struct RowSplicedEncoderTests {
    static let time = Date(timeIntervalSince1970: 1_700_000_000)

    /// The same frame encoded whole: every row is live.
    func wholeEncoding(of picture: Bitmap) throws -> Data {
        try RowSplicedEncoder(still: picture, liveTop: 0, quality: 85).frame(live: picture)
    }

    @Test(
        "A frame spliced from the still rows and its moving band is the very image a whole encoding gives",
        arguments: [(320, 240), (200, 120), (1280, 720), (640, 360)])
    func splicedEqualsWhole(size: (width: Int, height: Int)) throws {
        let pattern = TestPattern(width: size.width, height: size.height)
        let encoder = try RowSplicedEncoder(still: pattern.still, liveTop: pattern.liveTop, quality: 85)
        for frame: UInt64 in [0, 1, 77, 239] {
            let time = Self.time + Double(frame) / 30
            let spliced = try encoder.frame(live: pattern.renderLive(frame: frame, at: time))
            #expect(spliced == (try wholeEncoding(of: pattern.render(frame: frame, at: time))), "frame \(frame)")
        }
    }

    @Test("A band drawn into frame after frame, as the camera does, is each frame's own band, the frame number growing too")
    func bandReused() {
        let pattern = TestPattern(width: 640, height: 360)
        var band = pattern.stillBand
        for frame: UInt64 in [0, 9, 10, 999, 9_999_999, 10_000_000, 123_456_789] {
            let time = Self.time + Double(frame) / 30
            let offset = TimeZone.current.secondsFromGMT(for: time)
            pattern.drawLive(frame: frame, at: time, secondsFromGMT: offset, into: &band)
            #expect(band.pixels == pattern.renderLive(frame: frame, at: time).pixels, "frame \(frame)")
        }
    }

    @Test("A spliced frame decodes to the picture, and two frames differ only in the band that moves")
    func decodes() throws {
        let pattern = TestPattern(width: 320, height: 240)
        let encoder = try RowSplicedEncoder(still: pattern.still, liveTop: pattern.liveTop, quality: 90, huffmanTables: false)
        let first = try encoder.frame(live: pattern.renderLive(frame: 3, at: Self.time))
        let second = try encoder.frame(live: pattern.renderLive(frame: 4, at: Self.time + 1.0 / 30))
        #expect(try !JPEGSegments(first).hasHuffmanTables, "frames leave the tables out, as webcams do")
        #expect(first != second)
        let decoder = try JPEGDecoder()
        let pictures = try [first, second].map { try decoder.decode(try JPEGSegments.repairedMJPEG($0)) }
        let rendered = pattern.render(frame: 3, at: Self.time)
        #expect(pictures[0].width == 320 && pictures[0].height == 240)
        let error = zip(pictures[0].pixels, rendered.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        #expect(Double(error) / Double(rendered.pixels.count) < 6, "within a JPEG's error of the picture")
        let rowBytes = pictures[0].bytesPerRow
        // A decoder smooths chroma across the band's edge: compare the rows a block above it.
        let above = (pattern.liveTop - 8) * rowBytes
        #expect(pictures[0].pixels[..<above] == pictures[1].pixels[..<above], "the still rows are the same")
        #expect(pictures[0].pixels[above...] != pictures[1].pixels[above...], "the band moved")
    }

    @Test("A band of the wrong size is refused with what it should be")
    func wrongBand() throws {
        let pattern = TestPattern(width: 320, height: 240)
        let encoder = try RowSplicedEncoder(still: pattern.still, liveTop: pattern.liveTop, quality: 85)
        let error = #expect(throws: ImageError.self) { try encoder.frame(live: pattern.still) }
        #expect("\(error!)".contains("320x\(240 - pattern.liveTop)"))
    }
}
