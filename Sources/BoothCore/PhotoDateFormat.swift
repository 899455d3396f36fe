import Foundation
import Synchronization

/// How a photo's creation time is written for people, on the booth's screen and in the web
/// gallery: "Taken on 22/11/2026 at 14h05" by default, in the booth's local time.
public struct PhotoDateFormat: Sendable, Hashable {
    /// A Unicode date pattern (as `DateFormatter.dateFormat` takes it); text in single quotes
    /// is printed as it is.
    public var pattern: String

    /// "Taken on 22/11/2026 at 14h05".
    public static let standard = PhotoDateFormat(pattern: "'Taken on' dd/MM/yyyy 'at' HH'h'mm")

    public init(pattern: String) {
        self.pattern = pattern
    }

    /// `date` in this format, in `timeZone` (the booth's own by default).
    public func string(from date: Date, timeZone: TimeZone = .current) -> String {
        Self.formatters.withLock { formatters in
            let key = Key(pattern: pattern, timeZone: timeZone.identifier)
            if let formatter = formatters[key] { return formatter.string(from: date) }
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = timeZone
            formatter.dateFormat = pattern
            formatters[key] = formatter
            return formatter.string(from: date)
        }
    }

    private struct Key: Hashable {
        let pattern: String
        let timeZone: String
    }

    /// Making a formatter costs far more than using one (ICU loads the locale's symbols), and a
    /// gallery page writes tens of dates: one formatter per pattern and time zone, used under a
    /// lock since a formatter is not safe to share between threads. A booth uses one or two.
    private static let formatters = Mutex<[Key: DateFormatter]>([:])
}
