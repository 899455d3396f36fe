import BoothDevices
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

/// The screen: which framebuffer, how often the preview is redrawn, which font.
public struct ScreenSettings: Sendable, Hashable {
    public var device = "/dev/fb0"
    /// The preview's frame rate cap: the rest of the Pi's CPU is left to the capture path.
    public var previewFramesPerSecond = 15
    /// The TrueType fonts of headlines and of the rest.
    public var fonts = ScreenFonts.dejaVu

    public init() {}
}
