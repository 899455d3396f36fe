import CSpawn
import Foundation
import Synchronization
import Testing

/// Output of a child process, collected as it arrives, that a test can wait on.
final class OutputCollector: Sendable {
    private struct State {
        var data = Data()
        var ended = false
        var waiters: [(id: Int, matches: @Sendable (String) -> Bool, continuation: CheckedContinuation<Bool, Never>)] = []
        var nextWaiter = 0
    }

    /// How long ``wait(until:)`` waits before it answers `false`: far longer than any step of a
    /// test takes, so that an output that never comes fails the test instead of hanging it.
    static let patience = Duration.seconds(90)

    private let state = Mutex(State())

    /// Adds a chunk; an empty chunk is the end of the output.
    func append(_ chunk: Data) {
        let resumed = state.withLock { state -> [(CheckedContinuation<Bool, Never>, Bool)] in
            if chunk.isEmpty { state.ended = true } else { state.data.append(chunk) }
            let text = String(decoding: state.data, as: UTF8.self)
            var resumed: [(CheckedContinuation<Bool, Never>, Bool)] = []
            state.waiters.removeAll { waiter in
                if waiter.matches(text) {
                    resumed.append((waiter.continuation, true))
                    return true
                }
                if state.ended {
                    resumed.append((waiter.continuation, false))
                    return true
                }
                return false
            }
            return resumed
        }
        for (continuation, matched) in resumed { continuation.resume(returning: matched) }
    }

    var text: String { state.withLock { String(decoding: $0.data, as: UTF8.self) } }

    /// Waits until the output satisfies `matches`; `false` if it ended without doing so, or
    /// did not within ``patience``.
    func wait(until matches: @escaping @Sendable (String) -> Bool) async -> Bool {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        let deadline = Task {
            try await Task.sleep(for: Self.patience)
            let waiter = state.withLock { state in
                state.waiters.firstIndex { $0.id == id }.map { state.waiters.remove(at: $0) }
            }
            waiter?.continuation.resume(returning: false)
        }
        defer { deadline.cancel() }
        return await withCheckedContinuation { continuation in
            let answer = state.withLock { state -> Bool? in
                let text = String(decoding: state.data, as: UTF8.self)
                if matches(text) { return true }
                if state.ended { return false }
                state.waiters.append((id, matches, continuation))
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }

    /// Waits until the output has ended.
    func waitForEnd() async {
        _ = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let ended = state.withLock { state in
                if !state.ended { state.waiters.append((-1, { _ in false }, continuation)) }
                return state.ended
            }
            if ended { continuation.resume(returning: false) }
        }
    }
}

/// What a finished photobooth process left.
struct Finished {
    /// The exit status, or the signal number when `signaled`.
    let status: Int32
    let signaled: Bool
    let stdout: String
    let stderr: String

    /// Standard output as lines.
    var lines: [String] { stdout.split(separator: "\n").map(String.init) }
}

/// The built `photobooth` executable, run as a user runs it: arguments, standard input,
/// standard output and error.
///
/// Children are started with `posix_spawn` on close-on-exec pipes, one child at a time, and
/// every other descriptor is closed in the child, so a child inherits only its own three.
/// (Foundation's `Process` left pipe ends open when tests started children in parallel; a booth
/// then waited forever for the end of an input another child held open. And a booth that
/// inherited the socket Foundation watches for the end of *its* child kept that child's
/// `waitUntilExit` spinning on the cooperative pool until the booth ended: two of them stalled
/// the whole test run.) Output is read and the child reaped on threads of their own, so nothing
/// here blocks Swift's cooperative pool.
final class BoothProcess: Sendable {
    /// Held while pipes are made close-on-exec and a child is spawned: a spawn on another thread
    /// between `pipe` and `fcntl` would inherit them.
    private static let spawning = Mutex(())

    let stdout = OutputCollector()
    let stderr = OutputCollector()
    /// The child's process id, to look at it in /proc.
    let pid: pid_t
    private let input: Mutex<Int32?>
    private let exitStatus: AsyncStream<(Int32, Bool)>
    /// Whether the child has ended and been reaped: one still running when the test lets go of
    /// it (a test that failed before stopping it, a `serve` that no end of input stops) is
    /// killed, not left running after the tests.
    private let reaped = ReapedFlag()

    /// The executable next to the test bundle (SwiftPM builds both into the same folder).
    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("photobooth")
    }

    struct SpawnError: Error, CustomStringConvertible {
        let description: String
    }

    /// The simulated camera of the booths these tests run, unless a test names its own size: the
    /// tests run many booths at once on two cores, and a debug build encoding 720p at 30 frames
    /// a second in each starves them, so that a shot finds no frame and a script's name becomes a
    /// press.
    static let smallCamera = ["--camera-size", "320x240", "--camera-fps", "10"]

    /// Starts `executable` (or `wrapper`, a command that runs it, such as `unshare`) with
    /// `arguments`, and `environment` added to the test's.
    init(
        _ arguments: [String], executable: URL = BoothProcess.executable, wrappedIn wrapper: [String] = [],
        environment: [String: String] = [:]
    ) throws {
        var arguments = arguments
        if executable == Self.executable, arguments.starts(with: ["run", "--simulate"]), !arguments.contains("--camera-size") {
            arguments += Self.smallCamera
        }
        // Writing to a child that has exited must fail, not kill the test run.
        signal(SIGPIPE, SIG_IGN)
        let (child, standardInput, standardOutput, standardError) = try Self.spawning.withLock { _ in
            try Self.spawn(arguments, executable: executable, wrapper: wrapper, environment: environment)
        }
        pid = child
        input = Mutex(standardInput)

        for (descriptor, collector) in [(standardOutput, stdout), (standardError, stderr)] {
            Thread {
                var chunk = [UInt8](repeating: 0, count: 65536)
                while true {
                    let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                    if count < 0 && errno == EINTR { continue }
                    guard count > 0 else { break }
                    collector.append(Data(chunk[0..<count]))
                }
                close(descriptor)
                collector.append(Data())
            }.start()
        }
        let (statusStream, statusSink) = AsyncStream.makeStream(of: (Int32, Bool).self)
        exitStatus = statusStream
        Thread { [reaped] in
            var status: Int32 = 0
            while waitpid(child, &status, 0) < 0 && errno == EINTR {}
            reaped.flag.store(true, ordering: .releasing)
            // WIFSIGNALED / WTERMSIG / WEXITSTATUS, which Swift does not import.
            let signal = status & 0x7F
            statusSink.yield(signal == 0 ? ((status >> 8) & 0xFF, false) : (signal, true))
            statusSink.finish()
        }.start()
    }

    /// Spawns the child on new pipes; returns its pid and the parent's ends (input to write,
    /// output and error to read).
    private static func spawn(
        _ arguments: [String], executable: URL, wrapper: [String], environment added: [String: String]
    ) throws -> (pid_t, Int32, Int32, Int32) {
        let standardInput = try makePipe()
        let standardOutput = try makePipe()
        let standardError = try makePipe()

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, standardInput.read, 0)
        posix_spawn_file_actions_adddup2(&actions, standardOutput.write, 1)
        posix_spawn_file_actions_adddup2(&actions, standardError.write, 2)
        let closing = cspawn_close_from(&actions, 3)

        let command = wrapper.isEmpty ? [executable.path] + arguments : ["/usr/bin/env"] + wrapper + [executable.path] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["TZ"] = "UTC"
        environment.merge(added) { $1 }
        let argv = command.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var child: pid_t = 0
        let status = closing != 0 ? closing : posix_spawn(&child, command[0], &actions, nil, argv, envp)
        for descriptor in [standardInput.read, standardOutput.write, standardError.write] { close(descriptor) }
        guard status == 0 else {
            for descriptor in [standardInput.write, standardOutput.read, standardError.read] { close(descriptor) }
            throw SpawnError(description: "cannot start \(command[0]): \(String(cString: strerror(status)))")
        }
        return (child, standardInput.write, standardOutput.read, standardError.read)
    }

    deinit {
        input.withLock { descriptor in
            if let descriptor { close(descriptor) }
        }
        if !reaped.flag.load(ordering: .acquiring) { _ = Glibc.kill(pid, SIGKILL) }
    }

    private static func makePipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw SpawnError(description: "cannot create a pipe: \(String(cString: strerror(errno)))")
        }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }

    /// Types `text` on the booth's standard input.
    func type(_ text: String) throws {
        try type(Array(text.utf8))
    }

    func type(_ bytes: [UInt8]) throws {
        try input.withLock { descriptor in
            guard let descriptor else { throw SpawnError(description: "standard input is closed") }
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { throw SpawnError(description: "cannot write to the booth: \(String(cString: strerror(errno)))") }
                offset += written
            }
        }
    }

    /// Ends standard input.
    func endInput() throws {
        input.withLock { descriptor in
            if let descriptor { close(descriptor) }
            descriptor = nil
        }
    }

    /// Asks the process to stop, as systemd does.
    func terminate() {
        _ = Glibc.kill(pid, SIGTERM)
    }

    /// Sends `signal` (SIGHUP: `systemctl reload`).
    func send(_ signal: Int32) {
        _ = Glibc.kill(pid, signal)
    }

    /// Kills the process at once, as a power cut or the OOM killer would.
    func kill() {
        _ = Glibc.kill(pid, SIGKILL)
    }

    /// Waits for the process to exit and its output to end.
    func finished() async -> Finished {
        var iterator = exitStatus.makeAsyncIterator()
        let (status, signaled) = await iterator.next() ?? (-1, false)
        await stdout.waitForEnd()
        await stderr.waitForEnd()
        return Finished(status: status, signaled: signaled, stdout: stdout.text, stderr: stderr.text)
    }

    /// Waits as ``finished()`` does, for at most `limit`; a process still running then is hung:
    /// it is killed and the answer is `nil`.
    func finished(within limit: Duration) async -> Finished? {
        await withTaskGroup(of: Finished?.self) { group in
            group.addTask { await self.finished() }
            group.addTask {
                try? await Task.sleep(for: limit)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            guard first == nil else { return first }
            kill()
            // Reaps it, so that no process outlives the test.
            while let next = await group.next() { _ = next }
            return nil
        }
    }

    /// Runs `photobooth arguments` with `input` on standard input, to the end.
    static func run(_ arguments: [String], input: String = "") async throws -> Finished {
        let booth = try BoothProcess(arguments)
        if !input.isEmpty { try booth.type(input) }
        try booth.endInput()
        return await booth.finished()
    }
}

/// A library folder for one test, removed afterwards.
final class DataDirectory: Sendable {
    let url: URL
    var path: String { url.path }

    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("photobooth-e2e-\(UUID().uuidString.lowercased())")
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}

/// Set once a child has been reaped.
private final class ReapedFlag: Sendable {
    let flag = Atomic(false)
}
