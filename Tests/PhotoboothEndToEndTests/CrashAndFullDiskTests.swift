import BoothCore
import Foundation
import Testing

/// The ids of the photos a booth's log reported as saved.
private func savedIDs(in log: String) -> [String] {
    log.split(separator: "\n").compactMap { line in
        guard let match = line.firstMatch(of: #/\] saved ([0-9a-f-]{36}) /#) else { return nil }
        return String(match.1)
    }
}

/// Whether this machine lets a test mount a small tmpfs in a private user and mount namespace
/// (`unshare -rm`): true for root and where unprivileged user namespaces are enabled.
private let canMountTmpfs: Bool = {
    var child: pid_t = 0
    let command = ["/usr/bin/unshare", "-rm", "/bin/sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"]
    let argv = command.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    guard posix_spawn(&child, command[0], nil, nil, argv, environ) == 0 else { return false }
    var status: Int32 = 0
    while waitpid(child, &status, 0) < 0 && errno == EINTR {}
    return status == 0
}()

@Suite("Stops, crashes and a full disk", .timeLimit(.minutes(3)))
struct CrashAndFullDiskTests {
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

    @Test(
        "A full disk: the guest is told, the log says which file and what to do, nothing crashes",
        .enabled(if: canMountTmpfs, "needs `unshare -rm` (user and mount namespaces) to mount a small tmpfs as a full disk"))
    func fullDisk() async throws {
        let directory = DataDirectory()
        try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
        // In a private mount namespace the library folder is a 160 KiB tmpfs: the catalog fits,
        // a 720p photo does not.
        let script = #"d=$0; exe=$1; shift; mount -t tmpfs -o size=160k tmpfs "$d" && exec "$exe" "$@""#
        let booth = try BoothProcess(
            ["run", "--simulate", "--no-http", "--countdown", "0", "--data-dir", directory.path],
            wrappedIn: ["unshare", "-rm", "/bin/sh", "-c", script, directory.path])
        try booth.type("\nAlice\n")
        try booth.endInput()
        let result = await booth.finished()
        #expect(result.status == 0 && !result.signaled, "\(result.stderr)")
        #expect(result.lines.contains(BoothFault.storageFull.message))
        #expect(!result.lines.contains { $0.hasPrefix("Saved as") })
        #expect(result.stderr.contains("No space left on device") && result.stderr.contains("Free some space"))
    }
}
