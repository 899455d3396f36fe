import ArgumentParser
import BoothService
import Foundation

/// The configuration file and the command-line overrides `run` and `doctor` share. Each option
/// sets one key of the file (the help names it), and is checked the same way.
struct HardwareOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The configuration file (YAML).",
            discussion:
                "Default: \(BoothConfiguration.defaultFile) when it exists, which documents every key (deploy/photobooth.yaml in the source).",
            valueName: "file"))
    var config: String?

    @Option(help: help("The camera's device", "camera.device", "path"))
    var camera: String?
    @Option(help: help("The camera's frame size", "camera.size", "WxH"))
    var cameraSize: String?
    @Option(help: help("The camera's frame rate", "camera.fps", "fps"))
    var cameraFps: String?
    @Option(help: help("The camera format: auto, mjpeg, yuyv or converted", "camera.format", "format"))
    var cameraFormat: String?
    @Option(help: help("The GPIO chip of the shutter button and the light", "shutter.chip, led.chip", "chip"))
    var gpioChip: String?
    @Option(help: help("The shutter button's line (offset or name)", "shutter.line", "line"))
    var shutterLine: String?
    @Option(help: help("active-low (button to ground) or active-high", "shutter.polarity", "polarity"))
    var shutterPolarity: String?
    @Option(help: help("pull-up, pull-down, disabled or as-is", "shutter.bias", "bias"))
    var shutterBias: String?
    @Option(help: help("The button's debounce time", "shutter.debounce_ms", "ms"))
    var debounceMs: String?
    @Option(help: help("The status light's line, or none", "led.line", "line"))
    var ledLine: String?
    @Option(help: help("The keypad's serial device", "keypad.device", "path"))
    var keypad: String?
    @Option(help: help("The keypad's speed", "keypad.baud", "baud"))
    var keypadBaud: String?
    @Option(help: help("keyboard or phone (12-key multi-tap)", "keypad.layout", "layout"))
    var keypadLayout: String?
    @Option(help: help("The key that opens the gallery", "keypad.view_key", "key"))
    var viewKey: String?
    @Option(help: help("The framebuffer device", "screen.device", "path"))
    var screen: String?
    @Option(help: help("The preview's frame rate cap", "screen.preview_fps", "fps"))
    var previewFps: String?
    @Option(help: help("Seconds from the button press to the shot", "booth.countdown_seconds", "seconds"))
    var countdown: String?
    @Option(help: help("Seconds without a key before the default name is kept", "booth.naming_timeout_seconds", "seconds"))
    var nameTimeout: String?
    @Option(help: help("Seconds without a key before the gallery goes back to the main screen", "gallery.timeout_seconds", "seconds"))
    var galleryTimeout: String?
    @Option(help: help("Megabytes kept free on the library's disk; below it the booth takes no photos", "storage.reserve_mb", "MB"))
    var storageReserve: String?
    @Option(help: help("The address the web gallery listens on", "http.address", "address"))
    var httpAddress: String?
    @Option(help: help("The web gallery's port", "http.port", "port"))
    var httpPort: String?
    @Option(help: help("How guests reach the gallery, for the QR codes (http://booth.local:8080)", "http.public_url", "url"))
    var publicURL: String?
    @Flag(help: ArgumentHelp("Serve no web gallery (http.enabled: false)."))
    var noHttp = false
    @Option(help: help("The booth's name, on its pages and as its folder in the event's bucket", "booth.name", "name"))
    var boothName: String?
    @Option(help: help("The event's S3-compatible store (https://s3.eu-central-1.amazonaws.com)", "sync.endpoint", "url"))
    var syncEndpoint: String?
    @Option(help: help("The event's bucket", "sync.bucket", "name"))
    var syncBucket: String?
    @Option(help: help("The bucket's region (default us-east-1)", "sync.region", "region"))
    var syncRegion: String?
    @Option(help: help("The event's name: its folder in the bucket, shared by all its booths", "sync.event", "name"))
    var syncEvent: String?
    @Flag(help: ArgumentHelp("Path-style bucket addresses, as self-hosted stores need (sync.path_style: true)."))
    var syncPathStyle = false
    @Option(help: help("The store's credentials, in the AWS credentials format", "sync.credentials_file", "file"))
    var syncCredentials: String?

    private static func help(_ what: String, _ key: String, _ valueName: String) -> ArgumentHelp {
        ArgumentHelp("\(what) (\(key)).", valueName: valueName)
    }

    /// The overrides given, as (option, key, value), in the order the file documents the keys.
    private var overrides: [(option: String, key: String, value: String?)] {
        [
            ("--camera", "camera.device", camera), ("--camera-size", "camera.size", cameraSize),
            ("--camera-fps", "camera.fps", cameraFps), ("--camera-format", "camera.format", cameraFormat),
            ("--gpio-chip", "shutter.chip", gpioChip), ("--shutter-line", "shutter.line", shutterLine),
            ("--shutter-polarity", "shutter.polarity", shutterPolarity), ("--shutter-bias", "shutter.bias", shutterBias),
            ("--debounce-ms", "shutter.debounce_ms", debounceMs), ("--led-line", "led.line", ledLine),
            ("--gpio-chip", "led.chip", gpioChip), ("--keypad", "keypad.device", keypad),
            ("--keypad-baud", "keypad.baud", keypadBaud), ("--keypad-layout", "keypad.layout", keypadLayout),
            ("--view-key", "keypad.view_key", viewKey), ("--screen", "screen.device", screen),
            ("--preview-fps", "screen.preview_fps", previewFps), ("--countdown", "booth.countdown_seconds", countdown),
            ("--name-timeout", "booth.naming_timeout_seconds", nameTimeout),
            ("--gallery-timeout", "gallery.timeout_seconds", galleryTimeout), ("--storage-reserve", "storage.reserve_mb", storageReserve),
            ("--http-address", "http.address", httpAddress), ("--http-port", "http.port", httpPort),
            ("--public-url", "http.public_url", publicURL), ("--no-http", "http.enabled", noHttp ? "false" : nil),
            ("--booth-name", "booth.name", boothName), ("--sync-endpoint", "sync.endpoint", syncEndpoint),
            ("--sync-bucket", "sync.bucket", syncBucket), ("--sync-region", "sync.region", syncRegion),
            ("--sync-event", "sync.event", syncEvent), ("--sync-path-style", "sync.path_style", syncPathStyle ? "true" : nil),
            ("--sync-credentials", "sync.credentials_file", syncCredentials),
        ]
    }

    /// The first option that sets up a device, if any (`serve` has none).
    var deviceOptionGiven: String? {
        let devices: [(String, String?)] = [
            ("--camera", camera), ("--camera-size", cameraSize), ("--camera-fps", cameraFps), ("--camera-format", cameraFormat),
            ("--gpio-chip", gpioChip), ("--shutter-line", shutterLine), ("--led-line", ledLine), ("--keypad", keypad),
            ("--screen", screen), ("--countdown", countdown), ("--name-timeout", nameTimeout),
        ]
        return devices.first { $0.1 != nil }?.0
    }

    /// With `--simulate`, the parts whose device the command line names, which are used for
    /// real; the others are simulated. A setting of a part that stays simulated is refused, so
    /// that no option is silently ignored, except the camera's size and rate, which the
    /// simulated camera takes too.
    private func realParts() throws -> DeviceParts {
        var real: DeviceParts = []
        if camera != nil { real.insert(.camera) }
        if gpioChip != nil || shutterLine != nil { real.insert(.button) }
        if let ledLine, ledLine != "none" { real.insert(.light) }
        if keypad != nil { real.insert(.keypad) }
        if screen != nil { real.insert(.screen) }
        let settings: [(option: String, value: String?, part: DeviceParts, device: String)] = [
            ("--camera-format", cameraFormat, .camera, "--camera"),
            ("--shutter-polarity", shutterPolarity, .button, "--shutter-line"), ("--shutter-bias", shutterBias, .button, "--shutter-line"),
            ("--debounce-ms", debounceMs, .button, "--shutter-line"), ("--keypad-baud", keypadBaud, .keypad, "--keypad"),
            ("--keypad-layout", keypadLayout, .keypad, "--keypad"), ("--view-key", viewKey, .keypad, "--keypad"),
            ("--preview-fps", previewFps, .screen, "--screen"),
        ]
        for setting in settings where setting.value != nil && !real.contains(setting.part) {
            throw ValidationError(
                """
                \(setting.option) sets up a real device, and with --simulate that part is simulated: name the device with \
                \(setting.device) to use it for real, or leave \(setting.option) out.
                """)
        }
        return real
    }

    /// The configuration: defaults, then the file (unless simulating without `--config`), then
    /// the options.
    func configuration(dataDirectory: URL, explicitDataDirectory: Bool, simulate: Bool) throws -> BoothConfiguration {
        var configuration = BoothConfiguration(dataDirectory: dataDirectory, simulate: simulate)
        if let config {
            try configuration.apply(file: config)
        } else if !simulate, FileManager.default.fileExists(atPath: BoothConfiguration.defaultFile) {
            try configuration.apply(file: BoothConfiguration.defaultFile)
        }
        if explicitDataDirectory { configuration.dataDirectory = dataDirectory }
        if simulate { configuration.realParts = try realParts() }
        for override in overrides {
            guard let value = override.value else { continue }
            do {
                try configuration.set(override.key, to: value, from: override.option)
            } catch {
                // A wrong option is bad usage (exit code 2), like any other.
                throw ValidationError(error.description)
            }
        }
        return configuration
    }
}
