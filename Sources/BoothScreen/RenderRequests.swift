import BoothCore
import BoothSystem
import Dispatch
import Synchronization

/// What a screen's render thread is asked to do, from any thread: draw new content, draw a
/// camera frame, stop. The framebuffer and the web's mirror each have one; their threads take
/// the next step from it, sleep on ``wait(until:)``, and call ``finished()`` when they end.
public final class RenderRequests: Sendable {
    private struct State {
        var schedule: RenderSchedule
        var finished = false
        var stopWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Mutex<State>
    /// Signalled whenever the render thread has something new to consider.
    private let wakeup = DispatchSemaphore(value: 0)

    public init(previewInterval: Duration) {
        state = Mutex(State(schedule: RenderSchedule(previewInterval: previewInterval)))
    }

    /// Takes `content` as what the screen shows; wakes the thread when it changed.
    public func show(_ content: ScreenContent) {
        if state.withLock({ $0.schedule.show(content) }) { wakeup.signal() }
    }

    /// Takes `frame` as the next preview, replacing one not drawn yet.
    public func receive(_ frame: CameraFrame) {
        if state.withLock({ $0.schedule.receive(frame) }) { wakeup.signal() }
    }

    /// Asks the thread to stop, and returns once it has (``finished()``).
    public func stop() async {
        await withCheckedContinuation { continuation in
            let finished = state.withLock { state in
                state.schedule.stop()
                if !state.finished { state.stopWaiters.append(continuation) }
                return state.finished
            }
            if finished { continuation.resume() } else { wakeup.signal() }
        }
    }

    public var isStopping: Bool { state.withLock { $0.schedule.isStopping } }

    /// The render thread's next step at `now`; `redraw` first asks for the current content
    /// again (a new viewer).
    public func next(at now: MonotonicInstant, redraw: Bool = false) -> RenderSchedule.Step {
        state.withLock { state in
            if redraw { state.schedule.redraw() }
            return state.schedule.next(at: now)
        }
    }

    /// Sleeps until `deadline` on `clock`, or until something new comes; `nil` to sleep until
    /// then, however long.
    public func wait(until deadline: MonotonicInstant?, on clock: MonotonicClock) {
        guard let deadline else { return wakeup.wait() }
        let remaining = clock.now.duration(to: deadline).inNanoseconds
        _ = wakeup.wait(timeout: .now() + .nanoseconds(Int(max(0, remaining))))
    }

    /// Called by the render thread as it ends: resumes whoever waits in ``stop()``.
    public func finished() {
        let waiters = state.withLock { state in
            state.finished = true
            defer { state.stopWaiters = [] }
            return state.stopWaiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
