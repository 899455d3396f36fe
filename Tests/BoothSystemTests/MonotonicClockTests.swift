import BoothCore
import BoothSystem
import Testing

@Suite("The system's monotonic clock")
struct MonotonicClockTests {
    @Test("The system clock moves forward")
    func clockMoves() {
        let clock = MonotonicClock()
        let first = clock.now
        var second = clock.now
        while second == first { second = clock.now }
        #expect(second > first)
    }
}
