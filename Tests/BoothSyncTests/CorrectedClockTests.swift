import Foundation
import Testing

@testable import BoothSync

@Suite("The booth's clock, corrected by the store's")
struct CorrectedClockTests {
    @Test(
        "Unknown until the store is heard; a difference within 5 s is the header's rounding, a larger one corrects, and only a change of more than 5 s moves it"
    )
    func hysteresis() {
        let system = Date(timeIntervalSince1970: 1_800_000_000)
        let clock = CorrectedClock(system: { system })
        #expect(clock.correction == nil && clock.now == system)
        #expect(clock.observe(storeTime: system + 2, at: system) == 0, "known: the booth's clock is right")
        #expect(clock.observe(storeTime: system + 4, at: system) == nil)
        #expect(clock.observe(storeTime: system + 3600, at: system) == 3600.5)
        #expect(clock.now == system + 3600.5)
        #expect(clock.observe(storeTime: system + 3603, at: system) == nil, "within the tolerance of the correction")
        #expect(clock.observe(storeTime: system - 1, at: system) == 0, "NTP set the booth's clock: no correction")
        clock.correct(to: system - 86_400, at: system)
        #expect(clock.correction == -86_400)
    }

    @Test("A correction in words, rounded as people read it")
    func words() {
        #expect(CorrectedClock.describe(40) == "40 s behind the store's")
        #expect(CorrectedClock.describe(-754) == "12 min 34 s ahead of the store's")
        #expect(CorrectedClock.describe(3599.4) == "1 h 0 min behind the store's")
        #expect(CorrectedClock.describe(-5400) == "1 h 30 min ahead of the store's")
        #expect(CorrectedClock.describe(86_399) == "1 d 0 h behind the store's")
        #expect(CorrectedClock.describe(2 * 86_400 + 7200) == "2 d 2 h behind the store's")
    }
}
