import BoothCore
import BoothDevices
import BoothScreen
import BoothSync
import Foundation

/// One setting of the booth, as the configuration file spells it (`camera.device`) and as a
/// command-line option sets it: what values it allows, and how it changes the configuration.
public struct ConfigurationKey: Sendable {
    /// The dotted name: section and key.
    public let name: String
    /// The values allowed, for messages: "auto, mjpeg, yuyv or converted".
    public let allowed: String
    /// Applies `value`; returns `false` when the value is not allowed.
    let apply: @Sendable (inout BoothConfiguration, String) -> Bool

    /// Every key, in the order the example file documents them.
    public static let all: [ConfigurationKey] = [
        key("data_dir", "an absolute folder path") { configuration, value in
            guard value.hasPrefix("/") else { return false }
            configuration.dataDirectory = URL(fileURLWithPath: value)
            return true
        },
        path("camera.device") { $0.hardware.camera.device = $1 },
        key("camera.size", "WIDTHxHEIGHT, each from 16 to 8192, such as 1280x720") { configuration, value in
            guard let match = value.wholeMatch(of: /([0-9]{1,5})[xX]([0-9]{1,5})/),
                let width = Int(match.1), let height = Int(match.2), (16...8192).contains(width), (16...8192).contains(height)
            else { return false }
            configuration.hardware.camera.width = width
            configuration.hardware.camera.height = height
            return true
        },
        integer("camera.fps", 1...120) { $0.hardware.camera.framesPerSecond = $1 },
        choice("camera.format", V4L2Camera.FormatPreference.self) { $0.hardware.camera.format = $1 },
        text("shutter.chip", "a GPIO chip: gpiochip0, 0 or /dev/gpiochip0") { $0.hardware.shutter.chip = $1 },
        text("shutter.line", "a line offset (17) or name (GPIO17)") { $0.hardware.shutter.line = GPIOLineSelector($1) },
        key("shutter.polarity", "active-low or active-high") { configuration, value in
            guard let activeLow = Self.polarity(value) else { return false }
            configuration.hardware.shutter.activeLow = activeLow
            return true
        },
        choice("shutter.bias", GPIOBias.self) { $0.hardware.shutter.bias = $1 },
        integer("shutter.debounce_ms", 0...1000) { $0.hardware.shutter.debounce = .milliseconds($1) },
        text("led.chip", "a GPIO chip: gpiochip0, 0 or /dev/gpiochip0") { $0.hardware.lightChip = $1 },
        text("led.line", "a line offset or name, or none") { configuration, value in
            configuration.hardware.lightLine = value == "none" ? nil : GPIOLineSelector(value)
        },
        key("led.polarity", "active-low or active-high") { configuration, value in
            guard let activeLow = Self.polarity(value) else { return false }
            configuration.hardware.lightActiveLow = activeLow
            return true
        },
        path("keypad.device") { $0.hardware.keypad.device = $1 },
        key("keypad.baud", SerialKeypad.Settings.speeds.map(String.init).joined(separator: ", ")) { configuration, value in
            guard let baud = wholeNumber(value), SerialKeypad.Settings.speeds.contains(baud) else { return false }
            configuration.hardware.keypad.baud = baud
            return true
        },
        key("keypad.layout", "keyboard or phone") { configuration, value in
            guard let layout = KeypadLayout(rawValue: value) else { return false }
            configuration.settings.keys.layout = layout
            return true
        },
        key("keypad.view_key", "one printable character, such as v (or 0 on a phone keypad)") { configuration, value in
            guard value.count == 1, let key = value.first, !key.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            else { return false }
            configuration.settings.keys.chosenViewKey = key
            return true
        },
        key("keypad.echo", "plain or ansi") { configuration, value in
            guard value == "plain" || value == "ansi" else { return false }
            configuration.hardware.keypad.ansi = value == "ansi"
            return true
        },
        integer("keypad.multi_tap_ms", 200...5000) { $0.settings.keys.multiTapTimeout = .milliseconds($1) },
        path("screen.device") { $0.hardware.screen.device = $1 },
        integer("screen.preview_fps", 1...60) { $0.hardware.screen.previewFramesPerSecond = $1 },
        path("screen.font") { $0.hardware.screen.fonts = ScreenFonts($1) },
        seconds("booth.countdown_seconds", 0...60) { $0.settings.countdown = $1 },
        seconds("booth.naming_timeout_seconds", 0.1...3600) { $0.settings.nameTimeout = $1 },
        text("booth.name", "a name, such as Anna & Ben's wedding") { $0.web.boothName = $1 },
        key("gallery.date_format", "a date pattern such as 'Taken on' dd/MM/yyyy 'at' HH'h'mm") { configuration, value in
            // A pattern made only of quoted text would print the same words under every photo.
            let format = PhotoDateFormat(pattern: value)
            let morning = format.string(from: Date(timeIntervalSince1970: 0), timeZone: .gmt)
            let evening = format.string(from: Date(timeIntervalSince1970: 86_400 * 400 + 3600 * 20 + 60 * 7), timeZone: .gmt)
            guard !value.isEmpty, morning != evening else { return false }
            configuration.web.dateFormat = format
            return true
        },
        seconds("gallery.timeout_seconds", 5...3600) { $0.settings.galleryTimeout = $1 },
        integer("storage.reserve_mb", 1...1_000_000) { $0.storageReserveBytes = Int64($1) * 1_000_000 },
        key("http.enabled", "true or false") { configuration, value in
            guard let enabled = Self.boolean(value) else { return false }
            configuration.web.enabled = enabled
            return true
        },
        key("http.address", "an IP address of this machine to listen on, such as 0.0.0.0 (all), 127.0.0.1 or ::") {
            configuration, value in
            guard WebConfiguration.isIPAddress(value) else { return false }
            configuration.web.address = value
            return true
        },
        integer("http.port", 1...65535) { $0.web.port = $1 },
        key("http.public_url", "an address such as http://booth.local:8080, or auto") { configuration, value in
            if value == "auto" {
                configuration.web.publicURL = nil
                return true
            }
            guard let url = WebConfiguration.publicURL(value) else { return false }
            configuration.web.publicURL = url
            return true
        },
        key("http.admin_token", "a secret of at least 16 characters, or none") { configuration, value in
            if value == "none" {
                configuration.web.adminToken = nil
                return true
            }
            guard value.count >= 16, !value.contains(where: \.isWhitespace) else { return false }
            configuration.web.adminToken = value
            return true
        },
        key("sync.endpoint", "the store's address, such as https://s3.eu-central-1.amazonaws.com or http://127.0.0.1:8333") {
            configuration, value in
            guard let url = SyncSettings.endpoint(value) else { return false }
            configuration.sync.endpoint = url
            return true
        },
        key("sync.bucket", "a bucket name: 3 to 63 lowercase letters, digits, dots and hyphens") { configuration, value in
            guard SyncSettings.isBucketName(value) else { return false }
            configuration.sync.bucket = value
            return true
        },
        key("sync.region", "a region such as us-east-1, eu-central-1 or auto") { configuration, value in
            guard value.wholeMatch(of: /[a-z0-9][a-z0-9\-]{0,62}/) != nil else { return false }
            configuration.sync.region = value
            return true
        },
        text("sync.event", "the event's name, such as Anna & Ben's wedding") { $0.sync.event = $1 },
        key("sync.path_style", "true or false") { configuration, value in
            guard let pathStyle = Self.boolean(value) else { return false }
            configuration.sync.pathStyle = pathStyle
            return true
        },
        path("sync.credentials_file") { $0.sync.credentialsFile = $1 },
        integer("sync.max_bytes_per_second", 0...1_000_000_000) { $0.sync.maxBytesPerSecond = $1 == 0 ? nil : $1 },
        seconds("sync.interval_seconds", 1...3600) { $0.sync.listInterval = $1 },
    ]

    /// The key called `name`, if there is one.
    public static func named(_ name: String) -> ConfigurationKey? { all.first { $0.name == name } }

    // MARK: Kinds of values

    private static func key(
        _ name: String, _ allowed: String, apply: @escaping @Sendable (inout BoothConfiguration, String) -> Bool
    ) -> ConfigurationKey {
        ConfigurationKey(name: name, allowed: allowed, apply: apply)
    }

    private static func text(
        _ name: String, _ allowed: String, apply: @escaping @Sendable (inout BoothConfiguration, String) -> Void
    ) -> ConfigurationKey {
        key(name, allowed) { configuration, value in
            guard !value.isEmpty else { return false }
            apply(&configuration, value)
            return true
        }
    }

    private static func path(
        _ name: String, apply: @escaping @Sendable (inout BoothConfiguration, String) -> Void
    ) -> ConfigurationKey {
        key(name, "an absolute path, such as /dev/...") { configuration, value in
            guard value.hasPrefix("/") else { return false }
            apply(&configuration, value)
            return true
        }
    }

    private static func integer(
        _ name: String, _ range: ClosedRange<Int>, apply: @escaping @Sendable (inout BoothConfiguration, Int) -> Void
    ) -> ConfigurationKey {
        key(name, "a whole number from \(range.lowerBound) to \(range.upperBound)") { configuration, value in
            guard let number = wholeNumber(value), range.contains(number) else { return false }
            apply(&configuration, number)
            return true
        }
    }

    private static func seconds(
        _ name: String, _ range: ClosedRange<Double>,
        apply: @escaping @Sendable (inout BoothConfiguration, Duration) -> Void
    ) -> ConfigurationKey {
        key(name, "a number of seconds from \(range.lowerBound.formatted()) to \(range.upperBound.formatted())") { configuration, value in
            // Plain decimals only: Double() would also take "0x1p2", "1e1" and "inf".
            guard value.wholeMatch(of: /[0-9]{1,9}(\.[0-9]{1,9})?/) != nil, let seconds = Double(value), range.contains(seconds)
            else { return false }
            apply(&configuration, .milliseconds(Int64((seconds * 1000).rounded())))
            return true
        }
    }

    private static func choice<Choice: RawRepresentable<String> & CaseIterable & SendableMetatype>(
        _ name: String, _ type: Choice.Type, apply: @escaping @Sendable (inout BoothConfiguration, Choice) -> Void
    ) -> ConfigurationKey {
        key(name, Choice.allCases.map(\.rawValue).joined(separator: ", ")) { configuration, value in
            guard let choice = Choice(rawValue: value) else { return false }
            apply(&configuration, choice)
            return true
        }
    }

    /// Digits only: Int() would also take a sign ("+5"), which no setting needs.
    private static func wholeNumber(_ value: String) -> Int? {
        guard !value.isEmpty, value.count <= 9, value.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(value)
    }

    private static func boolean(_ value: String) -> Bool? {
        switch value.lowercased() {
        case "true", "yes", "on": true
        case "false", "no", "off": false
        default: nil
        }
    }

    private static func polarity(_ value: String) -> Bool? {
        switch value {
        case "active-low": true
        case "active-high": false
        default: nil
        }
    }
}
