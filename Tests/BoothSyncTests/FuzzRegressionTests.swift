import Foundation
import FuzzRegressions
import Testing

@testable import BoothSync

@Suite("What the fuzz targets found in the store's answers")
struct SyncFuzzRegressionTests {
    @Test("A listing that is not UTF-8, or has an instruction without data, is a malformed answer, not a crash")
    func listingNotUTF8() throws {
        // `<ListBucketRes\u{DC}ult ...>`: FoundationXML stops the process on such a name.
        let answer = try FuzzRegression.payload("bucket", "listing-name-not-utf8")
        #expect(S3Response.listing(answer) == nil)
        // `<?xm\u{EC} ...?>`: a processing instruction whose name is not UTF-8.
        #expect(S3Response.listing(try FuzzRegression.payload("bucket", "listing-instruction-not-utf8")) == nil)
        // `<?thtps:1?>`: an instruction without data, whose missing data FoundationXML reads.
        #expect(S3Response.listing(try FuzzRegression.payload("bucket", "listing-instruction-without-data")) == nil)
        var error = Data("<Error><Code>SlowDown</Code><Message>Reduce your rate.</Message></Error>".utf8)
        error[3] = 0xDC
        #expect(S3Response.error(error) == nil)
    }

    @Test("A store's Date header with a year beyond the timestamp's four digits is no date")
    func dateHeaderYear() {
        #expect(HTTPDateParser.date(from: "Sun, 06 Nov 922337203685477580 08:49:37 GMT") == nil)
        #expect(HTTPDateParser.date(from: "Sun, 06 Nov 1994 08:49:37 GMT") == Date(timeIntervalSince1970: 784_111_777))
    }
}
