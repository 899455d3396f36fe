import BoothImaging
import Foundation
import Testing

@Suite("MJPEG frames without Huffman tables")
struct MJPEGRepairTests {
    @Test("Stripping the tables and repairing gives back libjpeg's own bytes")
    func repairRestoresStandardTables() throws {
        let original = try Fixtures.jpeg(width: 640, height: 480)
        let structure = try JPEGSegments(original)
        #expect(structure.hasHuffmanTables)
        let stripped = structure.removingHuffmanTables()
        #expect(try !JPEGSegments(stripped).hasHuffmanTables)
        #expect(stripped.count < original.count)
        let repaired = try JPEGSegments.repairedMJPEG(stripped)
        #expect(repaired == original)
    }

    @Test("A frame without tables still decodes, and its repair decodes to the same pixels")
    func repairedDecodesTheSame() throws {
        let stripped = try JPEGSegments(try Fixtures.jpeg(width: 320, height: 240)).removingHuffmanTables()
        let repaired = try JPEGSegments.repairedMJPEG(stripped)
        #expect(try JPEGDecoder().decode(stripped) == JPEGDecoder().decode(repaired))
    }

    @Test("A frame with its own tables is kept as it is")
    func completeFrameUnchanged() throws {
        let original = try Fixtures.jpeg(width: 320, height: 240)
        #expect(try JPEGSegments.repairedMJPEG(original) == original)
    }

    @Test("Padding after the end marker is dropped")
    func paddingIsDropped() throws {
        let original = try Fixtures.jpeg(width: 320, height: 240)
        let padded = original + Data(repeating: 0, count: 4096)
        #expect(try JPEGSegments.repairedMJPEG(padded) == original)
    }

    @Test("A truncated frame is rejected as truncated")
    func truncatedFrame() throws {
        let stripped = try JPEGSegments(try Fixtures.jpeg(width: 320, height: 240)).removingHuffmanTables()
        for length in [3, 40, stripped.count / 2, stripped.count - 1] {
            #expect(throws: ImageError.truncated) { try JPEGSegments.repairedMJPEG(stripped.prefix(length)) }
        }
    }

    @Test("Garbage is not a JPEG")
    func garbage() {
        #expect(throws: ImageError.notJPEG) { try JPEGSegments.repairedMJPEG(Data("not a jpeg at all".utf8)) }
    }

    @Test("A segment with an impossible length is malformed")
    func badLength() {
        let bytes = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x01, 0xFF, 0xD9])
        #expect(throws: ImageError.malformed) { try JPEGSegments.repairedMJPEG(bytes) }
    }

    @Test("A stuffed zero byte where a marker belongs is malformed, not a segment (found by fuzzing)")
    func stuffedByteBetweenSegments() throws {
        let original = try Fixtures.jpeg(width: 64, height: 48)
        let end = original.count - 2
        #expect(original[end...] == Data([0xFF, 0xD9]))
        // A table after the scan, then 0xFF 0x00 and a 'length' that covers an APP0 marker: once
        // the table is removed, those bytes are part of the scan, and APP0 takes EOI as its length.
        let table = Data([0xFF, 0xC4, 0x00, 0x03, 0x00])
        let bytes = original[..<end] + table + Data([0xFF, 0x00, 0x00, 0x04, 0xFF, 0xE0]) + original[end...]
        #expect(throws: ImageError.malformed) { try JPEGSegments(bytes) }
        #expect(throws: ImageError.malformed) { try JPEGSegments.repairedMJPEG(bytes) }
    }

    @Test("An image without a scan is malformed")
    func noScan() {
        #expect(throws: ImageError.malformed) { try JPEGSegments.repairedMJPEG(Data([0xFF, 0xD8, 0xFF, 0xD9])) }
    }
}

@Suite("Test pattern")
struct TestPatternTests {
    @Test("Consecutive frames differ below the live band's top only, and the same frame renders the same")
    func framesMove() {
        let pattern = TestPattern(width: 320, height: 180)
        let time = Date(timeIntervalSince1970: 1_700_000_000)
        let first = pattern.render(frame: 1, at: time)
        let second = pattern.render(frame: 2, at: time)
        #expect(first == pattern.render(frame: 1, at: time))
        #expect(first != second)
        #expect(pattern.liveTop % 16 == 0 && pattern.liveTop > 0)
        let split = pattern.liveTop * first.bytesPerRow
        #expect(first.pixels[..<split] == pattern.still.pixels[..<split], "above the band is the still picture")
        #expect(first.pixels[..<split] == second.pixels[..<split])
        #expect(Array(first.pixels[split...]) == pattern.renderLive(frame: 1, at: time).pixels)
    }

    @Test("The clock shows: the same frame at another time differs only in the clock band")
    func clockShows() {
        let pattern = TestPattern(width: 320, height: 180)
        let early = pattern.render(frame: 7, at: Date(timeIntervalSince1970: 1_700_000_000))
        let later = pattern.render(frame: 7, at: Date(timeIntervalSince1970: 1_700_000_001.5))
        let differingRows = Set(
            zip(early.pixels, later.pixels).enumerated().compactMap { index, pair in
                pair.0 == pair.1 ? nil : index / early.bytesPerRow
            })
        #expect(!differingRows.isEmpty)
        #expect(differingRows.allSatisfy { $0 >= 180 * 3 / 4 }, "only the bottom band holds the clock")
    }
}
