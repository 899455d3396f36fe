import Foundation

/// A number of seconds, written as a plain decimal (`3`, `2.5`) and used to the millisecond.
///
/// Up to nine digits before the point and nine after it: `Double("0x1p2")`, `"1e1"` and
/// `"inf"` would be numbers too, and none is a way people write seconds.
package struct Seconds: NumericSettingValue, Hashable, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
    package var seconds: Double

    package init(_ seconds: Double) {
        self.seconds = seconds
    }

    package init(floatLiteral seconds: Double) {
        self.init(seconds)
    }

    package init(integerLiteral seconds: Int) {
        self.init(Double(seconds))
    }

    package init?(settingText text: String) {
        guard text.wholeMatch(of: /[0-9]{1,9}(\.[0-9]{1,9})?/) != nil, let seconds = Double(text) else { return nil }
        self.init(seconds)
    }

    /// The seconds with up to nine decimals and no trailing zeros (`2.5`, `30`): plain decimals,
    /// as the setting reads them, where `Double`'s own description may write `1e-05`.
    package var settingText: String {
        var text = String(format: "%.9f", seconds)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// The seconds, rounded to the millisecond.
    package var duration: Duration { .milliseconds(Int64((seconds * 1000).rounded())) }

    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.seconds < rhs.seconds }

    package static func allowed(in range: ClosedRange<Self>) -> String {
        "a number of seconds from \(range.lowerBound.seconds.formatted()) to \(range.upperBound.seconds.formatted())"
    }
}

/// A number of milliseconds, written as a whole number (`30`).
package struct Milliseconds: NumericSettingValue, Hashable, ExpressibleByIntegerLiteral {
    package var milliseconds: Int

    package init(_ milliseconds: Int) {
        self.milliseconds = milliseconds
    }

    package init(integerLiteral milliseconds: Int) {
        self.init(milliseconds)
    }

    package init?(settingText text: String) {
        guard let milliseconds = Int(settingText: text) else { return nil }
        self.init(milliseconds)
    }

    package var settingText: String { milliseconds.settingText }

    package var duration: Duration { .milliseconds(milliseconds) }

    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.milliseconds < rhs.milliseconds }

    package static func allowed(in range: ClosedRange<Self>) -> String {
        Int.allowed(in: range.lowerBound.milliseconds...range.upperBound.milliseconds)
    }
}
