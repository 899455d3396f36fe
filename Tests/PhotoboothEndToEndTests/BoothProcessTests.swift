import Foundation
import StoreFixture
import Testing

@Suite("The test's children", .fullLane)
struct BoothProcessTests {
    @Test("A booth started by a test holds none of the test process's other descriptors, even those without close-on-exec")
    func inheritsNothing() async throws {
        // A pipe as Foundation's `Process` makes them: no close-on-exec. Were the booth to
        // inherit its write end, the read end would not see the end of input while it runs.
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        #expect(fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK) == 0)
        let directory = DataDirectory()
        let booth = try BoothProcess(["run", "--simulate", "--no-http", "--countdown", "0", "--data-dir", directory.path])
        #expect(await booth.stdout.wait { $0.contains("Press Enter") }, "the booth runs")
        close(ends[1])
        var byte: UInt8 = 0
        let count = read(ends[0], &byte, 1)
        #expect(count == 0, "read \(count) (errno \(errno)): the booth holds the test's pipe open")
        try booth.endInput()
        #expect(await booth.finished().status == 0)
    }
}
