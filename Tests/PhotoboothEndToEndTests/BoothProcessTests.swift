import Foundation
import StoreFixture
import Testing

@Suite("The test's children", .fullLane)
struct BoothProcessTests {
    @Test("A booth started by a test holds none of the test process's other descriptors, even those without close-on-exec")
    func inheritsNothing() async throws {
        // A pipe as Foundation's `Process` makes them: no close-on-exec. The booth must hold
        // neither end. Its descriptors are read in /proc: waiting for the read end to see the end
        // of input would also wait for any child another test spawns with Foundation meanwhile.
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        let pipeName = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(ends[1])")
        #expect(pipeName.hasPrefix("pipe:"))
        let directory = DataDirectory()
        let booth = try BoothProcess(["run", "--simulate", "--no-http", "--countdown", "0", "--data-dir", directory.path])
        #expect(await booth.stdout.wait { $0.contains("Press Enter") }, "the booth runs")
        let folder = "/proc/\(booth.pid)/fd"
        let held = try FileManager.default.contentsOfDirectory(atPath: folder).compactMap {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\($0)")
        }
        #expect(held.count >= 3, "the booth's descriptors: \(held)")
        #expect(!held.contains(pipeName), "the booth holds the test's pipe \(pipeName): \(held)")
        try booth.endInput()
        #expect(await booth.finished().status == 0)
    }
}
