import BoothCore
import Testing

@testable import BoothDevices

@Suite("Button debouncer")
struct ButtonDebouncerTests {
    let start = MonotonicInstant(nanoseconds: 5_000_000_000)

    /// `count` edges `gap` apart from `first`; returns the presses.
    func presses(_ debouncer: inout ButtonDebouncer, edges count: Int, from first: MonotonicInstant, gap: Duration) -> [MonotonicInstant] {
        (0..<count).compactMap { debouncer.edge(at: first + gap * $0) }
    }

    @Test("Ten edges within 20 ms are one press, timed at the first contact")
    func chatter() {
        var debouncer = ButtonDebouncer(window: .milliseconds(30))
        #expect(presses(&debouncer, edges: 10, from: start, gap: .milliseconds(2)) == [start])
    }

    @Test("Bouncing on release after a hold makes no press; the next push does")
    func releaseBounce() {
        var debouncer = ButtonDebouncer(window: .milliseconds(30))
        #expect(presses(&debouncer, edges: 3, from: start, gap: .milliseconds(1)) == [start])
        debouncer.settle(pressed: true)  // held: the line reads pressed once quiet
        let release = start + .seconds(2)
        #expect(presses(&debouncer, edges: 4, from: release, gap: .milliseconds(1)).isEmpty)
        debouncer.settle(pressed: false)
        let next = release + .milliseconds(500)
        #expect(debouncer.edge(at: next) == next)
    }

    @Test("A tap shorter than the window loses its release edge; the settled level restores it")
    func shortTap() {
        var debouncer = ButtonDebouncer(window: .milliseconds(30))
        #expect(debouncer.edge(at: start) == start)
        #expect(debouncer.edge(at: start + .milliseconds(20)) == nil, "the release, within the window")
        #expect(debouncer.settleAt == start + .milliseconds(50))
        debouncer.settle(pressed: false)
        #expect(debouncer.settleAt == nil)
        let next = start + .milliseconds(400)
        #expect(debouncer.edge(at: next) == next, "the next push is a press")
    }

    @Test("Two pushes 100 ms apart are two presses with a 30 ms window, one with a 150 ms window", arguments: [(30, 2), (150, 1)])
    func window(milliseconds: Int, expected: Int) {
        var debouncer = ButtonDebouncer(window: .milliseconds(milliseconds))
        let pressed = [0, 50, 100].compactMap { debouncer.edge(at: start + .milliseconds($0)) }
        #expect(pressed.count == expected)
    }
}
