import Foundation

extension Date {
    /// The date cut to whole milliseconds, the precision the catalog keeps.
    public var roundedToMilliseconds: Date {
        Date(timeIntervalSince1970: Double(millisecondsSince1970) / 1000)
    }

    /// ISO 8601 in UTC with milliseconds, `2026-11-22T07:33:00.123Z`: the catalog's and the
    /// JSON output's form. It sorts as text in time order.
    public var utcTimestamp: String {
        let time = civilTime(utcOffsetSeconds: 0)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", time.year, time.month, time.day, time.hour, time.minute,
            time.second, time.millisecond)
    }

    /// The date as a wall clock `utcOffsetSeconds` ahead of UTC shows it, to the millisecond.
    package func civilTime(utcOffsetSeconds: Int) -> CivilTime {
        let milliseconds = millisecondsSince1970 + Int64(utcOffsetSeconds) * 1000
        let seconds = milliseconds.floorDivided(by: 1000)
        let days = seconds.floorDivided(by: 86_400)
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = CivilDate.date(daysSince1970: days)
        return CivilTime(
            year: Int(year), month: Int(month), day: Int(day), hour: Int(secondOfDay / 3600),
            minute: Int(secondOfDay / 60 % 60), second: Int(secondOfDay % 60),
            millisecond: Int(milliseconds - seconds * 1000), utcOffsetSeconds: utcOffsetSeconds)
    }

    /// Parses ``utcTimestamp``'s form; `nil` for anything else. Fields past their range carry
    /// over, as C's `timegm` does (the 32nd of January is the 1st of February), but have no
    /// more digits than the form writes: a record from the bucket that claimed the year
    /// 922337203685477580 overflowed the arithmetic below (the fuzz target `bucket`).
    public init?(utcTimestamp text: String) {
        let parts = text.split(whereSeparator: { "-T:.Z".contains($0) })
        guard text.hasSuffix("Z"), parts.count == 7, zip(parts, [4, 2, 2, 2, 2, 2, 3]).allSatisfy({ $0.count <= $1 }) else {
            return nil
        }
        let fields = parts.map { Int64($0) }
        guard fields.allSatisfy({ $0 != nil }) else { return nil }
        let (year, month, day, hour, minute, second, millisecond) =
            (fields[0]!, fields[1]!, fields[2]!, fields[3]!, fields[4]!, fields[5]!, fields[6]!)
        // A month past December is one of a later year.
        let monthsSinceYearZero = year * 12 + month - 1
        let days =
            CivilDate.daysSince1970(
                year: monthsSinceYearZero.floorDivided(by: 12), month: monthsSinceYearZero - monthsSinceYearZero.floorDivided(by: 12) * 12 + 1,
                day: 1) + day - 1
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second
        self.init(timeIntervalSince1970: Double(seconds * 1000 + millisecond) / 1000)
    }

    private var millisecondsSince1970: Int64 {
        Int64((timeIntervalSince1970 * 1000).rounded())
    }
}

/// Days and dates of the proleptic Gregorian calendar, in plain arithmetic (Howard Hinnant's
/// `days_from_civil` and `civil_from_days`): eras of 400 years, 146,097 days each, and years
/// that start in March so that the leap day comes last.
private enum CivilDate {
    /// Days from 1970-01-01 to `year`-`month`-`day` (month 1...12).
    static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let marchYear = month <= 2 ? year - 1 : year
        let era = marchYear.floorDivided(by: 400)
        let yearOfEra = marchYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` after 1970-01-01.
    static func date(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = shifted.floorDivided(by: 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let marchMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * marchMonth + 2) / 5 + 1
        let month = marchMonth < 10 ? marchMonth + 3 : marchMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension Int64 {
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
