import BoothDevices
import BoothScreen
import Foundation

/// The booth's real parts and how they are wired. Every field has the default a Raspberry Pi
/// booth with a USB webcam and a USB-serial keypad needs.
public struct HardwareConfiguration: Sendable, Hashable {
    public var camera = V4L2Camera.Settings()
    public var shutter = GPIOButton.Settings()
    /// The status light's line; `nil` when the booth has none.
    public var lightLine: GPIOLineSelector?
    /// The light's chip; `nil` for the shutter button's chip.
    public var lightChip: String?
    public var lightActiveLow = false
    public var keypad = SerialKeypad.Settings()
    public var screen = ScreenSettings()

    public init() {}

    /// The status light, if the booth has one. Derived when used, so the order of the keys in
    /// the file does not matter.
    public var light: StatusLight.Settings? {
        lightLine.map { StatusLight.Settings(chip: lightChip ?? shutter.chip, line: $0, activeLow: lightActiveLow) }
    }
}

/// The booth's parts, as a set: which of them are real devices.
public struct DeviceParts: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let camera = DeviceParts(rawValue: 1)
    public static let button = DeviceParts(rawValue: 2)
    public static let light = DeviceParts(rawValue: 4)
    public static let keypad = DeviceParts(rawValue: 8)
    public static let screen = DeviceParts(rawValue: 16)
    public static let all: DeviceParts = [.camera, .button, .light, .keypad, .screen]
}

/// The screen: which framebuffer, how often the preview is redrawn, which font.
public struct ScreenSettings: Sendable, Hashable {
    public var device = "/dev/fb0"
    /// The preview's frame rate cap: the rest of the Pi's CPU is left to the capture path.
    public var previewFramesPerSecond = 15
    /// The TrueType fonts of headlines and of the rest.
    public var fonts = ScreenFonts.dejaVu

    public init() {}
}
