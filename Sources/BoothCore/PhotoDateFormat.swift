import Foundation
import Synchronization

/// How a photo's creation time is written for people, on the booth's screen and in the web
/// gallery: "Taken on 22/11/2026 at 14h05" in English, in the booth's local time. Each
/// ``BoothLanguage`` has its own; an operator's pattern replaces the language's.
public struct PhotoDateFormat: Sendable, Hashable {
    /// A Unicode date pattern (as `DateFormatter.dateFormat` takes it); text in single quotes
    /// is printed as it is.
    public var pattern: String
    /// The locale whose names a pattern's `MMMM` or `EEEE` write ("novembre"): the language's.
    package var locale: String

    /// English's: "Taken on 22/11/2026 at 14h05".
    package static var standard: PhotoDateFormat { BoothLanguage.english.dateFormat }

    /// - Parameter locale: a locale identifier; the fixed `en_US_POSIX` by default.
    public init(pattern: String, locale: String = "en_US_POSIX") {
        self.pattern = pattern
        self.locale = locale
    }

    /// This pattern, with `language`'s names of months and days.
    public func localized(for language: BoothLanguage) -> PhotoDateFormat {
        PhotoDateFormat(pattern: pattern, locale: language.dateFormat.locale)
    }

    /// `date` in this format, in `timeZone` (the booth's own by default).
    public func string(from date: Date, timeZone: TimeZone = .current) -> String {
        Self.formatters.withLock { formatters in
            let key = Key(pattern: pattern, locale: locale, timeZone: timeZone.identifier)
            if let formatter = formatters[key] { return formatter.string(from: date) }
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: locale)
            formatter.timeZone = timeZone
            formatter.dateFormat = pattern
            formatters[key] = formatter
            return formatter.string(from: date)
        }
    }

    private struct Key: Hashable {
        let pattern: String
        let locale: String
        let timeZone: String
    }

    /// Making a formatter costs far more than using one (ICU loads the locale's symbols), and a
    /// gallery page writes tens of dates: one formatter per pattern, locale and time zone, used
    /// under a lock since a formatter is not safe to share between threads. A booth uses one or
    /// two.
    private static let formatters = Mutex<[Key: DateFormatter]>([:])
}
