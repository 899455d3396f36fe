import Foundation

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
        // A formatter is not Sendable and costs microseconds to make: one per call keeps the
        // format usable from any thread, and pages hold tens of photos, not thousands.
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = pattern
        return formatter.string(from: date)
    }
}
