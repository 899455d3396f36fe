import Foundation
import FuzzRegressions
import Testing

@testable import BoothCore

/// The text of an input a fuzz target found, without the byte that chose what it did.
private func fuzzText(_ target: String, _ name: String) throws -> String {
    String(decoding: try FuzzRegression.payload(target, name), as: UTF8.self)
}

@Suite("What the fuzz targets found in the core")
struct CoreFuzzRegressionTests {
    @Test("A folded name folds to itself, so that an album's address finds the album")
    func foldedNameIsStable() throws {
        // A half-width katakana with a diaeresis: one pass of folding widened it and kept the
        // diaeresis, the next removed it.
        // A run of marks after a character that is not a letter: one pass removed one mark.
        let runOfMarks = try fuzzText("http", "name-marks-one-a-pass")
        for name in ["\u{FF7D}\u{0308}", try fuzzText("http", "name-folds-twice"), runOfMarks] {
            let key = NameKey.fold(name)
            #expect(NameKey.fold(key) == key, "\(name.debugDescription)")
        }
        #expect(NameKey.fold("\u{FF7D}\u{0308}") == "\u{30B9}")
        #expect(NameKey.fold(runOfMarks) == "\u{FFFD}")
        #expect(NameKey.fold("  Zoë  Ünal ") == "zoe unal")
    }

    @Test("A timestamp with more digits than its form writes is no timestamp, and overflows nothing")
    func timestampDigits() throws {
        // fuzz/regressions/bucket/record-year-overflow: a record's xmp:CreateDate.
        let record = try fuzzText("bucket", "record-year-overflow")
        let created = try #require(record.firstMatch(of: /xmp:CreateDate="([^"]*)"/)).1
        #expect(Date(utcTimestamp: String(created)) == nil)
        #expect(Date(utcTimestamp: "2026-11-23T14:04:05.1234Z") == nil)
        #expect(Date(utcTimestamp: "99999-11-23T14:04:05.123Z") == nil)
        #expect(Date(utcTimestamp: "9999-99-99T99:99:99.999Z") != nil, "carried over, within the form's digits")
    }

    @Test("XML that FoundationXML would crash on is told apart from what stores and photo tools write")
    func xmlInput() {
        #expect(!XMLInput.isSafe(Data("<?a?><r/>".utf8)))
        #expect(!XMLInput.isSafe(Data("<r><?target?></r>".utf8)))
        #expect(!XMLInput.isSafe(Data([0x3C, 0x61, 0xDC, 0x62, 0x2F, 0x3E])))
        #expect(XMLInput.isSafe(Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ListBucketResult/>".utf8)))
        #expect(XMLInput.isSafe(Data("<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?><x:xmpmeta/><?xpacket end=\"w\"?>".utf8)))
    }
}
