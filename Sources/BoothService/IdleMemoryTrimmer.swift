import BoothCore
import BoothSystem
import Synchronization

/// Gives memory back once the booth has been quiet for a while: the last shots' review
/// pictures (two screens' worth, 7 MB at 1280x720), what SQLite caches for the catalog, the
/// free pages of malloc's arenas (``FreedMemory/giveBack()``) and the pages of code
/// that start-up, a burst of photos or the web's first answers touched
/// (``FreedMemory/releaseUnusedCode()``). A booth runs for months; what a busy hour made
/// resident should not stay so through the quiet ones.
///
/// It tidies once per quiet stretch: after ``quietPeriod`` in the idle state with something
/// done since the last tidy (the start counts), on a thread of its own (reading
/// `/proc/self/maps` and `madvise` are system calls, off Swift's cooperative pool).
final class IdleMemoryTrimmer: Sendable {
    static let quietPeriod = Duration.seconds(30)

    private struct State {
        /// When the booth last became idle; `nil` while it is not.
        var idleSince: MonotonicInstant?
        /// Something happened since the last tidy.
        var busySinceTidy = true
    }

    private let state = Mutex(State())
    private let quietPeriod: Duration
    private let tidy: @Sendable () -> Void
    private let thread = Mutex<DedicatedThread?>(nil)

    /// - Parameter tidy: what tidying does (the booth's lets go of the review pictures, releases
    ///   the catalog's caches, then trims malloc and unmaps code); the tests count it.
    init(quietPeriod: Duration = IdleMemoryTrimmer.quietPeriod, tidy: @escaping @Sendable () -> Void) {
        self.quietPeriod = quietPeriod
        self.tidy = tidy
    }

    /// The booth entered `state`: idle starts the quiet period, anything else ends it.
    func stateChanged(to booth: BoothState, at now: MonotonicInstant = MonotonicClock().now) {
        let wake = state.withLock { state -> Bool in
            if booth.kind == .idle {
                if state.idleSince == nil { state.idleSince = now }
            } else {
                state.idleSince = nil
                state.busySinceTidy = true
            }
            return state.idleSince != nil
        }
        if wake { thread.withLock { $0?.wake() } }
    }

    /// Starts the thread that waits for quiet stretches.
    func start() {
        let clock = MonotonicClock()
        let started = DedicatedThread(name: "idle memory trimmer", priority: .background) { [self] wakeup in
            while !wakeup.isStopping {
                wakeup.wait(until: tidyDue())
                if !wakeup.isStopping, tidyIfDue(now: clock.now) { tidy() }
            }
        }
        thread.withLock { $0 = started }
    }

    /// Tells the thread to end; it does at once.
    func stop() {
        thread.withLock { $0?.requestStop() }
    }

    /// When the next tidy is due; `nil` (wait to be woken) when none is.
    func tidyDue() -> MonotonicInstant? {
        state.withLock { state in
            guard state.busySinceTidy, let since = state.idleSince else { return nil }
            return since + quietPeriod
        }
    }

    /// Whether a tidy is due at `now`; if so, it counts as done.
    func tidyIfDue(now: MonotonicInstant) -> Bool {
        state.withLock { state in
            guard state.busySinceTidy, let since = state.idleSince, now >= since + quietPeriod else { return false }
            state.busySinceTidy = false
            return true
        }
    }
}
