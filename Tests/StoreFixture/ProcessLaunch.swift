import Foundation
import Synchronization

/// Starts Foundation's processes one at a time, across every test module.
///
/// On Linux, `Process.run()` makes a socket pair by which it learns that its child ended, and
/// closes in the child every other descriptor open when the call began. Two calls at once (tests
/// run in parallel) each give their child the other's new socket: a child then holds its
/// neighbour's socket open, Foundation neither sees that neighbour end nor reaps it until the
/// child ends too, and whatever waits for the neighbour waits as long. Seen in the README's test
/// command: two SeaweedFS servers killed at the end of their tests stayed zombies, held by a third
/// started with them; the two tests' clean-up waited for them on the cooperative pool, which has
/// two threads here, and every test stopped. Swift Testing's exit-test monitor (`waitid` on any
/// child) spun at full speed on the zombies meanwhile.
package enum ProcessLaunch {
    private static let lock = Mutex(())

    /// `process.run()`, never at the same time as another.
    package static func run(_ process: Process) throws {
        try lock.withLock { _ in try process.run() }
    }
}

extension ProcessLaunch {
    /// What a command printed on its standard output and how it ended.
    package struct Finished: Sendable {
        package let status: Int32
        package let output: Data
    }

    /// Runs `executable` with `arguments` to its end and returns what it printed (standard error
    /// is discarded), on a thread of its own: reading the output and waiting for the end block,
    /// and neither may hold a thread of Swift's cooperative pool.
    package static func output(of executable: String, _ arguments: [String]) async throws -> Finished {
        try await withCheckedThrowingContinuation { (finished: CheckedContinuation<Finished, any Error>) in
            Thread {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: executable)
                process.arguments = arguments
                let output = Pipe()
                process.standardOutput = output
                process.standardError = FileHandle.nullDevice
                let ended = DispatchSemaphore(value: 0)
                process.terminationHandler = { _ in ended.signal() }
                do {
                    try run(process)
                } catch {
                    finished.resume(throwing: error)
                    return
                }
                let data = output.fileHandleForReading.readDataToEndOfFile()
                ended.wait()
                finished.resume(returning: Finished(status: process.terminationStatus, output: data))
            }.start()
        }
    }
}
