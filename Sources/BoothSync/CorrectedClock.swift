import BoothCore
import BoothSystem
import Foundation
import Synchronization

/// The booth's wall clock, corrected by the time of the event's store once the booth has heard
/// it: the time photos are dated by and requests are signed with.
///
/// A Raspberry Pi has no real-time clock: until NTP syncs (if it ever does), its clock may be
/// hours or days off. Every answer of the store carries its time (`Date`, to the second); the
/// sync reports it here (``observe(storeTime:at:)``), and from then on ``now`` is the store's
/// time. Differences within ``tolerance`` are the header's rounding and the network's delay, not
/// a wrong clock: the correction changes only when the store's time differs from the corrected
/// time by more, so that it does not wobble with every answer.
package final class CorrectedClock: Sendable {
    /// The system's wall clock (tests give a wrong one).
    package let system: @Sendable () -> Date
    /// Seconds to add to ``system`` to get the store's time; `nil` until the store was heard.
    private let offset = Mutex<TimeInterval?>(nil)

    /// The largest difference taken as the `Date` header's rounding (a second) and the time an
    /// answer takes to arrive, rather than as a clock that is off.
    package static let tolerance: TimeInterval = 5

    /// A clock that reads `system` until told the store's time.
    package init(system: @escaping @Sendable () -> Date = { Date() }) {
        self.system = system
    }

    /// The corrected time now.
    package var now: Date { system() + (offset.withLock { $0 } ?? 0) }

    /// The seconds added to the system's clock; `nil` until the store's time is known (the
    /// system's is used meanwhile).
    package var correction: TimeInterval? { offset.withLock { $0 } }

    /// The wall-clock time at which `instant` of the monotonic clock happened, corrected.
    package func date(of instant: MonotonicInstant) -> Date {
        now.addingTimeInterval(-instant.duration(to: MonotonicClock().now).inSeconds)
    }

    /// Takes the store's time `storeTime`, read when the system's clock said `local`. The first
    /// reading makes the correction known; later ones change it only when they differ from it by
    /// more than ``tolerance``. Returns the new correction when it changed.
    @discardableResult
    package func observe(storeTime: Date, at local: Date) -> TimeInterval? {
        // The header is cut to the second: the store's time was, on average, half a second later.
        let measured = storeTime.timeIntervalSince(local) + 0.5
        return offset.withLock { current -> TimeInterval? in
            switch current {
            case nil:
                current = abs(measured) > Self.tolerance ? measured : 0
                return current
            case let known? where abs(measured - known) > Self.tolerance:
                current = abs(measured) > Self.tolerance ? measured : 0
                return current
            default:
                return nil
            }
        }
    }

    /// Sets the correction outright: the store refused the booth's time and said its own
    /// (S3's `RequestTimeTooSkewed`, whose time is exact enough to sign with).
    package func correct(to storeTime: Date, at local: Date) {
        offset.withLock { $0 = storeTime.timeIntervalSince(local) }
    }

    /// A correction in words: "1 h 2 min behind the store's", "40 s ahead of the store's", to
    /// the second below an hour, to the minute below a day, to the hour above (the store's
    /// time is known to a second, and 3,599 s reads better as an hour).
    package static func describe(_ correction: TimeInterval) -> String {
        let size = abs(correction)
        let minutes = Int((size / 60).rounded())
        let hours = Int((size / 3600).rounded())
        let amount: String =
            switch size.rounded() {
            case ..<60: "\(Int(size.rounded())) s"
            case ..<3570: "\(Int(size.rounded()) / 60) min \(Int(size.rounded()) % 60) s"
            case ..<86_370: "\(minutes / 60) h \(minutes % 60) min"
            default: "\(hours / 24) d \(hours % 24) h"
            }
        return correction > 0 ? "\(amount) behind the store's" : "\(amount) ahead of the store's"
    }
}
