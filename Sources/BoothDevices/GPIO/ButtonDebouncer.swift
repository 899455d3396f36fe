import BoothCore

/// Turns a button's edges into presses, on the kernel's timestamps.
///
/// A contact bounces for a few milliseconds when it closes and when it opens. A rising edge
/// that comes at least `window` after the previous edge of either kind is a press, timed at that
/// first contact; every edge closer than `window` to the one before is bounce. Holding the
/// button makes no edges, so a held button is one press.
public struct ButtonDebouncer: Sendable {
    public let window: Duration
    private var lastEdge: MonotonicInstant?

    public init(window: Duration = .milliseconds(30)) {
        self.window = window
    }

    /// Takes one edge; returns the press it makes, if any.
    public mutating func press(rising: Bool, at time: MonotonicInstant) -> MonotonicInstant? {
        defer { lastEdge = time }
        guard rising else { return nil }
        if let lastEdge, lastEdge.duration(to: time) < window { return nil }
        return time
    }
}
