/// How long a device that failed waits before it is opened again: 0.5 s, doubling to 10 s, and
/// back to 0.5 s once an attempt worked. An unplugged device then costs no CPU while the booth
/// waits for it, and one that returns is back within 10 s.
public struct ReconnectBackoff: Sendable {
    public static let first = Duration.milliseconds(500)
    public static let longest = Duration.seconds(10)

    /// The pause before the next attempt.
    public private(set) var pause = first

    public init() {}

    /// Records how the last attempt went; returns the pause to take before the next one.
    public mutating func afterAttempt(worked: Bool) -> Duration {
        if worked { pause = Self.first }
        defer { pause = min(pause * 2, Self.longest) }
        return pause
    }
}
