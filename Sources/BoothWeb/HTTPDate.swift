import Foundation
import Synchronization

/// The `Date` header of every answer (RFC 9110, section 5.6.7: "Sun, 06 Nov 1994 08:49:37 GMT"),
/// written at most once per second.
///
/// Hummingbird's `Application` keeps the same value fresh with a timer service that reaches
/// swift-async-algorithms' `merge`, whose cancellation can deadlock (see ``GalleryServer``); this
/// cache is filled by the answers themselves, so the server needs no timer at all.
enum HTTPDate {
    private static let cache = Mutex<(second: Int, text: String)>((-1, ""))
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The header's value for now.
    static var now: String {
        let second = Int(Date().timeIntervalSince1970.rounded(.down))
        return cache.withLock { cached in
            if cached.second != second { cached = (second, text(forSecond: second)) }
            return cached.text
        }
    }

    /// The IMF-fixdate of `second` seconds since 1970. The corresponding C function is `gmtime_r`.
    static func text(forSecond second: Int) -> String {
        var seconds = time_t(second)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func twoDigits(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(weekdays[Int(parts.tm_wday)]), \(twoDigits(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(twoDigits(parts.tm_hour)):\(twoDigits(parts.tm_min)):\(twoDigits(parts.tm_sec)) GMT"
    }
}
