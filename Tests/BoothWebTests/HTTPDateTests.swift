import Testing

@testable import BoothWeb

@Suite("The Date header")
struct HTTPDateTests {
    @Test("IMF-fixdate, as RFC 9110 writes its own example and a leap day")
    func format() {
        #expect(HTTPDate.text(forSecond: 784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.text(forSecond: 1_709_164_805) == "Thu, 29 Feb 2024 00:00:05 GMT")
    }
}
