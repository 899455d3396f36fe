import BoothCore
import Synchronization

/// A clock on the monotonic timeline that moves only when the test says. The booth's deadlines
/// (countdown, naming, the saved screen, a save that takes too long) pass when a test advances
/// it, never because the machine running the test was slow.
final class ManualClock: Clock, Sendable {
    typealias Instant = MonotonicInstant

    private struct Sleeper {
        let id: UInt64
        let deadline: MonotonicInstant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: MonotonicInstant
        var sleepers: [Sleeper] = []
        var nextID: UInt64 = 0
        /// Sleeps cancelled before they were registered: they must not register afterwards.
        var cancelled: Set<UInt64> = []
    }

    private let state: Mutex<State>

    /// A clock that reads `start` until it is advanced.
    init(start: MonotonicInstant = MonotonicInstant(nanoseconds: 1_000_000_000_000)) {
        state = Mutex(State(now: start))
    }

    var now: MonotonicInstant { state.withLock { $0.now } }

    var minimumResolution: Duration { .nanoseconds(1) }

    func sleep(until deadline: MonotonicInstant, tolerance: Duration?) async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> Result<Void, any Error>? in
                    if state.cancelled.remove(id) != nil { return .failure(CancellationError()) }
                    if deadline <= state.now { return .success(()) }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
                    state.cancelled.insert(id)
                    return nil
                }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the time `duration` on, and wakes every sleep whose deadline it reaches.
    func advance(by duration: Duration) {
        let due = state.withLock { state in
            state.now = state.now + duration
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }
}
