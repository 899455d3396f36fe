import Foundation

/// A point on the kernel's monotonic clock (`CLOCK_MONOTONIC`), in nanoseconds since boot.
///
/// V4L2 buffer timestamps and GPIO edge timestamps are taken on this same clock, so the
/// shutter logic compares device times and countdown deadlines directly.
public struct MonotonicInstant: InstantProtocol, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Nanoseconds since an arbitrary point (boot), as the kernel reports them.
    public var nanoseconds: Int64

    /// Creates an instant from nanoseconds on the monotonic clock.
    public init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    /// Creates an instant from a kernel `timeval` or `timespec` split into seconds and nanoseconds.
    public init(seconds: Int64, nanoseconds: Int64) {
        self.nanoseconds = seconds * 1_000_000_000 + nanoseconds
    }

    public func advanced(by duration: Duration) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: nanoseconds + duration.inNanoseconds)
    }

    public func duration(to other: MonotonicInstant) -> Duration {
        .nanoseconds(other.nanoseconds - nanoseconds)
    }

    public static func + (lhs: MonotonicInstant, rhs: Duration) -> MonotonicInstant {
        lhs.advanced(by: rhs)
    }

    public static func - (lhs: MonotonicInstant, rhs: Duration) -> MonotonicInstant {
        lhs.advanced(by: .zero - rhs)
    }

    public static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    public var description: String {
        String(format: "%.3fs", Double(nanoseconds) / 1e9)
    }
}

extension Duration {
    /// The whole duration in nanoseconds, saturating at the bounds of `Int64`.
    package var inNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return scaled + attoseconds / 1_000_000_000
    }

    /// The duration in seconds as a floating-point number, for logs and configuration.
    package var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// Milliseconds with one decimal, for log lines ("12.5 ms").
    package var formattedMilliseconds: String {
        String(format: "%.1f ms", Double(inNanoseconds) / 1e6)
    }
}
