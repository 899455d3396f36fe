import BoothCore
import BoothDevices

/// The size of the camera's frames, written `WIDTHxHEIGHT` (`1280x720`, or `1280X720`): each
/// side from 16 to 8192 pixels.
public struct FrameSize: SettingValue, Hashable {
    /// The sizes a side may have.
    public static let sides = 16...8192

    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public init?(settingText text: String) {
        guard let match = text.wholeMatch(of: /([0-9]{1,5})[xX]([0-9]{1,5})/), let width = Int(match.1), let height = Int(match.2),
            Self.sides.contains(width), Self.sides.contains(height)
        else { return nil }
        self.init(width: width, height: height)
    }

    public var settingText: String { "\(width)x\(height)" }
}

/// A number of frames a second, written as a whole number (`30`).
public struct FrameRate: NumericSettingValue, Hashable, ExpressibleByIntegerLiteral {
    public var framesPerSecond: Int

    public init(framesPerSecond: Int) {
        self.framesPerSecond = framesPerSecond
    }

    public init(integerLiteral framesPerSecond: Int) {
        self.init(framesPerSecond: framesPerSecond)
    }

    public init?(settingText text: String) {
        guard let framesPerSecond = Int(settingText: text) else { return nil }
        self.init(framesPerSecond: framesPerSecond)
    }

    public var settingText: String { framesPerSecond.settingText }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.framesPerSecond < rhs.framesPerSecond }

    public static func allowed(in range: ClosedRange<Self>) -> String {
        Int.allowed(in: range.lowerBound.framesPerSecond...range.upperBound.framesPerSecond)
    }
}

/// Which level of a GPIO line means "on": `active-low` (a button to ground, a light the line
/// sinks) or `active-high`.
public enum Polarity: String, SettingValue, CaseIterable {
    case activeLow = "active-low"
    case activeHigh = "active-high"

    /// Whether the low level means "on", as the devices' settings say it.
    public var isActiveLow: Bool { self == .activeLow }
}

/// A speed of the keypad's serial port, in bits per second: one of those a serial port can run
/// at (``SerialKeypad/Settings/speeds``), such as `9600`.
public struct BaudRate: SettingValue, Hashable {
    public var bitsPerSecond: Int

    public init?(settingText text: String) {
        guard let bitsPerSecond = Int(settingText: text), SerialKeypad.Settings.speeds.contains(bitsPerSecond) else { return nil }
        self.bitsPerSecond = bitsPerSecond
    }

    public var settingText: String { bitsPerSecond.settingText }
}

/// The status light's line, an offset (`27`) or a name (`GPIO27`), or `none` for a booth without
/// a light.
public struct LightLine: SettingValue, Hashable {
    /// The line; `nil` for none.
    public var line: GPIOLineSelector?

    public init(_ line: GPIOLineSelector?) {
        self.line = line
    }

    public init?(settingText text: String) {
        guard text != "none" else {
            self.init(nil)
            return
        }
        guard let line = GPIOLineSelector(settingText: text) else { return nil }
        self.init(line)
    }

    public var settingText: String { line?.settingText ?? "none" }
}

/// How the keypad's echo is written: `plain` text with CR/LF (a character display) or `ansi`
/// (a terminal).
public enum EchoStyle: String, SettingValue, CaseIterable {
    case plain
    case ansi
}

/// A line offset (`17`) or a line name (`GPIO17`).
extension GPIOLineSelector: SettingValue {
    public init?(settingText text: String) {
        guard !text.isEmpty else { return nil }
        self.init(text)
    }

    public var settingText: String {
        switch self {
        case .offset(let offset): String(offset)
        case .name(let name): name
        }
    }
}

extension GPIOBias: SettingValue {}

extension V4L2Camera.FormatPreference: SettingValue {}

extension KeypadLayout: SettingValue {}
