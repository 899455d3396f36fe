import Dispatch
import Foundation
import Synchronization

/// SIGTERM and SIGINT, trapped once for the whole process and remembered: the booth's one way
/// to hear a stop, from the first instant of its run to the `exec` of a reload.
///
/// The service group could trap them itself, but only while it runs, and it drops a second one
/// while it shuts down gracefully: a stop that came as a reload wound the booth down, or before
/// the group had set up its trap, was lost, and the booth ran on after `systemctl stop`. Here a
/// stop asks the running group to shut down (``next()``), and one that came meanwhile is still
/// known when the group has ended (``wasRequested``).
final class StopSignal: Sendable {
    static let shared = StopSignal()

    private struct State {
        var requested = false
        var waiters: [CheckedContinuation<Bool, Never>] = []
    }

    private let state = Mutex(State())
    // Kept for the process's lifetime; Dispatch serializes their handlers.
    nonisolated(unsafe) private let sources: [any DispatchSourceSignal]

    private init() {
        sources = [SIGTERM, SIGINT].map { DispatchSource.makeSignalSource(signal: $0, queue: .global()) }
        for source in sources {
            // The process-wide instance lives as long as the process.
            source.setEventHandler { [unowned self] in received() }
            source.resume()
        }
    }

    private func received() {
        let waiters = state.withLock { state in
            state.requested = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: true) }
    }

    /// Whether a stop was asked for since the process started.
    var wasRequested: Bool { state.withLock { $0.requested } }

    /// Waits for a stop (returns at once if one came already); `false` when the waiting task is
    /// cancelled.
    func next() async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow: Bool? = state.withLock { state in
                    if state.requested { return true }
                    if Task.isCancelled { return false }
                    state.waiters.append(continuation)
                    return nil
                }
                if let resumeNow { continuation.resume(returning: resumeNow) }
            }
        } onCancel: {
            let waiters = state.withLock { state in
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume(returning: false) }
        }
    }

    /// From now on a stop ends the process at once, as it would without a trap: for the moments
    /// between a reload's end and its `exec`, when nothing is in flight.
    func endImmediately() {
        signal(SIGTERM, SIG_DFL)
        signal(SIGINT, SIG_DFL)
    }
}
