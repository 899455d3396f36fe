import BoothCore
import BoothDevices
import BoothPrint
import BoothScreen
import BoothSync
import Foundation
import Testing

@testable import BoothService

@Suite("Configuration file")
struct ConfigurationTests {
    /// Writes `text` to a temporary file and applies it to a default configuration.
    func load(_ text: String) throws -> BoothConfiguration {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("photobooth-\(UUID()).yaml")
        try text.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        var configuration = BoothConfiguration(dataDirectory: URL(fileURLWithPath: "/tmp/booth"), simulate: false)
        try configuration.apply(file: file.path)
        return configuration
    }

    /// The error `text` causes.
    func error(_ text: String) throws -> ConfigurationError {
        do {
            _ = try load(text)
        } catch let error as ConfigurationError {
            return error
        }
        Issue.record("no error for \(text)")
        return ConfigurationError(.unreadableFile, "no error")
    }

    /// The message of the error `text` causes.
    func failure(_ text: String) throws -> String {
        try error(text).description
    }

    @Test("The documented example in deploy/ is valid and holds the defaults")
    func example() throws {
        let example = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("deploy/photobooth.yaml")
        let configuration = try load(String(contentsOf: example, encoding: .utf8))
        #expect(configuration.hardware == HardwareConfiguration())
        #expect(configuration.settings == BoothSettings())
        #expect(configuration.web == WebConfiguration())
        #expect(configuration.sync == SyncSettings())
        #expect(configuration.hotspot == HotspotConfiguration())
        #expect(!configuration.sync.isEnabled)
        #expect(configuration.language == .english && configuration.dateFormat == BoothLanguage.english.dateFormat)
    }

    @Test("booth.language picks the booth's language and its way of writing dates; an operator's pattern still wins")
    func language() throws {
        let french = try load("booth: {language: fr}")
        #expect(french.language == .french && french.dateFormat == BoothLanguage.french.dateFormat)
        let date = Date(timeIntervalSince1970: 1_795_442_640)  // 23/11/2026 at 14h04 UTC
        #expect(french.dateFormat.string(from: date, timeZone: .gmt) == "Prise le 23/11/2026 à 14h04")
        #expect(try load("booth: {language: DE}").language == .german, "in any case")
        let custom = try load("booth: {language: fr}\ngallery: {date_format: \"d MMMM yyyy\"}")
        #expect(custom.dateFormat.string(from: date, timeZone: .gmt) == "23 novembre 2026", "the operator's pattern, in the booth's language")
        let unknown = try error("booth: {language: es}")
        #expect(unknown.code == .notAllowed && unknown.key == "booth.language")
        #expect(unknown.description.hasSuffix("booth.language: \"es\" is not allowed; use en (English), fr (Français), de (Deutsch)."), "\(unknown)")
    }

    @Test("The sync keys set the event's bucket; a wrong endpoint or bucket name is refused with what is allowed")
    func syncKeys() throws {
        let configuration = try load(
            """
            sync: {endpoint: "http://127.0.0.1:8333", bucket: anna-photos, region: eu-central-1, event: "Anna & Ben",
                   path_style: true, credentials_file: /etc/photobooth/sync-credentials, max_bytes_per_second: 250000,
                   interval_seconds: 10}
            """)
        let sync = configuration.sync
        #expect(sync.isEnabled && sync.endpoint?.absoluteString == "http://127.0.0.1:8333" && sync.bucket == "anna-photos")
        #expect(sync.region == "eu-central-1" && sync.event == "Anna & Ben" && sync.pathStyle)
        #expect(sync.credentialsFile == "/etc/photobooth/sync-credentials" && sync.maxBytesPerSecond == 250_000)
        #expect(sync.listInterval == .seconds(10))
        for (text, key) in [("sync: {endpoint: ftp://store}", "sync.endpoint"), ("sync: {bucket: Anna_Photos}", "sync.bucket")] {
            let refused = try error(text)
            #expect(refused.code == .notAllowed && refused.key == key, "\(refused)")
        }
        // An address with a user and password is refused without repeating them.
        let secret = try failure(#"sync: {endpoint: "https://AKIAEXAMPLE:wJalrXUtnFEMI@s3.example.com/base"}"#)
        #expect(!secret.contains("AKIAEXAMPLE") && !secret.contains("wJalrXUtnFEMI"), "\(secret)")
        #expect(secret.contains("\"https://…@s3.example.com/base\" is not allowed") && secret.contains("AWS_SECRET_ACCESS_KEY"), "\(secret)")
        #expect(try failure(#"sync: {endpoint: "http://:only-a-password@store:8333"}"#).contains("\"http://…@store:8333\""))
    }

    @Test("The print keys: a queue or a printer's address, the paper, the guests' limits, the print button")
    func printKeys() throws {
        let configuration = try load(
            """
            print: {printer: Booth_2, media: 2x6, copies: 2, auto: true, margin_mm: 0, resume_queue: true, guests: true,
                    max_per_picture: 2, max_total: 300}
            gpio: {print_line: GPIO5}
            """)
        let printing = configuration.printing
        #expect(printing.printer == "Booth_2" && printing.media.name == "2x6" && printing.copies == 2 && printing.auto)
        #expect(printing.marginMillimetres == 0 && printing.resumeQueue && printing.guests)
        #expect(printing.limits == PrintLimits(perPicture: 2, total: 300))
        #expect(configuration.devices.printButton?.line == configuration.hardware.printLine && configuration.hardware.printLine != nil)
        let settings = try #require(PrintSettings(printing))
        #expect(settings.queue == "Booth_2" && settings.device == nil && settings.margin == 0)
        // A printer's address: the booth's own queue, pointed there.
        let address = try #require(PrintSettings(try load("print: {printer: \"ipp://printer.local:631/ipp/print\"}").printing))
        #expect(address.queue == PrintConfiguration.boothQueue && address.device == "ipp://printer.local:631/ipp/print")
        for bad in ["\"Booth 2\"", "\"ipp://\"", "\"ipp://user:secret@printer.local/ipp/print\"", "\"http://printer.local/\""] {
            let refused = try error("print: {printer: \(bad)}")
            #expect(refused.code == .notAllowed && refused.key == "print.printer", "\(bad): \(refused)")
        }
        #expect(try error("print: {max_per_picture: 0}").key == "print.max_per_picture")
        // Without a printer there is no print button to open.
        #expect(try load("gpio: {print_line: GPIO5}").devices.printButton == nil)
    }

    @Test("Every key sets what it names")
    func keys() throws {
        let configuration = try load(
            """
            data_dir: /srv/photos
            camera: {device: /dev/video2, size: 640x480, fps: 25, format: yuyv}
            shutter: {chip: "1", line: 4, polarity: active-high, bias: pull-down, debounce_ms: 50}
            led: {line: GPIO27, polarity: active-low}
            keypad: {device: /dev/ttyS1, baud: 115200, layout: phone, echo: ansi, multi_tap_ms: 800}
            screen: {device: /dev/fb1, preview_fps: 10}
            booth: {countdown_seconds: 5, naming_timeout_seconds: 12.5}
            """)
        #expect(configuration.dataDirectory.path == "/srv/photos")
        let hardware = configuration.hardware
        #expect(hardware.camera == V4L2Camera.Settings(device: "/dev/video2", width: 640, height: 480, framesPerSecond: 25, format: .yuyv))
        #expect(hardware.shutter == GPIOButton.Settings(chip: "1", line: .offset(4), activeLow: false, bias: .pullDown, debounce: .milliseconds(50)))
        #expect(hardware.light == StatusLight.Settings(chip: "1", line: .name("GPIO27"), activeLow: true), "on the shutter's chip")
        let keys = configuration.settings.keys
        #expect(keys.layout == .phone && keys.viewKey == "0", "the phone layout's view key")
        #expect(hardware.keypad.baud == 115200 && hardware.keypad.ansi && keys.multiTapTimeout == .milliseconds(800))
        #expect(hardware.screen.device == "/dev/fb1" && hardware.screen.previewFramesPerSecond == 10)
        #expect(configuration.settings.countdown == .seconds(5) && configuration.settings.nameTimeout == .milliseconds(12_500))
    }

    @Test("The web gallery's keys: address, port, public address, admin token, name and date format")
    func webKeys() throws {
        let configuration = try load(
            #"""
            booth: {name: Anna & Ben}
            gallery: {date_format: "dd.MM.yyyy HH:mm", timeout_seconds: 20}
            http: {enabled: false, address: 127.0.0.1, port: 8181, public_url: "http://booth.local:8181/", admin_token: 0123456789abcdef}
            """#)
        let web = configuration.web
        #expect(!web.enabled && web.address == "127.0.0.1" && web.port == 8181)
        #expect(web.publicURL == "http://booth.local:8181", "without the trailing slash")
        #expect(web.adminToken == "0123456789abcdef" && web.boothName == "Anna & Ben")
        #expect(configuration.settings.galleryTimeout == .seconds(20))
        #expect(configuration.dateFormat.string(from: Date(timeIntervalSince1970: 0), timeZone: .gmt) == "01.01.1970 00:00")
        #expect(try failure("http: {admin_token: short}").contains("at least 16 characters"))
        #expect(try error("http: {public_url: booth.local}").key == "http.public_url")
        #expect(try failure("http: {port: 0}").contains("1 to 65535"))
        let pattern = try error("gallery: {date_format: \"'Taken'\"}")
        #expect(pattern.code == .notAllowed && pattern.key == "gallery.date_format", "a pattern with no date in it")
        #expect(try load("http: {public_url: auto, admin_token: none}").web == WebConfiguration())
        let guests = try load(#"{booth: {welcome: "Find your photos by name!"}, http: {guest_delete_hours: 0}}"#).web
        #expect(guests.welcome == "Find your photos by name!" && guests.guestDeleteHours == 0)
        #expect(WebConfiguration().guestDeleteHours == 24 && WebConfiguration().welcome.isEmpty)
        #expect(try failure("http: {guest_delete_hours: 9000}").contains("0 to 8760"))
    }

    @Test("Keys apply whatever their order: the light's chip and the view key are resolved at the end")
    func order() throws {
        let late = try load("led: {polarity: active-low, line: 5}\nshutter: {chip: gpiochip1}\nkeypad: {view_key: x, layout: phone}")
        #expect(late.hardware.light == StatusLight.Settings(chip: "gpiochip1", line: .offset(5), activeLow: true))
        #expect(late.settings.keys.viewKey == "x")
        let own = try load("led: {chip: gpiochip2, line: GPIO27}")
        #expect(own.hardware.light?.chip == "gpiochip2")
        #expect(try load("led: {line: none}").hardware.light == nil)
    }

    @Test("A wrong value names the file, line, key and what is allowed")
    func wrongValue() throws {
        let message = try failure("camera:\n  device: /dev/video0\n  format: mjpg\n")
        #expect(message.contains(".yaml:3: camera.format: \"mjpg\" is not allowed; use auto, mjpeg, yuyv, converted"))
        #expect(try failure("keypad: {baud: 9601}").contains("keypad.baud: \"9601\" is not allowed; use 1200, 2400"))
        #expect(try failure("camera: {size: big}").contains("WIDTHxHEIGHT"))
        #expect(
            try failure("screen: {device: card1}").contains(
                "screen.device: \"card1\" is not allowed; use auto, or an absolute path such as /dev/dri/card1 or /dev/fb0"))
        #expect(try load("screen: {device: auto}").hardware.screen.device == "auto")
        #expect(try failure("camera: {device: video0}").contains("use an absolute path such as /dev/video0, or libcamera:0"))
        #expect(try load("camera: {device: \"libcamera:0\"}").hardware.camera.device == "libcamera:0")
    }

    @Test("An unknown key or section is refused with the keys there are")
    func unknownKey() throws {
        let key = try error("camera:\n  devise: /dev/video0\n")
        #expect(key.code == .unknownKey && key.key == "camera.devise")
        #expect(key.description.contains(":2: unknown key \"camera.devise\"; camera has camera.device, camera.size"))
        let section = try error("kamera: {}")
        #expect(section.code == .unknownKey && section.key == "kamera")
        #expect(section.description.contains("unknown key \"kamera\"; the file has booth, camera"))
        #expect(try error("camera: [/dev/video0]").code == .notAMapping)
    }

    @Test("Values are read strictly: no near-misses, hexadecimal floats, signs or host names")
    func strictValues() throws {
        for text in [
            "camera: {size: 1280xx720}", "camera: {size: x720}", "camera: {size: 1280x720x3}", "camera: {fps: +30}",
            "http: {address: 999.1.1.1}", "http: {address: not-an-address!!}", "http: {address: localhost}",
            "http: {address: 10.0.0}", "booth: {countdown_seconds: 0x1p2}", "booth: {countdown_seconds: 1e1}",
            "booth: {countdown_seconds: inf}", "booth: {countdown_seconds: -1}", "keypad: {baud: +9600}",
        ] {
            #expect(try error(text).code == .notAllowed, "\(text)")
        }
        #expect(try failure("http: {address: 999.1.1.1}").contains(".yaml:1: http.address: \"999.1.1.1\" is not allowed; use an IP address"))
        #expect(try load("camera: {size: 640X480}").hardware.camera.width == 640)
        #expect(try load("booth: {countdown_seconds: 2.5}").settings.countdown == .milliseconds(2500))
        for address in ["0.0.0.0", "127.0.0.1", "::", "::1", "fe80::1"] {
            #expect(try load("http: {address: \"\(address)\"}").web.address == address)
        }
    }

    @Test("A file or section with no settings keeps the defaults, whichever way it says nothing; a key must have a value")
    func nothingSet() throws {
        for text in ["", "~", "null", "# only a comment\n", "camera:\n  # device: /dev/video0\n", "camera: ~\nbooth:\n"] {
            let configuration = try load(text)
            #expect(configuration.hardware == HardwareConfiguration() && configuration.settings == BoothSettings(), "\(text)")
        }
        #expect(try failure("camera:\n  device:\n").contains(".yaml:2: camera.device has no value"))
        let noValue = try error("camera: {device: ~}")
        #expect(noValue.code == .noValue && noValue.key == "camera.device")
    }

    @Test("A file that is not UTF-8 is refused with the line of the first bad byte")
    func notUTF8() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("photobooth-\(UUID()).yaml")
        try Data("camera:\n  device: /dev/video0\nbooth:\n  name: Caf\u{E9} \u{263A}\n".utf8.map { $0 } + [0xE9, 0x0A]).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var configuration = BoothConfiguration(dataDirectory: URL(fileURLWithPath: "/tmp/booth"), simulate: false)
        let error = #expect(throws: ConfigurationError.self) { try configuration.apply(file: file.path) }
        #expect(error?.code == .notUTF8)
        #expect(error?.description.hasSuffix(".yaml:5: the file is not UTF-8 text (byte 56 is not); save it as UTF-8.") == true)
    }

    @Test("doctor's web check binds the address and port, and says why it cannot")
    func webAddressCheck() throws {
        #expect(try Doctor.checkWebAddress("127.0.0.1", port: 0).contains("can listen on 127.0.0.1"))
        // An address of no interface here (TEST-NET-1, RFC 5737).
        do {
            _ = try Doctor.checkWebAddress("192.0.2.1", port: 8080)
            Issue.record("an address of no interface passed")
        } catch {
            #expect("\(error)" == "192.0.2.1 is not an address of this machine.")
        }
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                _ = bind(listener, $0, length)
                _ = getsockname(listener, $0, &length)
            }
        }
        #expect(listen(listener, 1) == 0)
        let port = Int(UInt16(bigEndian: address.sin_port))
        do {
            _ = try Doctor.checkWebAddress("127.0.0.1", port: port)
            Issue.record("a taken port passed")
        } catch {
            #expect("\(error)" == "port \(port) on 127.0.0.1 is in use by another program.")
        }
    }

    @Test("Broken YAML is refused with the parser's message")
    func brokenYAML() throws {
        let broken = try error("camera: [unclosed")
        #expect(broken.code == .notYAML && broken.description.contains("not valid YAML"))
    }

    @Test("An option's value sets what the same value of the file's key sets")
    func override() throws {
        var configuration = BoothConfiguration(dataDirectory: URL(fileURLWithPath: "/tmp/booth"), simulate: false)
        configuration.set(.cameraDevice, to: try Setting.cameraDevice.parse("/dev/video7"))
        configuration.set(.cameraSize, to: try Setting.cameraSize.parse("640x480"))
        configuration.set(.shutterPolarity, to: try Setting.shutterPolarity.parse("active-high"))
        configuration.set(.countdown, to: try Setting.countdown.parse("2.5"))
        configuration.set(.lightLine, to: try Setting.lightLine.parse("GPIO27"))
        configuration.set(.httpPublicURL, to: try Setting.httpPublicURL.parse("http://booth.local:8181/"))
        let file = try load(
            """
            camera: {device: /dev/video7, size: 640x480}
            shutter: {polarity: active-high}
            booth: {countdown_seconds: 2.5}
            led: {line: GPIO27}
            http: {public_url: "http://booth.local:8181/"}
            """)
        #expect(configuration.hardware == file.hardware && configuration.settings == file.settings && configuration.web == file.web)
    }

    @Test("A wrong value gets the same message from the setting's parse, which its option uses, as from the file")
    func sameMessage() throws {
        func expectSameMessage<Value>(_ setting: Setting<Value>, _ value: String) throws {
            let error = #expect(throws: SettingValueError.self) { try setting.parse(value) }
            let message = try #require(error).description
            #expect(message == "\"\(value)\" is not allowed; use \(setting.allowed).")
            let parts = setting.name.split(separator: ".")
            #expect(try failure("\(parts[0]): {\(parts[1]): \"\(value)\"}").hasSuffix(".yaml:1: \(setting.name): \(message)"))
        }
        try expectSameMessage(.cameraSize, "big")
        try expectSameMessage(.cameraFrameRate, "121")
        try expectSameMessage(.shutterPolarity, "low")
        try expectSameMessage(.shutterBias, "up")
        try expectSameMessage(.shutterDebounce, "1001")
        try expectSameMessage(.keypadBaud, "9601")
        try expectSameMessage(.keypadLayout, "qwerty")
        try expectSameMessage(.countdown, "0x1p2")
        try expectSameMessage(.namingTimeout, "0.05")
        try expectSameMessage(.httpAddress, "localhost")
        try expectSameMessage(.httpPort, "65536")
        try expectSameMessage(.httpPublicURL, "booth.local")
        try expectSameMessage(.syncEndpoint, "ftp://store")
        try expectSameMessage(.storageReserve, "+5")
        try expectSameMessage(.shutterChip, "")
        #expect(throws: SettingValueError(value: "low", allowed: "active-low or active-high")) {
            try Setting.shutterPolarity.parse("low")
        }
    }

    /// Whether each of `texts` reads as a value that is spelled so that it reads back as itself.
    func expectRoundTrips<Value: Equatable>(_ setting: Setting<Value>, _ texts: String...) throws {
        for text in texts {
            let value = try setting.parse(text)
            #expect(try setting.parse(value.settingText) == value, "\(setting.name): \(text) is written \(value.settingText)")
        }
    }

    @Test("Typed values round-trip: each is written as text that reads back as the same value")
    func roundTrips() throws {
        try expectRoundTrips(.cameraSize, "1280x720", "640X480", "16x8192")
        try expectRoundTrips(.cameraFrameRate, "1", "30", "120")
        try expectRoundTrips(.cameraFormat, "auto", "mjpeg", "yuyv", "converted")
        try expectRoundTrips(.language, "en", "fr", "DE")
        try expectRoundTrips(.shutterLine, "17", "GPIO17", "+4")
        try expectRoundTrips(.shutterPolarity, "active-low", "active-high")
        try expectRoundTrips(.shutterBias, "pull-up", "pull-down", "disabled", "as-is")
        try expectRoundTrips(.shutterDebounce, "0", "30", "1000")
        try expectRoundTrips(.lightLine, "none", "27", "GPIO27")
        try expectRoundTrips(.keypadBaud, "1200", "9600", "230400")
        try expectRoundTrips(.keypadLayout, "keyboard", "phone")
        try expectRoundTrips(.keypadEcho, "plain", "ansi")
        try expectRoundTrips(.keypadMultiTap, "200", "5000")
        try expectRoundTrips(.countdown, "0", "2.5", "60", "0.000000001", "00.100")
        try expectRoundTrips(.namingTimeout, "0.1", "12.345678901", "3600")
        try expectRoundTrips(.syncInterval, "1", "1.5", "3600")
        try expectRoundTrips(.galleryDateFormat, "dd.MM.yyyy HH:mm", "'Taken on' dd/MM/yyyy 'at' HH'h'mm")
        try expectRoundTrips(.storageReserve, "1", "64", "1000000")
        try expectRoundTrips(.httpEnabled, "true", "no", "ON")
        try expectRoundTrips(.httpAddress, "0.0.0.0", "127.0.0.1", "::", "fe80::1")
        try expectRoundTrips(.httpPort, "1", "8080", "65535")
        try expectRoundTrips(.httpPublicURL, "auto", "http://booth.local:8080", "https://photos.example.com/anna/")
        try expectRoundTrips(.httpAdminToken, "none", "0123456789abcdef")
        try expectRoundTrips(.syncEndpoint, "https://s3.eu-central-1.amazonaws.com", "http://127.0.0.1:8333")
        try expectRoundTrips(.syncBucket, "anna-photos")
        // The value each writes, where it is not the text read.
        #expect(try Setting.cameraSize.parse("640X480").settingText == "640x480")
        #expect(try Setting.countdown.parse("00.100").settingText == "0.1")
        #expect(try Setting.countdown.parse("0.000000001").settingText == "0.000000001", "no exponent")
        #expect(try Setting.httpPublicURL.parse("http://booth.local:8080/").settingText == "http://booth.local:8080")
        #expect(try Setting.httpEnabled.parse("ON").settingText == "true")
    }

    @Test("screen.contrast and screen.text_size set the screen's theme; another word is refused with the two allowed")
    func screenTheme() throws {
        let theme = try load("screen:\n  contrast: high\n  text_size: large\n").hardware.screen.theme
        #expect(theme == ScreenTheme(contrast: .high, textSize: .large))
        #expect(try load("screen: {contrast: normal}").hardware.screen.theme == .standard)
        #expect(try failure("screen: {contrast: bright}").contains("screen.contrast: \"bright\" is not allowed; use normal or high"))
        #expect(try failure("screen: {text_size: huge}").contains("screen.text_size: \"huge\" is not allowed; use normal or large"))
    }

    @Test("Every key of the file is a setting, named once, in its section")
    func keyNames() {
        let names = ConfigurationKey.all.map(\.name)
        #expect(Set(names).count == names.count, "\(names)")
        #expect(names.allSatisfy { $0 == "data_dir" || $0.wholeMatch(of: /[a-z]+\.[a-z_]+/) != nil }, "\(names)")
    }

    @Test("Pictures' settings: every mode, the frames of an animation, the modes' keys, and room kept for the longest sequence")
    func pictureSettings() throws {
        let single = try load("camera:\n  size: 1920x1080\n")
        let shot = Int64(1920 * 1080 / 2 + 8_192)
        #expect(single.sequenceBytes == shot)
        let configuration = try load(
            "camera:\n  size: 1920x1080\nbooth:\n  mode: boomerang\n  animation_frames: 12\nkeypad:\n  collage_key: c\n  animation_key: a\n")
        #expect(configuration.settings.modes.standard == .boomerang && configuration.settings.modes.animationFrames == 12)
        #expect(configuration.settings.keys.modeKeys == ["c": .collage, "a": .animation])
        #expect(configuration.sequenceBytes == shot * 24, "twelve frames and the animation as much again")
        #expect(try error("booth:\n  animation_frames: 1\n").description.contains("booth.animation_frames"))
        #expect(try error("booth:\n  mode: video\n").description.contains("single, collage, animation or boomerang"))
    }
}
