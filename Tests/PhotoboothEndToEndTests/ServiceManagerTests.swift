import Foundation
import StoreFixture
import Testing

/// A socket that stands in for systemd's `$NOTIFY_SOCKET`: every datagram the booth sends
/// becomes one line `| `-separated fields, in the order they came.
final class NotifySocket {
    let path: String
    let messages = OutputCollector()
    private let descriptor: Int32

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("photobooth-notify-\(UUID().uuidString.prefix(8))").path
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard descriptor >= 0, bound == 0 else {
            throw BoothProcess.SpawnError(description: "cannot bind \(path): \(String(cString: strerror(errno)))")
        }
        Thread { [descriptor, messages] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                let fields = String(decoding: buffer[0..<count], as: UTF8.self).split(separator: "\n").joined(separator: " | ")
                messages.append(Data((fields + "\n").utf8))
            }
        }.start()
    }

    deinit {
        // Ends the reading thread's recv, then the file.
        shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
        unlink(path)
    }

    /// The messages so far, one per datagram.
    var received: [String] { messages.text.split(separator: "\n").map(String.init) }

    /// Waits until `count` messages contain `field`; `false` if the socket closed first.
    func wait(for field: String, count: Int = 1) async -> Bool {
        await messages.wait { text in text.components(separatedBy: "\n").filter { $0.contains(field) }.count >= count }
    }

    /// As systemd sets it for a `Type=notify` service with `WatchdogSec=`.
    func environment(watchdog: Duration = .milliseconds(200)) -> [String: String] {
        let microseconds = watchdog.components.seconds * 1_000_000 + watchdog.components.attoseconds / 1_000_000_000_000
        return ["NOTIFY_SOCKET": path, "WATCHDOG_USEC": String(microseconds)]
    }
}

/// A simulated booth run with a configuration file that a test rewrites, as systemd runs it.
final class ConfiguredBooth {
    let directory = DataDirectory()
    let config: URL
    let socket: NotifySocket
    let booth: BoothProcess

    init(_ configuration: String, options: [String] = []) throws {
        config = directory.url.appendingPathExtension("yaml")
        try configuration.write(to: config, atomically: true, encoding: .utf8)
        socket = try NotifySocket()
        booth = try BoothProcess(
            ["run", "--simulate", "--no-http", "--config", config.path, "--data-dir", directory.path] + options,
            environment: socket.environment())
    }

    deinit { try? FileManager.default.removeItem(at: config) }

    /// Replaces the configuration file, as an operator's editor does.
    func rewrite(_ configuration: String) throws {
        try configuration.write(to: config, atomically: true, encoding: .utf8)
    }
}

@Suite("The booth under systemd: notifications and reload", .fullLane, .timeLimit(.minutes(2)))
struct ServiceManagerTests {
    @Test("READY=1 once the camera delivers, STATUS= for each state, WATCHDOG=1 from the loop, STOPPING=1 at the end")
    func notifications() async throws {
        let directory = DataDirectory()
        let socket = try NotifySocket()
        let booth = try BoothProcess(
            ["run", "--simulate", "--no-http", "--countdown", "0", "--data-dir", directory.path],
            environment: socket.environment())
        #expect(await socket.wait(for: "STATUS=Ready: waiting for the button"))
        // Two beats: the loop keeps beating while it waits for the button.
        #expect(await socket.wait(for: "WATCHDOG=1", count: 2))
        try booth.type("\n")
        #expect(await socket.wait(for: "STATUS=Waiting for a name on the keypad"))
        try booth.type("Ann\n")
        #expect(await socket.wait(for: "STATUS=Saved as Ann"))
        try booth.endInput()
        let finished = await booth.finished()
        #expect(finished.status == 0 && !finished.signaled, "\(finished.stderr)")

        let messages = socket.received.filter { $0 != "WATCHDOG=1" }
        #expect(messages.first == "STATUS=Starting: waiting for the camera's first frames", "not ready before the camera: \(messages)")
        // Ready with the camera's frames, or with the fault on the screen when they are slow
        // to come (a loaded machine).
        let ready = messages.dropFirst().first ?? ""
        #expect(ready == "READY=1 | STATUS=Ready: waiting for the button" || ready.hasPrefix("READY=1 | STATUS=Fault: "), "\(messages)")
        #expect(messages.filter { $0.contains("READY=1") }.count == 1, "\(messages)")
        #expect(messages.last == "STOPPING=1 | STATUS=Stopping: finishing the photos being saved", "\(messages)")
    }

    @Test("The first WATCHDOG=1 comes as the booth starts, not one interval later")
    func firstBeatAtStart() async throws {
        // After a reload the process starts again: systemd counts from the previous run's last
        // beat, so a first beat one interval late can exceed WatchdogSec (seen in vmtest/boot).
        let directory = DataDirectory()
        let socket = try NotifySocket()
        // Beats every 5 minutes: only a beat at start comes within the suite's time limit.
        let booth = try BoothProcess(
            ["run", "--simulate", "--no-http", "--data-dir", directory.path],
            environment: socket.environment(watchdog: .seconds(600)))
        #expect(await socket.wait(for: "WATCHDOG=1"))
        try booth.endInput()
        let finished = await booth.finished()
        #expect(finished.status == 0 && !finished.signaled, "\(finished.stderr)")
    }

    @Test("SIGHUP while a name is typed: the photo is saved with its name, then the same process starts again with the new configuration")
    func reloadWaitsForThePhotoInFlight() async throws {
        let run = try ConfiguredBooth("gallery:\n  date_format: \"'Before' yyyy\"\n", options: ["--countdown", "0"])
        let (socket, booth) = (run.socket, run.booth)
        #expect(await socket.wait(for: "READY=1"))
        try booth.type("\n")
        #expect(await socket.wait(for: "STATUS=Waiting for a name on the keypad"))

        try run.rewrite("gallery:\n  date_format: \"'After' yyyy\"\n")
        booth.send(SIGHUP)
        #expect(await socket.wait(for: "RELOADING=1"))
        #expect(await booth.stderr.wait { $0.contains("once no photo is in flight (now naming)") })
        // Still naming: the booth waits for the guest.
        #expect(!booth.stderr.text.contains("Starting again"))
        try booth.type("Ann\n")
        #expect(await socket.wait(for: "READY=1", count: 2), "ready again after the reload")
        try booth.type("v\n")
        #expect(await booth.stdout.wait { $0.contains("Ann \u{00B7} After ") }, "the gallery writes dates the new way")
        try booth.endInput()
        let finished = await booth.finished()
        #expect(finished.status == 0 && !finished.signaled, "\(finished.stderr)")
        #expect(
            finished.stderr.contains("Restarting with the new configuration once no photo is in flight")
                && finished.stderr.contains("] Starting again."))
        #expect(finished.stdout.contains("Saved as Ann"))
        #expect(try await listed(run.directory).map(\.caption) == ["Ann"])
    }

    @Test("SIGHUP with a configuration that does not read: logged, and the booth goes on as it was")
    func reloadWithABadFile() async throws {
        let run = try ConfiguredBooth("booth:\n  countdown_seconds: 0\n")
        let (socket, booth) = (run.socket, run.booth)
        #expect(await socket.wait(for: "READY=1"))
        try run.rewrite("booth:\n  countdown_seconds: soon\n")
        booth.send(SIGHUP)
        #expect(await booth.stderr.wait { $0.contains("The configuration was not reloaded") })
        try booth.type("\nBen\n")
        try booth.endInput()
        let finished = await booth.finished()
        #expect(finished.status == 0 && !finished.signaled, "\(finished.stderr)")
        #expect(finished.stderr.contains("countdown_seconds"), "the error names the key: \(finished.stderr)")
        #expect(!socket.received.contains { $0.contains("RELOADING=1") })
        #expect(try await listed(run.directory).map(\.caption) == ["Ben"])
    }
}
