import Foundation
import FuzzRegressions
import Testing

@testable import BoothStore

/// A record the fuzz target `bucket` found (its first byte chose to read it as a record).
private func record(_ name: String) throws -> Data {
    try FuzzRegression.payload("bucket", name)
}

@Suite("What the fuzz targets found in the sidecars")
struct StoreFuzzRegressionTests {
    @Test("A record that FoundationXML would crash on is not a sidecar: names not in UTF-8, an instruction without data")
    func recordNotUTF8() throws {
        // `<rdf:Descr\u{C3}iption>`, on which FoundationXML stops the process.
        #expect(PhotoSidecar(xmp: try record("record-name-not-utf8")) == nil)
        // `<?xpacket?>`: an instruction without data, whose missing data FoundationXML reads.
        #expect(PhotoSidecar(xmp: try record("record-instruction-without-data")) == nil)
    }

    @Test("A record with one side of the picture's size keeps no size, and reads back as it is written")
    func oneSide() throws {
        // tiff:ImageLength without tiff:ImageWidth: the height was kept, then lost when written.
        let sidecar = try #require(PhotoSidecar(xmp: try record("record-height-without-width")))
        #expect(sidecar.width == nil && sidecar.height == nil)
        #expect(PhotoSidecar(xmp: sidecar.xmp) == sidecar)
    }

    @Test("A booth's name with a tab or a line break reads back as it is written")
    func lineBreak() throws {
        // A record rewritten with elements, whose photobooth:Booth held a line break: written as
        // an attribute, it read back with a space.
        let sidecar = try #require(PhotoSidecar(xmp: try record("record-booth-line-break")))
        #expect(sidecar.booth.contains("\n"))
        #expect(PhotoSidecar(xmp: sidecar.xmp) == sidecar)
        var other = sidecar
        other.booth = "Booth\t2\r\n"
        #expect(PhotoSidecar(xmp: other.xmp)?.booth == "Booth\t2\r\n")
    }

    @Test("A record's time is kept to the millisecond, as the sidecar writes it")
    func milliseconds() throws {
        // xmp:CreateDate="2026-11-23T14:04:05.12026-11-23T14:04:05.123Z", which Foundation reads
        // as 05.12026 at -11:00: written again, it was 05.120.
        let sidecar = try #require(PhotoSidecar(xmp: try record("record-time-beyond-milliseconds")))
        #expect(sidecar.createdAt == sidecar.createdAt.roundedToMilliseconds)
        #expect(PhotoSidecar(xmp: sidecar.xmp) == sidecar)
    }
}
