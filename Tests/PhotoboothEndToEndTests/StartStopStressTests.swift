import Foundation
import StoreFixture
import Testing

/// A listening TCP socket on the loopback, held by the test, so that a booth asked to serve on
/// its port fails to bind: a web service that fails as the booth starts.
final class TakenPort: Sendable {
    let port: Int
    private let descriptor: Int32

    init() throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        port = try Self.bind(descriptor)
        guard listen(descriptor, 1) == 0 else {
            throw BoothProcess.SpawnError(description: "cannot listen: \(String(cString: strerror(errno)))")
        }
    }

    deinit { close(descriptor) }

    /// A port no one listens on right now: the system's pick, released at once.
    static func free() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(descriptor) }
        return try bind(descriptor)
    }

    /// Binds `descriptor` to 127.0.0.1 on a port the system picks; returns the port.
    private static func bind(_ descriptor: Int32) throws -> Int {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                Glibc.bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        guard descriptor >= 0, bound else {
            throw BoothProcess.SpawnError(description: "cannot bind a loopback port: \(String(cString: strerror(errno)))")
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// The start-up deadlock of issue 11: a web service that failed at start, or a stop or reload
/// racing with the cancellation of an async sequence, could hang the booth forever, deaf to
/// SIGTERM. Each run here must end by itself; one that does not within 30 s is a hang, is
/// killed, and fails the test with its log.
@Suite("Starts and stops at random instants never hang", .fullLane, .timeLimit(.minutes(10)))
struct StartStopStressTests {
    /// Runs this many booths at a time: the machines have two cores, and each booth mostly waits.
    static let parallelRuns = 4
    /// A smaller, slower simulated camera still than the other tests' (``BoothProcess/smallCamera``):
    /// the booths here only start and stop, and must not take the cores from the tests beside them.
    static let lightCamera = ["--camera-size", "160x120", "--camera-fps", "5"]
    /// How long a run may take before it counts as a hang (a run takes well under 2 s).
    static let hangLimit = Duration.seconds(30)

    @Test("200 starts with a web port that cannot be bound: every booth stops at the end of its input")
    func failingWebService() async throws {
        let taken = try TakenPort()
        let outcomes = await Self.runMany(200) { library, _ in
            let booth = try BoothProcess(
                [
                    "run", "--simulate", "--countdown", "0", "--http-address", "127.0.0.1", "--http-port", String(taken.port),
                    "--data-dir", library.path,
                ] + Self.lightCamera)
            try booth.endInput()
            return booth
        }
        Self.expectNoHang(outcomes)
        for outcome in outcomes {
            #expect(outcome.result?.status == 0 && outcome.result?.signaled == false, "\(outcome.result?.stderr ?? "")")
            #expect(outcome.result?.stderr.contains("another program uses the port") == true, "the web did not fail: \(outcome.result?.stderr ?? "")")
        }
    }

    @Test("A web address that is not this machine's: the booth says which key to change, and runs on without the web")
    func foreignAddress() async throws {
        // 192.0.2.1 is TEST-NET-1 (RFC 5737): never a local address.
        let result = try await BoothProcess.run(
            ["run", "--simulate", "--countdown", "0", "--http-address", "192.0.2.1", "--data-dir", DataDirectory().path] + Self.lightCamera,
            input: "")
        #expect(result.status == 0 && !result.signaled, "\(result.stderr)")
        #expect(result.stderr.contains("cannot serve on 192.0.2.1:") && result.stderr.contains("not one of this machine's"), "\(result.stderr)")
        #expect(result.stderr.contains("(http.address). The booth goes on without it."), "\(result.stderr)")
    }

    @Test("200 runs stopped by SIGTERM, or reloaded by SIGHUP then stopped, at random instants: none hangs")
    func stopOrReloadAtRandomInstants() async throws {
        // Every run's instants are drawn before any starts, so that the seed alone says them.
        let seed = TestSeed(for: "Stops and reloads at random instants")
        var generator = seed.generator
        let instants = (0..<200).map { _ in
            (
                reload: Bool.random(using: &generator) ? Int.random(in: 0...1500, using: &generator) : nil,
                stop: Int.random(in: 0...1500, using: &generator)
            )
        }
        let outcomes = await Self.runMany(200) { library, run in
            let booth = try BoothProcess(
                [
                    "run", "--simulate", "--countdown", "0", "--http-address", "127.0.0.1", "--http-port", String(try TakenPort.free()),
                    "--data-dir", library.path,
                ] + Self.lightCamera)
            if let reload = instants[run].reload {
                try await Task.sleep(for: .milliseconds(reload))
                booth.send(SIGHUP)
            }
            try await Task.sleep(for: .milliseconds(instants[run].stop))
            booth.terminate()
            return booth
        }
        Self.expectNoHang(outcomes, seed: seed)
        for outcome in outcomes {
            guard let result = outcome.result else { continue }
            // SIGTERM before the booth traps it (at the very start, or between a reload's end and
            // the new run's first instant) ends it as a signal does: no hang, nothing in flight.
            // From a run's opening of its library to the end of its saves, the trap is set: a
            // stop then must end it cleanly. A SIGHUP can end it only before its first
            // instruction ignores it, while the binary is still loading (systemd never reloads a
            // service that is not ready yet).
            let lastRun = result.stderr.components(separatedBy: "Starting again.").last ?? ""
            let trapped = lastRun.contains("Photo library in ") && !lastRun.contains("All photos are saved.")
            let stopped =
                (result.status == 0 && !result.signaled) || (result.signaled && result.status == SIGTERM && !trapped)
                || (result.signaled && result.status == SIGHUP && result.stderr.isEmpty)
            #expect(stopped, "run \(outcome.run), \(seed): exit \(result.status) (signal: \(result.signaled)): \(result.stderr)")
        }
    }

    /// What one run left: `nil` when it hung and was killed.
    struct Outcome: Sendable {
        /// Which of the runs it was, from 0.
        let run: Int
        let result: Finished?
        let log: String
    }

    /// Runs `count` booths (numbered from 0), ``parallelRuns`` at a time; each worker has a
    /// library of its own.
    static func runMany(_ count: Int, start: @escaping @Sendable (DataDirectory, Int) async throws -> BoothProcess) async -> [Outcome] {
        await withTaskGroup(of: [Outcome].self) { group in
            for worker in 0..<parallelRuns {
                group.addTask {
                    let library = DataDirectory()
                    var outcomes: [Outcome] = []
                    for run in stride(from: worker, to: count, by: parallelRuns) {
                        do {
                            let booth = try await start(library, run)
                            let result = await booth.finished(within: hangLimit)
                            outcomes.append(Outcome(run: run, result: result, log: booth.stderr.text))
                        } catch {
                            outcomes.append(Outcome(run: run, result: nil, log: "cannot run the booth: \(error)"))
                        }
                    }
                    return outcomes
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
    }

    static func expectNoHang(_ outcomes: [Outcome], seed: TestSeed? = nil) {
        let hung = outcomes.filter { $0.result == nil }
        let replay = seed.map { ", \($0)" } ?? ""
        #expect(
            hung.isEmpty,
            "\(hung.count) of \(outcomes.count) runs hung\(replay); the first one's (run \(hung.first?.run ?? 0)) log:\n\(hung.first?.log ?? "")")
    }
}
