import ArgumentParser
import BoothCore
import BoothDevices
import BoothScreen
import BoothService
import Foundation

/// The configuration file and the command-line overrides `run` and `doctor` share. Each option
/// names the setting it overrides: its help names the key of the file, and its value is read
/// the way the file's is.
struct HardwareOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The configuration file (YAML).",
            discussion:
                "Default: \(BoothConfiguration.defaultFile) when it exists, which documents every key (deploy/photobooth.yaml in the source).",
            valueName: "file"))
    var config: String?

    @Option(.cameraDevice, help: "The camera's device, or libcamera:0 for a Raspberry Pi camera module", valueName: "path")
    var camera: String?
    @Option(.cameraSize, help: "The camera's frame size", valueName: "WxH")
    var cameraSize: FrameSize?
    @Option(.cameraFrameRate, help: "The camera's frame rate", valueName: "fps")
    var cameraFps: FrameRate?
    @Option(.cameraFormat, help: "The camera format: auto, mjpeg, yuyv or converted", valueName: "format")
    var cameraFormat: V4L2Camera.FormatPreference?
    @Option(.shutterChip, .lightChip, help: "The GPIO chip of the shutter button and the light", valueName: "chip")
    var gpioChip: String?
    @Option(.shutterLine, help: "The shutter button's line (offset or name)", valueName: "line")
    var shutterLine: GPIOLineSelector?
    @Option(.shutterPolarity, help: "active-low (button to ground) or active-high", valueName: "polarity")
    var shutterPolarity: Polarity?
    @Option(.shutterBias, help: "pull-up, pull-down, disabled or as-is", valueName: "bias")
    var shutterBias: GPIOBias?
    @Option(.shutterDebounce, help: "The button's debounce time", valueName: "ms")
    var debounceMs: Milliseconds?
    @Option(.lightLine, help: "The status light's line, or none", valueName: "line")
    var ledLine: LightLine?
    @Option(.keypadDevice, help: "The keypad's serial device", valueName: "path")
    var keypad: String?
    @Option(.keypadBaud, help: "The keypad's speed", valueName: "baud")
    var keypadBaud: BaudRate?
    @Option(.keypadLayout, help: "keyboard or phone (12-key multi-tap)", valueName: "layout")
    var keypadLayout: KeypadLayout?
    @Option(.keypadViewKey, help: "The key that opens the gallery", valueName: "key")
    var viewKey: String?
    @Option(.screenDevice, help: "The display: auto, a KMS card (/dev/dri/card0) or a framebuffer (/dev/fb0)", valueName: "path")
    var screen: String?
    @Option(.screenPreviewRate, help: "The preview's frame rate cap", valueName: "fps")
    var previewFps: FrameRate?
    @Option(.screenContrast, help: "normal, or high: every text at 7:1 or more against what is behind it", valueName: "contrast")
    var contrast: ScreenContrast?
    @Option(.screenTextSize, help: "normal, or large: the screens' words a third larger", valueName: "size")
    var textSize: ScreenTextSize?
    @Option(.soundDevice, help: "The speaker: default, none, or an ALSA device such as plughw:1,0", valueName: "device")
    var sound: String?
    @Option(.soundVolume, help: "Percent of the sounds' own level, 0 to 100", valueName: "percent")
    var soundVolume: Int?
    @Option(.soundVoice, help: "What the booth says: off, prompts or countdown", valueName: "voice")
    var voice: VoiceMode?
    @Option(.countdown, help: "Seconds from the button press to the shot", valueName: "seconds")
    var countdown: Seconds?
    @Option(.pictureMode, help: "The picture the button makes: single, collage, animation or boomerang", valueName: "mode")
    var mode: PictureMode?
    @Option(.pictureLayout, help: "The layout pictures are composed in: a built-in one's name or a layout file", valueName: "layout")
    var layout: String?
    @Option(.namingTimeout, help: "Seconds without a key before the default name is kept", valueName: "seconds")
    var nameTimeout: Seconds?
    @Option(.galleryTimeout, help: "Seconds without a key before the gallery goes back to the main screen", valueName: "seconds")
    var galleryTimeout: Seconds?
    @Option(.storageReserve, help: "Megabytes kept free on the library's disk; below it the booth takes no photos", valueName: "MB")
    var storageReserve: Int?
    @Option(.httpAddress, help: "The address the web gallery listens on", valueName: "address")
    var httpAddress: IPAddress?
    @Option(.httpPort, help: "The web gallery's port", valueName: "port")
    var httpPort: TCPPort?
    @Option(.httpPublicURL, help: "How guests reach the gallery, for the QR codes (http://booth.local:8080)", valueName: "url")
    var publicURL: PublicURL?
    @Flag(.httpEnabled, to: false, help: "Serve no web gallery")
    var noHttp: Bool
    @Option(.boothName, help: "The booth's name, on its pages and as its folder in the event's bucket", valueName: "name")
    var boothName: String?
    @Option(.language, help: "The booth's language: en, fr or de", valueName: "code")
    var language: BoothLanguage?
    // Read as text and checked in validate(): ArgumentParser repeats a value it cannot read in
    // its message, and an address may carry a secret.
    @Option(
        help: ArgumentHelp(
            "The event's S3-compatible store (https://s3.eu-central-1.amazonaws.com) (\(Setting.syncEndpoint.name)).", valueName: "url"))
    var syncEndpoint: String?
    @Option(.syncBucket, help: "The event's bucket", valueName: "name")
    var syncBucket: String?
    @Option(.syncRegion, help: "The bucket's region (default us-east-1)", valueName: "region")
    var syncRegion: String?
    @Option(.syncEvent, help: "The event's name: its folder in the bucket, shared by all its booths", valueName: "name")
    var syncEvent: String?
    @Flag(.syncPathStyle, to: true, help: "Path-style bucket addresses, as self-hosted stores need")
    var syncPathStyle: Bool
    @Option(.syncCredentialsFile, help: "The store's credentials, in the AWS credentials format", valueName: "file")
    var syncCredentials: String?

    /// Refuses what no option type could: a store's address that ``Setting/parse(_:)`` refuses,
    /// with the message that does not repeat a user or password.
    func validate() throws {
        if let syncEndpoint {
            do {
                _ = try Setting.syncEndpoint.parse(syncEndpoint)
            } catch {
                throw ValidationError("--sync-endpoint: \(error)")
            }
        }
    }

    /// Sets the keys the options give, over the file's.
    private func override(_ configuration: inout BoothConfiguration) {
        configuration.override(.cameraDevice, with: camera)
        configuration.override(.cameraSize, with: cameraSize)
        configuration.override(.cameraFrameRate, with: cameraFps)
        configuration.override(.cameraFormat, with: cameraFormat)
        configuration.override(.shutterChip, with: gpioChip)
        configuration.override(.shutterLine, with: shutterLine)
        configuration.override(.shutterPolarity, with: shutterPolarity)
        configuration.override(.shutterBias, with: shutterBias)
        configuration.override(.shutterDebounce, with: debounceMs)
        configuration.override(.lightChip, with: gpioChip)
        configuration.override(.lightLine, with: ledLine)
        configuration.override(.keypadDevice, with: keypad)
        configuration.override(.keypadBaud, with: keypadBaud)
        configuration.override(.keypadLayout, with: keypadLayout)
        configuration.override(.keypadViewKey, with: viewKey)
        configuration.override(.screenDevice, with: screen)
        configuration.override(.screenPreviewRate, with: previewFps)
        configuration.override(.screenContrast, with: contrast)
        configuration.override(.screenTextSize, with: textSize)
        configuration.override(.soundDevice, with: sound)
        configuration.override(.soundVolume, with: soundVolume)
        configuration.override(.soundVoice, with: voice)
        configuration.override(.countdown, with: countdown)
        configuration.override(.pictureMode, with: mode)
        configuration.override(.pictureLayout, with: layout)
        configuration.override(.namingTimeout, with: nameTimeout)
        configuration.override(.galleryTimeout, with: galleryTimeout)
        configuration.override(.storageReserve, with: storageReserve)
        configuration.override(.httpEnabled, with: noHttp ? false : nil)
        configuration.override(.httpAddress, with: httpAddress)
        configuration.override(.httpPort, with: httpPort)
        configuration.override(.httpPublicURL, with: publicURL)
        configuration.override(.boothName, with: boothName)
        configuration.override(.language, with: language)
        configuration.override(.syncEndpoint, with: syncEndpoint.flatMap { try? Setting.syncEndpoint.parse($0) })
        configuration.override(.syncBucket, with: syncBucket)
        configuration.override(.syncRegion, with: syncRegion)
        configuration.override(.syncEvent, with: syncEvent)
        configuration.override(.syncPathStyle, with: syncPathStyle ? true : nil)
        configuration.override(.syncCredentialsFile, with: syncCredentials)
    }

    /// The first option that sets up a device, if any (`serve` has none).
    var deviceOptionGiven: String? {
        let devices: [(option: String, given: Bool)] = [
            ("--camera", camera != nil), ("--camera-size", cameraSize != nil), ("--camera-fps", cameraFps != nil),
            ("--camera-format", cameraFormat != nil), ("--gpio-chip", gpioChip != nil), ("--shutter-line", shutterLine != nil),
            ("--led-line", ledLine != nil), ("--keypad", keypad != nil), ("--screen", screen != nil), ("--countdown", countdown != nil),
            ("--name-timeout", nameTimeout != nil),
        ]
        return devices.first(where: \.given)?.option
    }

    /// With `--simulate`, the parts whose device the command line names, which are used for
    /// real; the others are simulated. A setting of a part that stays simulated is refused, so
    /// that no option is silently ignored, except the camera's size and rate, which the
    /// simulated camera takes too.
    private func realParts() throws -> DeviceParts {
        var real: DeviceParts = []
        if camera != nil { real.insert(.camera) }
        if gpioChip != nil || shutterLine != nil { real.insert(.button) }
        if ledLine?.line != nil { real.insert(.light) }
        if keypad != nil { real.insert(.keypad) }
        if screen != nil { real.insert(.screen) }
        let settings: [(option: String, given: Bool, part: DeviceParts, device: String)] = [
            ("--camera-format", cameraFormat != nil, .camera, "--camera"),
            ("--shutter-polarity", shutterPolarity != nil, .button, "--shutter-line"),
            ("--shutter-bias", shutterBias != nil, .button, "--shutter-line"), ("--debounce-ms", debounceMs != nil, .button, "--shutter-line"),
            ("--keypad-baud", keypadBaud != nil, .keypad, "--keypad"), ("--keypad-layout", keypadLayout != nil, .keypad, "--keypad"),
            ("--view-key", viewKey != nil, .keypad, "--keypad"), ("--preview-fps", previewFps != nil, .screen, "--screen"),
        ]
        for setting in settings where setting.given && !real.contains(setting.part) {
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
        override(&configuration)
        return configuration
    }
}
