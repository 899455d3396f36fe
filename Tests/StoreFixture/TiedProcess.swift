import Foundation

/// A child process that the kernel kills when the tests end, however they end, and not before.
///
/// `setpriv --pdeathsig KILL` asks for that, but the kernel sends the signal when the *thread*
/// that started the child exits, not the process; a thread of Swift's cooperative pool that
/// sits idle for a few seconds is retired, and a store started from it died in the middle of
/// a test. So the child is started from a thread of its own that lives until ``stop(_:)``.
public final class TiedProcess: Sendable {
    public let process: Process
    private let release = DispatchSemaphore(value: 0)

    /// Starts `executable` with `arguments` under `setpriv --pdeathsig KILL`; its output goes to
    /// `output` (discarded when `nil`).
    public init(_ executable: String, _ arguments: [String], output: FileHandle?) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--pdeathsig", "KILL", executable] + arguments
        process.standardOutput = output ?? FileHandle.nullDevice
        process.standardError = output ?? FileHandle.nullDevice
        self.process = process
        let release = release
        try await withCheckedThrowingContinuation { (started: CheckedContinuation<Void, any Error>) in
            Thread {
                do {
                    try process.run()
                    started.resume()
                } catch {
                    started.resume(throwing: error)
                    return
                }
                // The child's parent thread: it must outlive the child.
                release.wait()
            }.start()
        }
    }

    public var isRunning: Bool { process.isRunning }

    /// Sends `signal` and waits until the child has exited.
    public func stop(_ signal: Int32) {
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        release.signal()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        release.signal()
    }
}
