import BoothCore
import Synchronization

/// The camera's most recent frames, filled by the camera task as frames arrive and read by the
/// shutter, which may have to wait for the frame exposed just after the countdown ended.
final class RecentFrames: Sendable {
    private struct Waiter {
        let id: UInt64
        let instant: MonotonicInstant
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var ring = FrameRing()
        var waiters: [Waiter] = []
        var nextWaiterID: UInt64 = 0
        /// Waits that timed out (or were cancelled) before they were registered; they must not
        /// register afterwards, or nothing would ever end them.
        var abandoned: Set<UInt64> = []
    }

    private let state = Mutex(State())

    /// Adds a frame and wakes the shots it completes.
    func append(_ frame: CameraFrame) {
        let ready = state.withLock { state in
            state.ring.append(frame)
            let ready = state.waiters.filter { state.ring.covers($0.instant) }
            state.waiters.removeAll { state.ring.covers($0.instant) }
            return ready
        }
        for waiter in ready { waiter.continuation.resume() }
    }

    /// When the frame nearest `instant` will be exposed, at the camera's pace (see
    /// ``FrameRing/expectedExposure(near:)``); `instant` itself when the pace is not known yet.
    func expectedExposure(near instant: MonotonicInstant) -> MonotonicInstant {
        state.withLock { $0.ring.expectedExposure(near: instant) } ?? instant
    }

    /// The shot for `instant`: the frames exposed within `window` of it, nearest first (frames
    /// further away show a moment the guest did not pose for: the camera stalled, or has just
    /// started). Waits, at most `timeout`, for a frame exposed at or after `instant`, since that
    /// one may be the nearest. Empty when the camera delivered nothing usable.
    func shot(at instant: MonotonicInstant, within window: Duration, waitingAtMost timeout: Duration) async -> [CameraFrame] {
        let id = state.withLock { state in
            defer { state.nextWaiterID += 1 }
            return state.nextWaiterID
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.wait(id: id, until: instant) }
            group.addTask {
                try? await Task.sleep(for: timeout)
                self.stopWaiting(id: id)
            }
            await group.next()
            group.cancelAll()
        }
        return state.withLock { state in
            state.abandoned.remove(id)
            return state.ring.nearest(to: instant).filter {
                abs($0.timestamp.nanoseconds - instant.nanoseconds) <= window.inNanoseconds
            }
        }
    }

    private func wait(id: UInt64, until instant: MonotonicInstant) async {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state in
                if state.ring.covers(instant) || state.abandoned.contains(id) { return true }
                state.waiters.append(Waiter(id: id, instant: instant, continuation: continuation))
                return false
            }
            if done { continuation.resume() }
        }
    }

    /// Ends a wait that timed out, or marks it abandoned if it has not registered yet.
    private func stopWaiting(id: UInt64) {
        let waiter = state.withLock { state -> Waiter? in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else {
                state.abandoned.insert(id)
                return nil
            }
            return state.waiters.remove(at: index)
        }
        waiter?.continuation.resume()
    }
}
