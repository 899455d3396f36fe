import BoothCore
import Synchronization
import Testing

@testable import BoothService

@Suite("Memory given back when the booth is quiet")
struct MemoryKeeperTests {
    let start = MonotonicInstant(nanoseconds: 1_000_000_000)

    @Test("A tidy is due a quiet period after the booth became idle, once per quiet stretch")
    func oncePerQuietStretch() {
        let keeper = IdleMemoryTrimmer(quietPeriod: .seconds(30), tidy: {})
        #expect(keeper.tidyDue() == nil, "not before the booth is idle")
        keeper.stateChanged(to: .idle, at: start)
        #expect(keeper.tidyDue() == start + .seconds(30))
        #expect(!keeper.tidyIfDue(now: start + .seconds(29)))
        // Idle again (a screen repainted) does not move the start of the quiet stretch.
        keeper.stateChanged(to: .idle, at: start + .seconds(10))
        #expect(keeper.tidyIfDue(now: start + .seconds(30)))
        #expect(keeper.tidyDue() == nil, "nothing happened since")
        #expect(!keeper.tidyIfDue(now: start + .seconds(90)))
    }

    @Test("A guest ends the quiet stretch; the next one is counted from the return to idle")
    func guestEndsQuiet() {
        let keeper = IdleMemoryTrimmer(quietPeriod: .seconds(30), tidy: {})
        keeper.stateChanged(to: .idle, at: start)
        keeper.stateChanged(to: .countdown(shutterAt: start + .seconds(23)), at: start + .seconds(20))
        #expect(keeper.tidyDue() == nil)
        #expect(!keeper.tidyIfDue(now: start + .seconds(31)), "the booth was busy at the quiet period's end")
        keeper.stateChanged(to: .idle, at: start + .seconds(40))
        #expect(keeper.tidyDue() == start + .seconds(70))
        #expect(keeper.tidyIfDue(now: start + .seconds(70)))
    }

    @Test("The keeper's thread tidies when the quiet period has passed")
    func threadTidies() async {
        let tidied = Mutex(0)
        let done = AsyncStream<Void>.makeStream()
        let keeper = IdleMemoryTrimmer(quietPeriod: .milliseconds(1)) {
            tidied.withLock { $0 += 1 }
            done.continuation.yield()
        }
        keeper.start()
        defer { keeper.stop() }
        keeper.stateChanged(to: .idle)
        var iterator = done.stream.makeAsyncIterator()
        await iterator.next()
        #expect(tidied.withLock { $0 } == 1)
    }
}
