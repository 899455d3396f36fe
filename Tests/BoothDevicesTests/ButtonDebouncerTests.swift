import BoothCore
import Testing

@testable import BoothDevices

@Suite("Button debouncer")
struct ButtonDebouncerTests {
    let start = MonotonicInstant(nanoseconds: 5_000_000_000)

    /// Edges alternating rising/falling from `first`, `gap` apart; returns the presses.
    func presses(_ debouncer: inout ButtonDebouncer, edges: Int, from first: MonotonicInstant, gap: Duration, risingFirst: Bool = true) -> [MonotonicInstant] {
        (0..<edges).compactMap { index in
            debouncer.press(rising: (index % 2 == 0) == risingFirst, at: first + gap * index)
        }
    }

    @Test("Ten edges within 20 ms are one press, timed at the first contact")
    func chatter() {
        var debouncer = ButtonDebouncer(window: .milliseconds(30))
        #expect(presses(&debouncer, edges: 10, from: start, gap: .milliseconds(2)) == [start])
    }

    @Test("Bouncing on release makes no press; the next real push does")
    func releaseBounce() {
        var debouncer = ButtonDebouncer(window: .milliseconds(30))
        #expect(debouncer.press(rising: true, at: start) == start)
        let release = start + .seconds(2)  // held for two seconds: no edges meanwhile
        #expect(presses(&debouncer, edges: 5, from: release, gap: .milliseconds(1), risingFirst: false).isEmpty)
        let next = release + .milliseconds(500)
        #expect(debouncer.press(rising: true, at: next) == next)
    }

    @Test("Two pushes 40 ms apart are two presses with a 30 ms window, one with a 50 ms window", arguments: [(30, 2), (50, 1)])
    func window(milliseconds: Int, expected: Int) {
        var debouncer = ButtonDebouncer(window: .milliseconds(milliseconds))
        let edges = [(true, 0), (false, 40), (true, 80)].compactMap { rising, offset in
            debouncer.press(rising: rising, at: start + .milliseconds(offset))
        }
        #expect(edges.count == expected)
    }
}
