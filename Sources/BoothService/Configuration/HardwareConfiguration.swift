import BoothCore
import BoothDevices
import BoothScreen
import Foundation

/// The booth's real parts and how they are wired. Every field has the default a Raspberry Pi
/// booth with a USB webcam and a USB-serial keypad needs.
package struct HardwareConfiguration: Sendable, Hashable {
    package var camera = V4L2Camera.Settings()
    package var shutter = GPIOButton.Settings()
    /// The lines of buttons that make a picture of another mode, wired as the shutter is.
    package var modeLines: [PictureMode: GPIOLineSelector] = [:]
    /// The line of a button that prints the picture on its saved screen (`gpio.print_line`),
    /// wired as the shutter is; `nil` when the booth has none.
    package var printLine: GPIOLineSelector?
    /// The status light's line; `nil` when the booth has none.
    package var lightLine: GPIOLineSelector?
    /// The light's chip; `nil` for the shutter button's chip.
    package var lightChip: String?
    package var lightActiveLow = false
    package var keypad = SerialKeypad.Settings()
    package var screen = ScreenSettings()
    package var sound = SoundSettings()

    package init() {}

    /// The button of each mode that has one, in the modes' order: the shutter's settings on its
    /// own line.
    package var modeButtons: [(mode: PictureMode, settings: GPIOButton.Settings)] {
        modeLines.sorted { $0.key.sortOrder < $1.key.sortOrder }.map { mode, line in
            var settings = shutter
            settings.line = line
            return (mode, settings)
        }
    }

    /// The print button, if the booth has one: the shutter's settings on its own line.
    package var printButton: GPIOButton.Settings? {
        printLine.map { line in
            var settings = shutter
            settings.line = line
            return settings
        }
    }

    /// The status light, if the booth has one. Derived when used, so the order of the keys in
    /// the file does not matter.
    package var light: StatusLight.Settings? {
        lightLine.map { StatusLight.Settings(chip: lightChip ?? shutter.chip, line: $0, activeLow: lightActiveLow) }
    }
}

/// The booth's parts, as a set: which of them are real devices.
package struct DeviceParts: OptionSet, Sendable, Hashable {
    package let rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }

    package static let camera = DeviceParts(rawValue: 1)
    package static let button = DeviceParts(rawValue: 2)
    package static let light = DeviceParts(rawValue: 4)
    package static let keypad = DeviceParts(rawValue: 8)
    package static let screen = DeviceParts(rawValue: 16)
    package static let all: DeviceParts = [.camera, .button, .light, .keypad, .screen]
}

/// The screen: which display, how often the preview is redrawn, which font, how it looks.
package struct ScreenSettings: Sendable, Hashable {
    /// `auto` (the KMS card with a display connected, else the framebuffer), a KMS card
    /// (`/dev/dri/card0`) or a framebuffer (`/dev/fb0`).
    package var device = "auto"
    /// The preview's frame rate cap: the rest of the Pi's CPU is left to the capture path.
    package var previewFramesPerSecond = 15
    /// The TrueType fonts of headlines and of the rest.
    package var fonts = ScreenFonts.dejaVu
    /// Its contrast and text size.
    package var theme = ScreenTheme.standard

    package init() {}
}

/// The speaker: which ALSA device, how loud.
package struct SoundSettings: Sendable, Hashable {
    /// An ALSA device name (`default`: the system's output; `plughw:1,0`), or `nil` for a
    /// booth without sound (`none`).
    package var device: String? = "default"
    /// Percent of the clips' own level, 0 to 100.
    package var volume = 80
    /// Where the package keeps the spoken prompts it rendered, a folder per language.
    package var voiceDirectory = URL(fileURLWithPath: "/usr/share/photobooth/voice")

    package init() {}
}
