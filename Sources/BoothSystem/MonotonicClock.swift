import BoothCore
import Foundation

/// The system's monotonic clock as a Swift `Clock`.
///
/// Sleeping uses the standard library's clocks, which advance at the same rate; only the
/// readings come from `CLOCK_MONOTONIC`, so that they compare with device timestamps.
package struct MonotonicClock: Clock, Sendable {
    package typealias Instant = MonotonicInstant

    package init() {}

    /// The current time. The corresponding C function is `clock_gettime(CLOCK_MONOTONIC)`.
    package var now: MonotonicInstant {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return MonotonicInstant(seconds: Int64(spec.tv_sec), nanoseconds: Int64(spec.tv_nsec))
    }

    package var minimumResolution: Duration { .nanoseconds(1) }

    package func sleep(until deadline: MonotonicInstant, tolerance: Duration? = nil) async throws {
        let remaining = now.duration(to: deadline)
        if remaining > .zero {
            try await Task.sleep(for: remaining, tolerance: tolerance, clock: .suspending)
        } else {
            try Task.checkCancellation()
        }
    }

    /// The wall-clock time at which `instant` happened, for timestamps people read.
    package func date(of instant: MonotonicInstant) -> Date {
        Date().addingTimeInterval(-instant.duration(to: now).inSeconds)
    }
}
