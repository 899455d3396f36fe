import BoothCore
import BoothDevices

/// The size of the camera's frames, written `WIDTHxHEIGHT` (`1280x720`, or `1280X720`): each
/// side from 16 to 8192 pixels.
package struct FrameSize: SettingValue, Hashable {
    /// The sizes a side may have.
    package static let sides = 16...8192

    package var width: Int
    package var height: Int

    package init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    package init?(settingText text: String) {
        guard let match = text.wholeMatch(of: /([0-9]{1,5})[xX]([0-9]{1,5})/), let width = Int(match.1), let height = Int(match.2),
            Self.sides.contains(width), Self.sides.contains(height)
        else { return nil }
        self.init(width: width, height: height)
    }

    package var settingText: String { "\(width)x\(height)" }
}

/// A number of frames a second, written as a whole number (`30`).
package struct FrameRate: NumericSettingValue, Hashable, ExpressibleByIntegerLiteral {
    package var framesPerSecond: Int

    package init(framesPerSecond: Int) {
        self.framesPerSecond = framesPerSecond
    }

    package init(integerLiteral framesPerSecond: Int) {
        self.init(framesPerSecond: framesPerSecond)
    }

    package init?(settingText text: String) {
        guard let framesPerSecond = Int(settingText: text) else { return nil }
        self.init(framesPerSecond: framesPerSecond)
    }

    package var settingText: String { framesPerSecond.settingText }

    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.framesPerSecond < rhs.framesPerSecond }

    package static func allowed(in range: ClosedRange<Self>) -> String {
        Int.allowed(in: range.lowerBound.framesPerSecond...range.upperBound.framesPerSecond)
    }
}

/// Which level of a GPIO line means "on": `active-low` (a button to ground, a light the line
/// sinks) or `active-high`.
package enum Polarity: String, SettingValue, CaseIterable {
    case activeLow = "active-low"
    case activeHigh = "active-high"

    /// Whether the low level means "on", as the devices' settings say it.
    package var isActiveLow: Bool { self == .activeLow }
}

/// A speed of the keypad's serial port, in bits per second: one of those a serial port can run
/// at (``SerialKeypad/Settings/speeds``), such as `9600`.
package struct BaudRate: SettingValue, Hashable {
    package var bitsPerSecond: Int

    package init?(settingText text: String) {
        guard let bitsPerSecond = Int(settingText: text), SerialKeypad.Settings.speeds.contains(bitsPerSecond) else { return nil }
        self.bitsPerSecond = bitsPerSecond
    }

    package var settingText: String { bitsPerSecond.settingText }
}

/// The status light's line, an offset (`27`) or a name (`GPIO27`), or `none` for a booth without
/// a light.
package struct LightLine: SettingValue, Hashable {
    /// The line; `nil` for none.
    package var line: GPIOLineSelector?

    package init(_ line: GPIOLineSelector?) {
        self.line = line
    }

    package init?(settingText text: String) {
        guard text != "none" else {
            self.init(nil)
            return
        }
        guard let line = GPIOLineSelector(settingText: text) else { return nil }
        self.init(line)
    }

    package var settingText: String { line?.settingText ?? "none" }
}

/// How the keypad's echo is written: `plain` text with CR/LF (a character display) or `ansi`
/// (a terminal).
package enum EchoStyle: String, SettingValue, CaseIterable {
    case plain
    case ansi
}

/// A line offset (`17`) or a line name (`GPIO17`).
extension GPIOLineSelector: SettingValue {
    package init?(settingText text: String) {
        guard !text.isEmpty else { return nil }
        self.init(text)
    }

    package var settingText: String {
        switch self {
        case .offset(let offset): String(offset)
        case .name(let name): name
        }
    }
}

extension GPIOBias: SettingValue {}

extension V4L2Camera.FormatPreference: SettingValue {}

extension KeypadLayout: SettingValue {}
