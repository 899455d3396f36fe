import Foundation

/// A child process that the kernel kills when the tests end, however they end, and not before.
///
/// `setpriv --pdeathsig KILL` asks for that, but the kernel sends the signal when the *thread*
/// that started the child exits, not the process; a thread of Swift's cooperative pool that
/// sits idle for a few seconds is retired, and a store started from it died in the middle of
/// a test. So the child is started from a thread of its own that lives until ``stop(_:)``.
///
/// Its end is waited for on a semaphore that Foundation's termination handler signals, never
/// with `waitUntilExit`, which on Linux spins a thread without a run loop at full speed until
/// the child has ended: on Swift's cooperative pool, two of those stall every task.
package final class TiedProcess: Sendable {
    package let process: Process
    private let release = DispatchSemaphore(value: 0)
    private let exited = DispatchSemaphore(value: 0)

    /// Starts `executable` with `arguments` under `setpriv --pdeathsig KILL`; its output goes to
    /// `output` (discarded when `nil`).
    package init(_ executable: String, _ arguments: [String], output: FileHandle?) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--pdeathsig", "KILL", executable] + arguments
        process.standardOutput = output ?? FileHandle.nullDevice
        process.standardError = output ?? FileHandle.nullDevice
        self.process = process
        let release = release
        process.terminationHandler = { [exited] _ in exited.signal() }
        try await withCheckedThrowingContinuation { (started: CheckedContinuation<Void, any Error>) in
            Thread {
                do {
                    try ProcessLaunch.run(process)
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

    package var isRunning: Bool { process.isRunning }

    /// Sends `signal` and blocks until the child has exited: for SIGKILL, which ends it at once.
    /// Stopping it again returns at once.
    package func stop(_ signal: Int32) {
        kill(process.processIdentifier, signal)
        waitForExit()
    }

    /// Sends `signal` and returns once the child has exited, however long it takes (SIGTERM),
    /// waiting on a thread of its own.
    package func stop(_ signal: Int32) async {
        kill(process.processIdentifier, signal)
        await withCheckedContinuation { (ended: CheckedContinuation<Void, Never>) in
            Thread { [self] in
                waitForExit()
                ended.resume()
            }.start()
        }
    }

    private func waitForExit() {
        exited.wait()
        // Open for every later wait, and the child's parent thread may end.
        exited.signal()
        release.signal()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        release.signal()
    }
}
