import BoothCore

/// Turns a button's edges into presses, on the kernel's timestamps.
///
/// A contact bounces for a few milliseconds when it closes and when it opens, and while it
/// bounces the kernel's rising/falling label is a guess (it reads the level after the fact), so
/// the labels are not trusted. An edge that comes at least `window` after the previous edge
/// starts a change: the button was released, so it is pressed now (a press, timed at that first
/// contact), or the other way round. Edges closer than `window` to the one before are bounce.
/// Once the line has been quiet for `window`, its level is read and corrects the state, should a
/// change have been missed (a tap shorter than the window). Holding the button makes no edges,
/// so a held button is one press.
package struct ButtonDebouncer: Sendable {
    package let window: Duration
    private var lastEdge: MonotonicInstant?
    private var pressed: Bool

    /// A debouncer for a button that is `pressed` now.
    package init(window: Duration = .milliseconds(30), pressed: Bool = false) {
        self.window = window
        self.pressed = pressed
    }

    /// Takes one edge; returns the press it makes, if any.
    package mutating func edge(at time: MonotonicInstant) -> MonotonicInstant? {
        defer { lastEdge = time }
        if let lastEdge, lastEdge.duration(to: time) < window { return nil }
        pressed.toggle()
        return pressed ? time : nil
    }

    /// When the line's level should be read to settle the state, if an edge is still unsettled.
    package var settleAt: MonotonicInstant? {
        lastEdge.map { $0 + window }
    }

    /// Takes the level read once the line was quiet for `window`.
    package mutating func settle(pressed level: Bool) {
        pressed = level
        lastEdge = nil
    }
}
