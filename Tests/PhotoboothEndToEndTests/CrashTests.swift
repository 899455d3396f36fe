import BoothCore
import Foundation
import StoreFixture
import Testing

/// The ids of the photos a booth's log reported as saved.
private func savedIDs(in log: String) -> [String] {
    log.split(separator: "\n").compactMap { line in
        guard let match = line.firstMatch(of: #/\] saved ([0-9a-f-]{36}) /#) else { return nil }
        return String(match.1)
    }
}

@Suite("Stops and crashes", .fullLane, .timeLimit(.minutes(3)))
struct CrashTests {
    @Test("SIGTERM while a guest names a photo: the photo is saved under its default caption, exit 0")
    func terminateWhileNaming() async throws {
        let directory = DataDirectory()
        let booth = try BoothProcess(["run", "--simulate", "--no-http", "--countdown", "0", "--data-dir", directory.path])
        try booth.type("\n")
        #expect(await booth.stdout.wait { $0.contains("Name your photo:\n") })
        booth.terminate()
        let result = await booth.finished()
        #expect(result.status == 0 && !result.signaled, "\(result.stderr)")
        #expect(result.stderr.contains("All photos are saved."))
        #expect(try await listed(directory).map(\.caption) == ["Photo 1"])
        let check = try await BoothProcess.run(["check", "--data-dir", directory.path])
        #expect(check.status == 0)
    }

    @Test("Killed with SIGKILL during a burst of captures, restarted: check is clean and every photo reported saved is listed")
    func killDuringBurst() async throws {
        let directory = DataDirectory()
        var reported: [String] = []
        // Several rounds on the same library, killed after a different number of saves each time,
        // so the kill lands at different points of the save (write, rename, commit, caption).
        for killAfter in [2, 5, 3] {
            let booth = try BoothProcess(["run", "--simulate", "--no-http", "--countdown", "0", "--data-dir", directory.path])
            // A burst: each photo is a press and an empty name, 40 photos queued at once.
            try booth.type(String(repeating: "\n", count: 80))
            let before = reported.count
            #expect(await booth.stderr.wait { savedIDs(in: $0).count >= killAfter }, "the booth saved nothing")
            booth.kill()
            let killed = await booth.finished()
            #expect(killed.signaled && killed.status == SIGKILL)
            reported += savedIDs(in: killed.stderr)
            #expect(reported.count >= before + killAfter)

            // Restart with no input: the booth reconciles the library and stops.
            let restart = try await BoothProcess.run(["run", "--simulate", "--no-http", "--data-dir", directory.path])
            #expect(restart.status == 0, "restart failed: \(restart.stderr)")
            let check = try await BoothProcess.run(["check", "--data-dir", directory.path])
            #expect(check.status == 0, "check after the crash: \(check.stdout)")
            let listed = Set(try await listed(directory).map(\.id))
            let missing = reported.filter { !listed.contains($0) }
            #expect(missing.isEmpty, "reported saved but not listed: \(missing)")
        }
    }
}
