import Foundation

extension Date {
    /// The date cut to whole milliseconds, the precision the catalog keeps.
    public var roundedToMilliseconds: Date {
        Date(timeIntervalSince1970: Double(millisecondsSince1970) / 1000)
    }

    /// ISO 8601 in UTC with milliseconds, `2026-11-22T07:33:00.123Z`: the catalog's and the
    /// JSON output's form. It sorts as text in time order.
    public var utcTimestamp: String {
        let milliseconds = millisecondsSince1970
        var seconds = time_t(milliseconds.floorDivided(by: 1000))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
            Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec),
            Int(milliseconds - milliseconds.floorDivided(by: 1000) * 1000))
    }

    /// Parses ``utcTimestamp``'s form; `nil` for anything else.
    public init?(utcTimestamp text: String) {
        let fields = text.split(whereSeparator: { "-T:.Z".contains($0) }).map { Int($0) }
        guard text.hasSuffix("Z"), fields.count == 7, fields.allSatisfy({ $0 != nil }) else { return nil }
        var parts = tm()
        parts.tm_year = Int32(fields[0]! - 1900)
        parts.tm_mon = Int32(fields[1]! - 1)
        parts.tm_mday = Int32(fields[2]!)
        parts.tm_hour = Int32(fields[3]!)
        parts.tm_min = Int32(fields[4]!)
        parts.tm_sec = Int32(fields[5]!)
        let seconds = Int64(timegm(&parts))
        self.init(timeIntervalSince1970: Double(seconds * 1000 + Int64(fields[6]!)) / 1000)
    }

    private var millisecondsSince1970: Int64 {
        Int64((timeIntervalSince1970 * 1000).rounded())
    }
}

extension Int64 {
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
