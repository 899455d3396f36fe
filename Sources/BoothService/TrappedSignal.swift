import Dispatch
import Foundation
import Synchronization

/// Signals trapped once for the whole process and remembered, so that none is lost to a
/// moment when nobody waits: the booth's stops (SIGTERM, SIGINT) and its reloads (SIGHUP,
/// `systemctl reload photobooth`).
///
/// Not service-lifecycle's signal support: a `ServiceGroup` traps its signals only while it
/// runs, and drops a second one while it shuts down gracefully; a `UnixSignalsSequence` traps
/// only from when it is made, in an async context. A stop that came as a reload wound the booth
/// down, or before the group had set up its trap, was lost, and the booth ran on after
/// `systemctl stop`; a hangup before the reloader listened ended the process (SIGHUP's
/// default). Here each is trapped from the first use on and kept until asked for.
final class TrappedSignal: Sendable {
    /// How long a signal that came is remembered.
    enum Memory: Sendable {
        /// For good: every wait from then on returns at once (a stop, which the end of a reload
        /// must still see).
        case kept
        /// Until a wait takes it: each one answers one wait (a reload).
        case taken
    }

    /// SIGTERM and SIGINT: the booth's one way to hear a stop, from the first instant of its
    /// run to the `exec` of a reload. A stop asks the running group to shut down (``next()``),
    /// and one that came meanwhile is still known when the group has ended (``wasReceived``).
    static let stop = TrappedSignal([SIGTERM, SIGINT], memory: .kept)

    /// SIGHUP, ignored as a signal so that it never ends the process: an ignored signal stays
    /// ignored across `exec`, so a re-executed booth is never killed by a hangup that comes
    /// before it listens, and Dispatch still reports it.
    static let hangup = TrappedSignal([SIGHUP], memory: .taken, ignored: true)

    private struct State {
        var received = false
        var waiters: [CheckedContinuation<Bool, Never>] = []
    }

    private let signals: [Int32]
    private let memory: Memory
    private let state = Mutex(State())
    // Kept for the process's lifetime; Dispatch serializes their handlers.
    nonisolated(unsafe) private let sources: [any DispatchSourceSignal]

    private init(_ signals: [Int32], memory: Memory, ignored: Bool = false) {
        self.signals = signals
        self.memory = memory
        if ignored {
            for number in signals { signal(number, SIG_IGN) }
        }
        sources = signals.map { DispatchSource.makeSignalSource(signal: $0, queue: .global()) }
        for source in sources {
            // The process-wide instances live as long as the process.
            source.setEventHandler { [unowned self] in received() }
            source.resume()
        }
    }

    private func received() {
        let waiters = state.withLock { state in
            defer { state.waiters = [] }
            // A signal that a waiter takes is not kept for the next one, unless kept for good.
            state.received = memory == .kept || state.waiters.isEmpty
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: true) }
    }

    /// Whether one of the signals came (and, for ``Memory/taken``, was not taken yet).
    var wasReceived: Bool { state.withLock { $0.received } }

    /// Waits for one of the signals (returns at once if one came and is remembered); `false`
    /// when the waiting task is cancelled.
    func next() async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow: Bool? = state.withLock { state in
                    if state.received {
                        if memory == .taken { state.received = false }
                        return true
                    }
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

    /// From now on the signals end the process at once, as they would without a trap: for a
    /// stop in the moments between a reload's end and its `exec`, when nothing is in flight.
    func endImmediately() {
        for number in signals { signal(number, SIG_DFL) }
    }
}
