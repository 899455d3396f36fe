import BoothCore
import BoothDevices
import BoothScreen
import BoothSync
import Foundation

// Every setting of the booth: its key, the values it allows, and where it goes. Each key is
// written here once; the configuration file finds it through `ConfigurationKey.all`, and the
// command-line option that sets it names the setting (`--camera-size` names `.cameraSize`).

extension ConfigurationKey {
    /// Every key, in the order the example file documents them.
    static let all: [ConfigurationKey] = [
        Setting.dataDirectory.key,
        Setting.cameraDevice.key, Setting.cameraSize.key, Setting.cameraFrameRate.key, Setting.cameraFormat.key,
        Setting.shutterChip.key, Setting.shutterLine.key, Setting.shutterPolarity.key, Setting.shutterBias.key,
        Setting.shutterDebounce.key, Setting.collageLine.key, Setting.animationLine.key, Setting.boomerangLine.key,
        Setting.printLine.key,
        Setting.lightChip.key, Setting.lightLine.key, Setting.lightPolarity.key,
        Setting.keypadDevice.key, Setting.keypadBaud.key, Setting.keypadLayout.key, Setting.keypadViewKey.key,
        Setting.keypadEcho.key, Setting.keypadMultiTap.key,
        Setting.screenDevice.key, Setting.screenPreviewRate.key, Setting.screenFont.key, Setting.screenContrast.key,
        Setting.screenTextSize.key, Setting.attractAfter.key,
        Setting.soundDevice.key, Setting.soundVolume.key, Setting.soundVoice.key,
        Setting.pictureMode.key, Setting.pictureLayout.key, Setting.nextCountdown.key, Setting.animationFrames.key,
        Setting.collageKey.key, Setting.animationKey.key, Setting.boomerangKey.key, Setting.printKey.key,
        Setting.countdown.key, Setting.namingTimeout.key, Setting.boothName.key, Setting.boothWelcome.key, Setting.language.key,
        Setting.galleryDateFormat.key, Setting.galleryTimeout.key,
        Setting.storageReserve.key,
        Setting.httpEnabled.key, Setting.httpAddress.key, Setting.httpPort.key, Setting.httpPublicURL.key,
        Setting.httpAdminToken.key, Setting.httpGuestDeleteHours.key,
        Setting.syncEndpoint.key, Setting.syncBucket.key, Setting.syncRegion.key, Setting.syncEvent.key,
        Setting.syncPathStyle.key, Setting.syncCredentialsFile.key, Setting.syncMaxBytesPerSecond.key,
        Setting.syncInterval.key,
        Setting.printPrinter.key, Setting.printServer.key, Setting.printMedia.key, Setting.printCopies.key, Setting.printAuto.key,
        Setting.printMargin.key, Setting.printResumeQueue.key, Setting.printGuests.key, Setting.printMaxPerPicture.key,
        Setting.printMaxTotal.key, Setting.printLayout.key,
        Setting.hotspotEnabled.key, Setting.hotspotSSID.key, Setting.hotspotSecurity.key, Setting.hotspotPassphrase.key,
        Setting.hotspotCountry.key, Setting.hotspotChannel.key, Setting.hotspotInterface.key, Setting.hotspotAddress.key,
        Setting.hotspotAdmin.key, Setting.hotspotMaxClients.key, Setting.hotspotRequestsPerSecond.key,
        Setting.hotspotConnectionsPerClient.key,
    ]
}

// MARK: - Library

extension Setting<String> {
    /// `data_dir`: the photo library's folder.
    package static var dataDirectory: Self {
        path("data_dir", allowed: "an absolute folder path") { $0.dataDirectory = URL(fileURLWithPath: $1) }
    }
}

// MARK: - Camera

extension Setting<String> {
    /// `camera.device`: the camera's capture node, or a libcamera camera (`libcamera:0`, or
    /// `libcamera:` and its id).
    package static var cameraDevice: Self {
        Setting(
            "camera.device", allowed: "an absolute path such as /dev/video0, or libcamera:0 (or libcamera: and the camera's id)",
            where: { $0.hasPrefix("/") || LibcameraCamera.Choice(device: $0) != nil }, store: { $0.hardware.camera.device = $1 })
    }
}

extension Setting<FrameSize> {
    /// `camera.size`: the size of the frames asked of the camera.
    package static var cameraSize: Self {
        Setting("camera.size", allowed: "WIDTHxHEIGHT, each from 16 to 8192, such as 1280x720") { configuration, size in
            configuration.hardware.camera.width = size.width
            configuration.hardware.camera.height = size.height
        }
    }
}

extension Setting<FrameRate> {
    /// `camera.fps`: the frames a second asked of the camera.
    package static var cameraFrameRate: Self {
        Setting("camera.fps", in: 1...120) { $0.hardware.camera.framesPerSecond = $1.framesPerSecond }
    }
}

extension Setting<V4L2Camera.FormatPreference> {
    /// `camera.format`: which of the camera's formats to use.
    package static var cameraFormat: Self { Setting("camera.format") { $0.hardware.camera.format = $1 } }
}

// MARK: - Shutter button

extension Setting<String> {
    /// `shutter.chip`: the shutter button's GPIO chip.
    package static var shutterChip: Self {
        Setting("shutter.chip", allowed: "a GPIO chip: gpiochip0, 0 or /dev/gpiochip0") { $0.hardware.shutter.chip = $1 }
    }
}

extension Setting<GPIOLineSelector> {
    /// `shutter.line`: the shutter button's line.
    package static var shutterLine: Self {
        Setting("shutter.line", allowed: "a line offset (17) or name (GPIO17)") { $0.hardware.shutter.line = $1 }
    }

    /// `shutter.collage_line`: a button of its own that makes a collage; none by default.
    package static var collageLine: Self { modeLine(.collage) }
    /// `shutter.animation_line`: a button of its own that makes an animation.
    package static var animationLine: Self { modeLine(.animation) }
    /// `shutter.boomerang_line`: a button of its own that makes a boomerang.
    package static var boomerangLine: Self { modeLine(.boomerang) }

    /// `gpio.print_line`: a button wired as the shutter button is that prints the picture on
    /// its saved screen, when the booth prints; none by default.
    package static var printLine: Self {
        Setting("gpio.print_line", allowed: "a line offset (22) or name (GPIO22)") { $0.hardware.printLine = $1 }
    }

    /// `shutter.<mode>_line`: a button wired as the shutter button is (its chip, polarity,
    /// bias and debounce) that makes a picture of `mode`.
    private static func modeLine(_ mode: PictureMode) -> Self {
        Setting("shutter.\(mode)_line", allowed: "a line offset (27) or name (GPIO27)") { $0.hardware.modeLines[mode] = $1 }
    }
}

extension Setting<Polarity> {
    /// `shutter.polarity`: how the shutter button is wired.
    package static var shutterPolarity: Self {
        Setting("shutter.polarity", allowed: "active-low or active-high") { $0.hardware.shutter.activeLow = $1.isActiveLow }
    }
}

extension Setting<GPIOBias> {
    /// `shutter.bias`: the shutter button's internal resistor.
    package static var shutterBias: Self { Setting("shutter.bias") { $0.hardware.shutter.bias = $1 } }
}

extension Setting<Milliseconds> {
    /// `shutter.debounce_ms`: how close together edges are contact bounce.
    package static var shutterDebounce: Self {
        Setting("shutter.debounce_ms", in: 0...1000) { $0.hardware.shutter.debounce = $1.duration }
    }
}

// MARK: - Status light

extension Setting<String> {
    /// `led.chip`: the status light's GPIO chip.
    package static var lightChip: Self {
        Setting("led.chip", allowed: "a GPIO chip: gpiochip0, 0 or /dev/gpiochip0") { $0.hardware.lightChip = $1 }
    }
}

extension Setting<LightLine> {
    /// `led.line`: the status light's line, or none.
    package static var lightLine: Self {
        Setting("led.line", allowed: "a line offset or name, or none") { $0.hardware.lightLine = $1.line }
    }
}

extension Setting<Polarity> {
    /// `led.polarity`: how the status light is wired.
    package static var lightPolarity: Self {
        Setting("led.polarity", allowed: "active-low or active-high") { $0.hardware.lightActiveLow = $1.isActiveLow }
    }
}

// MARK: - Keypad

extension Setting<String> {
    /// `keypad.device`: the keypad's serial device.
    package static var keypadDevice: Self { path("keypad.device") { $0.hardware.keypad.device = $1 } }
}

extension Setting<BaudRate> {
    /// `keypad.baud`: the keypad's speed.
    package static var keypadBaud: Self {
        Setting("keypad.baud", allowed: SerialKeypad.Settings.speeds.map(String.init).joined(separator: ", ")) {
            $0.hardware.keypad.baud = $1.bitsPerSecond
        }
    }
}

extension Setting<KeypadLayout> {
    /// `keypad.layout`: what the keypad's keys mean.
    package static var keypadLayout: Self {
        Setting("keypad.layout", allowed: "keyboard or phone") { $0.settings.keys.layout = $1 }
    }
}

extension Setting<String> {
    /// `keypad.view_key`: the key that opens the gallery.
    package static var keypadViewKey: Self {
        Setting(
            "keypad.view_key", allowed: "one printable character, such as v (or 0 on a phone keypad)",
            where: { $0.count == 1 && !$0.unicodeScalars.contains { $0.properties.generalCategory == .control } }
        ) { $0.settings.keys.chosenViewKey = $1.first }
    }
}

extension Setting<EchoStyle> {
    /// `keypad.echo`: how prompts and the typed name are echoed to the keypad.
    package static var keypadEcho: Self {
        Setting("keypad.echo", allowed: "plain or ansi") { $0.hardware.keypad.ansi = $1 == .ansi }
    }
}

extension Setting<Milliseconds> {
    /// `keypad.multi_tap_ms`: how long a phone key waits for its next tap.
    package static var keypadMultiTap: Self {
        Setting("keypad.multi_tap_ms", in: 200...5000) { $0.settings.keys.multiTapTimeout = $1.duration }
    }
}

// MARK: - Screen

extension Setting<String> {
    /// `screen.device`: the display (`auto`, a KMS card or a framebuffer).
    package static var screenDevice: Self {
        Setting(
            "screen.device", allowed: "auto, or an absolute path such as /dev/dri/card1 or /dev/fb0",
            where: { $0 == "auto" || $0.hasPrefix("/") }, store: { $0.hardware.screen.device = $1 })
    }

    /// `screen.font`: one TrueType font for all text.
    package static var screenFont: Self { path("screen.font") { $0.hardware.screen.fonts = ScreenFonts($1) } }
}

extension Setting<ScreenContrast> {
    /// `screen.contrast`: `high` keeps every text at 7:1 or more against what is behind it.
    package static var screenContrast: Self {
        Setting("screen.contrast", allowed: "normal or high") { $0.hardware.screen.theme.contrast = $1 }
    }
}

extension Setting<ScreenTextSize> {
    /// `screen.text_size`: `large` sets the screens' words a third larger.
    package static var screenTextSize: Self {
        Setting("screen.text_size", allowed: "normal or large") { $0.hardware.screen.theme.textSize = $1 }
    }
}

extension Setting<FrameRate> {
    /// `screen.preview_fps`: the live preview's frame rate cap.
    package static var screenPreviewRate: Self {
        Setting("screen.preview_fps", in: 1...60) { $0.hardware.screen.previewFramesPerSecond = $1.framesPerSecond }
    }
}

// MARK: - Sound

extension Setting<String> {
    /// `sound.device`: the ALSA output, or `none`.
    package static var soundDevice: Self {
        Setting(
            "sound.device", allowed: "default, none, or an ALSA device name such as plughw:1,0 (aplay -L lists them)",
            where: { !$0.isEmpty && !$0.contains(where: \.isWhitespace) }, store: { $0.hardware.sound.device = $1 == "none" ? nil : $1 })
    }
}

extension Setting<Int> {
    /// `sound.volume`: percent of the clips' level.
    package static var soundVolume: Self {
        Setting("sound.volume", in: 0...100) { $0.hardware.sound.volume = $1 }
    }
}

extension Setting<VoiceMode> {
    /// `sound.voice`: what the booth says besides its sounds.
    package static var soundVoice: Self {
        Setting("sound.voice", allowed: "off, prompts or countdown") { $0.settings.voice = $1 }
    }
}

// MARK: - Booth and gallery

extension Setting<PictureMode> {
    /// `booth.mode`: the picture the shutter button makes.
    package static var pictureMode: Self {
        Setting(
            "booth.mode", allowed: "single, collage, animation or boomerang"
        ) { $0.settings.modes.standard = $1 }
    }
}

extension Setting<String> {
    /// `booth.layout`: the layout pictures are composed in: a built-in one or a layout file
    /// (next to the configuration file unless its path is absolute). A single photo with a
    /// layout is composed in it too (the event's frame on every photo).
    package static var pictureLayout: Self {
        Setting("booth.layout", allowed: "single-frame, strip-3, strip-4, grid-2x2 or the path of a layout file (.yaml)") {
            $0.pictureLayout = $1
        }
    }

    /// `keypad.collage_key`: the key that makes a collage from the main screen, beside the
    /// button's mode; none by default.
    package static var collageKey: Self { modeKey(.collage, example: "c") }
    /// `keypad.animation_key`: the key that makes an animation; none by default.
    package static var animationKey: Self { modeKey(.animation, example: "a") }
    /// `keypad.boomerang_key`: the key that makes a boomerang; none by default.
    package static var boomerangKey: Self { modeKey(.boomerang, example: "b") }

    /// `keypad.print_key`: the key that prints the picture on its saved screen, when the booth
    /// prints (`print.printer`); none by default.
    package static var printKey: Self {
        Setting(
            "keypad.print_key", allowed: "one printable character, such as p",
            where: { $0.count == 1 && !$0.unicodeScalars.contains { $0.properties.generalCategory == .control } }
        ) { $0.printing.key = $1.first }
    }

    /// `keypad.<mode>_key`: the key that makes a picture of `mode` from the main screen.
    private static func modeKey(_ mode: PictureMode, example: String) -> Self {
        Setting(
            "keypad.\(mode)_key", allowed: "one printable character, such as \(example)",
            where: { $0.count == 1 && !$0.unicodeScalars.contains { $0.properties.generalCategory == .control } }
        ) { configuration, key in
            configuration.settings.keys.modeKeys = configuration.settings.keys.modeKeys.filter { $0.value != mode }
            configuration.settings.keys.modeKeys[key.first!] = mode
        }
    }
}

extension Setting<Seconds> {
    /// `booth.next_countdown_seconds`: the countdown before each shot of a collage after the
    /// first.
    package static var nextCountdown: Self {
        Setting("booth.next_countdown_seconds", in: 0...60) { $0.settings.modes.nextCountdown = $1.duration }
    }
}

extension Setting<Seconds> {
    /// `booth.countdown_seconds`: the time from the button press to the shot.
    package static var countdown: Self { Setting("booth.countdown_seconds", in: 0...60) { $0.settings.countdown = $1.duration } }

    /// `booth.naming_timeout_seconds`: how long the name entry waits for a key.
    package static var namingTimeout: Self {
        Setting("booth.naming_timeout_seconds", in: 0.1...3600) { $0.settings.nameTimeout = $1.duration }
    }

    /// `screen.attract_after_seconds`: how long the main screen waits for a guest before it
    /// shows the library's photos one after the other; 0 (the default) never.
    package static var attractAfter: Self {
        Setting("screen.attract_after_seconds", in: 0...86_400) { $0.settings.attractAfter = $1.seconds == 0 ? nil : $1.duration }
    }

    /// `gallery.timeout_seconds`: how long the gallery waits for a key before the main screen.
    package static var galleryTimeout: Self {
        Setting("gallery.timeout_seconds", in: 5...3600) { $0.settings.galleryTimeout = $1.duration }
    }
}

extension Setting<String> {
    /// `booth.name`: the booth's name, on its pages and as its folder in the event's bucket.
    package static var boothName: Self {
        Setting("booth.name", allowed: "a name, such as Anna & Ben's wedding") { $0.web.boothName = $1 }
    }

    /// `booth.welcome`: the words at the top of the web gallery, which guests can close.
    package static var boothWelcome: Self {
        Setting("booth.welcome", allowed: "a few words for the guests") { $0.web.welcome = $1 }
    }
}

extension Setting<BoothLanguage> {
    /// `booth.language`: the language the booth speaks, on its screens and by default on the web.
    package static var language: Self {
        Setting("booth.language", allowed: BoothLanguage.all.map { "\($0.code) (\($0.nativeName))" }.joined(separator: ", ")) {
            $0.language = $1
        }
    }
}

extension Setting<PhotoDateFormat> {
    /// `gallery.date_format`: how creation times are written, instead of the language's way.
    package static var galleryDateFormat: Self {
        Setting("gallery.date_format", allowed: "a date pattern such as 'Taken on' dd/MM/yyyy 'at' HH'h'mm") { $0.web.dateFormat = $1 }
    }
}

// MARK: - Storage

extension Setting<Int> {
    /// `booth.animation_frames`: how many frames an animation or a boomerang takes, 200 ms
    /// apart.
    package static var animationFrames: Self {
        Setting("booth.animation_frames", in: 2...30) { $0.settings.modes.animationFrames = $1 }
    }

    /// `storage.reserve_mb`: the megabytes kept free on the library's disk.
    package static var storageReserve: Self {
        Setting("storage.reserve_mb", in: 1...1_000_000) { $0.storageReserveBytes = Int64($1) * 1_000_000 }
    }
}

// MARK: - Web gallery

extension Setting<Bool> {
    /// `http.enabled`: whether the booth serves the web gallery.
    package static var httpEnabled: Self { Setting("http.enabled", allowed: "true or false") { $0.web.enabled = $1 } }
}

extension Setting<IPAddress> {
    /// `http.address`: the address the web gallery listens on.
    package static var httpAddress: Self {
        Setting("http.address", allowed: "an IP address of this machine to listen on, such as 0.0.0.0 (all), 127.0.0.1 or ::") {
            $0.web.address = $1.settingText
        }
    }
}

extension Setting<TCPPort> {
    /// `http.port`: the web gallery's port.
    package static var httpPort: Self { Setting("http.port", in: 1...65535) { $0.web.port = $1.number } }
}

extension Setting<PublicURL> {
    /// `http.public_url`: how guests reach the gallery, for the QR codes.
    package static var httpPublicURL: Self {
        Setting("http.public_url", allowed: "an address such as http://booth.local:8080, or auto") { $0.web.publicURL = $1.address }
    }
}

extension Setting<AdminToken> {
    /// `http.admin_token`: the secret that allows hiding and deleting photos over the web.
    package static var httpAdminToken: Self {
        Setting("http.admin_token", allowed: "a secret of at least 16 characters, or none") { $0.web.adminToken = $1.secret }
    }
}

extension Setting<Int> {
    /// `http.guest_delete_hours`: how long a guest's link can delete their photo.
    package static var httpGuestDeleteHours: Self {
        Setting("http.guest_delete_hours", in: 0...8760) { $0.web.guestDeleteHours = $1 }
    }
}

// MARK: - Event sync

extension Setting<StoreEndpoint> {
    /// `sync.endpoint`: the event's S3-compatible store.
    package static var syncEndpoint: Self {
        Setting(
            "sync.endpoint",
            allowed: """
                the store's address, such as https://s3.eu-central-1.amazonaws.com or http://127.0.0.1:8333, without a user or \
                password (the key and secret go in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or sync.credentials_file)
                """
        ) { $0.sync.endpoint = $1.url }
    }
}

extension Setting<String> {
    /// `sync.bucket`: the event's bucket.
    package static var syncBucket: Self {
        Setting("sync.bucket", allowed: "a bucket name: 3 to 63 lowercase letters, digits, dots and hyphens", where: SyncSettings.isBucketName) {
            $0.sync.bucket = $1
        }
    }

    /// `sync.region`: the bucket's region.
    package static var syncRegion: Self {
        Setting(
            "sync.region", allowed: "a region such as us-east-1, eu-central-1 or auto",
            where: { $0.wholeMatch(of: /[a-z0-9][a-z0-9\-]{0,62}/) != nil }
        ) { $0.sync.region = $1 }
    }

    /// `sync.event`: the event's name, its folder in the bucket.
    package static var syncEvent: Self {
        Setting("sync.event", allowed: "the event's name, such as Anna & Ben's wedding") { $0.sync.event = $1 }
    }

    /// `sync.credentials_file`: the store's credentials, in the AWS credentials format.
    package static var syncCredentialsFile: Self { path("sync.credentials_file") { $0.sync.credentialsFile = $1 } }
}

extension Setting<Bool> {
    /// `sync.path_style`: path-style bucket addresses, as self-hosted stores need.
    package static var syncPathStyle: Self { Setting("sync.path_style", allowed: "true or false") { $0.sync.pathStyle = $1 } }
}

extension Setting<Int> {
    /// `sync.max_bytes_per_second`: the uploads' speed limit; 0 for none.
    package static var syncMaxBytesPerSecond: Self {
        Setting("sync.max_bytes_per_second", in: 0...1_000_000_000) { $0.sync.maxBytesPerSecond = $1 == 0 ? nil : $1 }
    }
}

extension Setting<Seconds> {
    /// `sync.interval_seconds`: how often the event's other booths are looked for.
    package static var syncInterval: Self { Setting("sync.interval_seconds", in: 1...3600) { $0.sync.listInterval = $1.duration } }
}

// MARK: - Printing

extension Setting<String> {
    /// `print.printer`: the CUPS queue pictures are printed on, or the address of an IPP
    /// Everywhere printer the booth sets up a queue for; none by default.
    package static var printPrinter: Self {
        Setting(
            "print.printer",
            allowed:
                "a CUPS queue's name, as lpstat -p lists it (letters, digits, - and _), or an IPP Everywhere printer's address (ipp://printer.local/ipp/print)",
            where: { name in
                if PrintConfiguration.isPrinterAddress(name) {
                    // No user or password in it: the address is logged.
                    return name.count <= 1023 && URL(string: name)?.host?.isEmpty == false
                        && name.allSatisfy { $0.isASCII && !$0.isWhitespace && $0 != "@" }
                }
                return !name.isEmpty && name.count <= 127
                    && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
            }
        ) { $0.printing.printer = $1 }
    }
}

extension Setting<String> {
    /// `print.layout`: a layout file whose canvas is the sheet and whose slots each hold the
    /// picture; none by default (the picture alone, within the margin).
    package static var printLayout: Self {
        Setting("print.layout", allowed: "the path of a layout file (.yaml) whose canvas has the paper's shape") { $0.printing.layout = $1 }
    }
}

extension Setting<IPPServer> {
    /// `print.server`: the CUPS server; libcups's own by default.
    package static var printServer: Self {
        Setting("print.server", allowed: "HOST:PORT, HOST, or a local socket's path such as /run/cups/cups.sock") { $0.printing.server = $1 }
    }
}

extension Setting<PrintMedia> {
    /// `print.media`: the paper.
    package static var printMedia: Self {
        Setting(
            "print.media", allowed: "4x6, 5x7, 3.5x5, a6, a5, a4, letter, 2x6 (two strips on a 4x6 sheet) or a PWG name such as na_index-4x6_4x6in"
        ) {
            $0.printing.media = $1
        }
    }
}

extension Setting<Int> {
    /// `print.copies`: the copies of each picture.
    package static var printCopies: Self { Setting("print.copies", in: 1...10) { $0.printing.copies = $1 } }

    /// `print.margin_mm`: the white margin around the picture; 0 for borderless.
    package static var printMargin: Self { Setting("print.margin_mm", in: 0...30) { $0.printing.marginMillimetres = $1 } }

    /// `print.max_per_picture`: the most prints guests may ask for of one picture; no limit
    /// by default.
    package static var printMaxPerPicture: Self {
        Setting("print.max_per_picture", in: 1...1000) { $0.printing.limits.perPicture = $1 }
    }

    /// `print.max_total`: the most prints guests may ask for in all (the paper the operator
    /// has); no limit by default.
    package static var printMaxTotal: Self { Setting("print.max_total", in: 1...100_000) { $0.printing.limits.total = $1 } }
}

extension Setting<Bool> {
    /// `print.auto`: print every picture when saved.
    package static var printAuto: Self { Setting("print.auto", allowed: "true or false") { $0.printing.auto = $1 } }

    /// `print.resume_queue`: start the CUPS queue again when it stops.
    package static var printResumeQueue: Self {
        Setting("print.resume_queue", allowed: "true or false") { $0.printing.resumeQueue = $1 }
    }

    /// `print.guests`: guests print from the photo's page, within the limits.
    package static var printGuests: Self { Setting("print.guests", allowed: "true or false") { $0.printing.guests = $1 } }
}

// MARK: - Hotspot

extension Setting<Bool> {
    /// `hotspot.enabled`: the booth runs its own Wi-Fi access point.
    package static var hotspotEnabled: Self { Setting("hotspot.enabled", allowed: "true or false") { $0.hotspot.enabled = $1 } }

    /// `hotspot.admin`: phones on the hotspot may use the admin page and API.
    package static var hotspotAdmin: Self { Setting("hotspot.admin", allowed: "true or false") { $0.hotspot.admin = $1 } }
}

extension Setting<String> {
    /// `hotspot.ssid`: the network's name; the booth's name by default.
    package static var hotspotSSID: Self {
        Setting(
            "hotspot.ssid", allowed: "a name of 1 to 32 bytes, such as Photobooth",
            where: { WiFiJoin.problem(name: $0, security: .open, passphrase: "") == nil }
        ) { $0.hotspot.ssid = $1 }
    }
}

extension Setting<WiFiJoin.Security> {
    /// `hotspot.security`: how the network is secured.
    package static var hotspotSecurity: Self { Setting("hotspot.security") { $0.hotspot.security = $1 } }
}

extension Setting<WiFiPassphrase> {
    /// `hotspot.passphrase`: what phones join the network with.
    package static var hotspotPassphrase: Self {
        Setting("hotspot.passphrase", allowed: "8 to 63 printable ASCII characters") { $0.hotspot.passphrase = $1.settingText }
    }
}

extension Setting<CountryCode> {
    /// `hotspot.country`: the country the booth stands in.
    package static var hotspotCountry: Self {
        Setting("hotspot.country", allowed: "a country's two-letter code, such as DE, FR, GB or US") { $0.hotspot.country = $1 }
    }
}

extension Setting<Int> {
    /// `hotspot.channel`: the Wi-Fi channel.
    package static var hotspotChannel: Self { Setting("hotspot.channel", in: 1...48) { $0.hotspot.channel = $1 } }

    /// `hotspot.max_clients`: the most phones joined at once.
    package static var hotspotMaxClients: Self { Setting("hotspot.max_clients", in: 1...255) { $0.hotspot.maxClients = $1 } }

    /// `hotspot.requests_per_second`: requests a second one phone may make.
    package static var hotspotRequestsPerSecond: Self {
        Setting("hotspot.requests_per_second", in: 1...1000) { $0.hotspot.requestsPerSecond = $1 }
    }

    /// `hotspot.connections_per_client`: connections one phone may hold open.
    package static var hotspotConnectionsPerClient: Self {
        Setting("hotspot.connections_per_client", in: 1...64) { $0.hotspot.connectionsPerClient = $1 }
    }
}

extension Setting<InterfaceName> {
    /// `hotspot.interface`: the radio's network interface.
    package static var hotspotInterface: Self {
        Setting("hotspot.interface", allowed: "a network interface's name, such as wlan0 (ip -brief link lists them)") {
            $0.hotspot.interface = $1.settingText
        }
    }
}

extension Setting<HotspotAddress> {
    /// `hotspot.address`: the booth's address on its Wi-Fi, with the network's size.
    package static var hotspotAddress: Self {
        Setting("hotspot.address", allowed: "a private IPv4 address with a prefix length from 16 to 28, such as 10.42.0.1/24") {
            $0.hotspot.address = $1
        }
    }
}
