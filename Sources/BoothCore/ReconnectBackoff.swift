/// How long a device that failed waits before it is opened again: 0.5 s, doubling to 10 s, and
/// back to 0.5 s once an attempt worked. An unplugged device then costs no CPU while the booth
/// waits for it, and one that returns is back within 10 s, or at once when its node is watched
/// (`DeviceNodeWatch`).
package struct ReconnectBackoff: Sendable {
    package static let first = Duration.milliseconds(500)
    package static let longest = Duration.seconds(10)

    /// The pause before the next attempt.
    package private(set) var pause: Duration
    private let start: Duration
    private let limit: Duration

    /// A backoff from `start` doubling to `limit`: 0.5 s to 10 s unless a test needs others.
    package init(start: Duration = first, limit: Duration = longest) {
        self.start = start
        self.limit = limit
        pause = start
    }

    /// Records how the last attempt went; returns the pause to take before the next one.
    package mutating func afterAttempt(worked: Bool) -> Duration {
        if worked { pause = start }
        defer { pause = min(pause * 2, limit) }
        return pause
    }
}
