import BoothCore
import BoothDevices
import BoothPrint
import BoothStore
import BoothSync
import Foundation
import Logging

/// `photobooth doctor`: tries each configured part for real and says what to do about each one
/// that does not work.
package enum Doctor {
    /// One check's outcome.
    package struct Check: Sendable {
        package let part: String
        package let passed: Bool
        /// What was found.
        package let detail: String
        /// What to do when it failed.
        package let fix: String?

        /// "PASS camera: ..." or "FAIL camera: ... Fix: ...".
        package var line: String {
            let fixText = fix.map { " Fix: \($0)" } ?? ""
            return "\(passed ? "PASS" : "FAIL") \(part): \(detail)\(fixText)"
        }
    }

    /// Runs every check, in the order a builder fixes things; blocking, so call it off the
    /// cooperative pool (the command line does).
    package static func checks(_ configuration: BoothConfiguration, logger: Logger) -> [Check] {
        let hardware = configuration.hardware
        var checks: [Check] = []
        func run(_ part: String, fix: String, _ body: () throws -> String) {
            do {
                checks.append(Check(part: part, passed: true, detail: try body(), fix: nil))
            } catch {
                checks.append(Check(part: part, passed: false, detail: "\(error)", fix: fix))
            }
        }

        let cameraFix =
            "plug the camera in and check `ls -l /dev/photobooth/ /dev/video*` (the booth's udev rules name a UVC webcam /dev/photobooth/camera; hardware.md says how to pick another); set camera.device (--camera) to its capture node, or to libcamera:0 for a Raspberry Pi camera module (`cam -l` lists them); the user needs the video group."
        var formats: String?
        let libcameraCamera = LibcameraCamera(settings: hardware.camera, logger: logger)
        // libcamera's cameras (the Pi's camera modules), whichever camera is configured: what
        // camera.device may name.
        let listed = Result { () throws(DeviceError) in try LibcameraCamera.list() }
        if case .success(let cameras) = listed, !cameras.isEmpty || libcameraCamera != nil {
            let lines = cameras.map { camera in
                "\(camera.name) \"\(camera.id)\"\(camera.model.map { " (\($0))" } ?? ""): \(camera.modes.joined(separator: ", "))"
            }
            checks.append(
                Check(part: "libcamera cameras", passed: true, detail: lines.isEmpty ? "none found." : lines.joined(separator: "; "), fix: nil))
        }
        if let libcameraCamera {
            run("camera", fix: cameraFix) {
                let cameras = try listed.get()
                let found: LibcameraCamera.Listing? =
                    switch libcameraCamera.choice {
                    case .index(let index): index < cameras.count ? cameras[index] : nil
                    case .id(let id): cameras.first { $0.id == id }
                    }
                guard let found else {
                    throw DoctorFailure("libcamera has no camera \(libcameraCamera.choice) (it finds \(cameras.count)).")
                }
                formats = found.modes.joined(separator: "; ")
                return "\(libcameraCamera.name) is \"\(found.id)\"\(found.model.map { " (\($0))" } ?? ""), through libcamera."
            }
        } else {
            run("camera", fix: cameraFix) {
                let inspection = try V4L2Camera.inspect(hardware.camera)
                let more = inspection.formats.count > 4 ? "; and \(inspection.formats.count - 4) more" : ""
                formats = inspection.formats.prefix(4).joined(separator: "; ") + more
                return "\(hardware.camera.device) is \(inspection.identity); the booth uses \(inspection.plan)."
            }
        }
        if let formats {
            checks.append(Check(part: "camera formats", passed: true, detail: formats, fix: nil))
            run(
                "camera frames",
                fix: "another program may hold the camera (`fuser \(hardware.camera.device)`), or choose another camera.size/camera.format."
            ) {
                let frame =
                    if let libcameraCamera {
                        try libcameraCamera.captureOneFrame(timeout: .seconds(10))
                    } else {
                        try V4L2Camera(settings: hardware.camera, logger: logger).captureOneFrame(timeout: .seconds(10))
                    }
                guard let frame else { throw DoctorFailure("no frame within 10 s in the chosen mode.") }
                let image = try frame.photoJPEG()
                return "delivered a \(frame.width)x\(frame.height) frame (\(image.count / 1024) KiB as a photo)."
            }
        }
        run(
            "shutter button",
            fix:
                "check `gpioinfo`; set shutter.chip (--gpio-chip) and shutter.line (--shutter-line) to the line the button is wired to, and stop any program that holds it."
        ) {
            "\(try GPIOButton.check(hardware.shutter)) exists and is free."
        }
        for (mode, button) in hardware.modeButtons {
            run(
                "\(mode.rawValue) button",
                fix:
                    "check `gpioinfo`; set shutter.\(mode.rawValue)_line to the line the \(mode.rawValue) button is wired to (another than the shutter's), or remove it."
            ) {
                "\(try GPIOButton.check(button)) exists and is free."
            }
        }
        if let button = configuration.devices.printButton {
            run(
                "print button",
                fix: "check `gpioinfo`; set gpio.print_line to the line the print button is wired to (another than the shutter's), or remove it."
            ) {
                "\(try GPIOButton.check(button)) exists and is free."
            }
        }
        if let light = hardware.light {
            run("status light", fix: "check `gpioinfo`; set led.line (--led-line) to the light's line, or none.") {
                "\(try StatusLight.check(light)) exists and is free."
            }
        }
        run(
            "keypad",
            fix:
                "plug the keypad in and check `ls -l /dev/photobooth/ /dev/ttyUSB* /dev/ttyACM* /dev/serial0` (the booth's udev rules name a USB keypad /dev/photobooth/keypad); set keypad.device (--keypad) and keypad.baud (--keypad-baud); the user needs the dialout group."
        ) {
            try SerialKeypad.check(hardware.keypad)
            return "\(hardware.keypad.device) opens at \(hardware.keypad.baud) baud, 8N1."
        }
        run(
            "screen",
            fix:
                "connect the screen before boot and check `ls -l /dev/dri/ /dev/fb*` and `ls /sys/class/drm/`; set screen.device (--screen) to auto, a card or /dev/fb0; the user needs the video group."
        ) {
            try DisplayScreen.check(device: hardware.screen.device)
        }
        run("font", fix: "install fonts-dejavu-core, or set screen.font to a TrueType file.") {
            let fonts = Set([hardware.screen.fonts.bold, hardware.screen.fonts.regular]).sorted()
            for font in fonts where !FileManager.default.isReadableFile(atPath: font) {
                throw DoctorFailure("\(font) is missing.")
            }
            return fonts.joined(separator: ", ")
        }
        checks.append(Check(part: "sound", passed: true, detail: BoothSpeaker.check(hardware.sound), fix: nil))
        if configuration.web.enabled {
            let web = configuration.web
            run(
                "web address",
                fix:
                    "set http.address (--http-address) to 0.0.0.0 or an address `ip -brief address` lists, and http.port (--http-port) to a port no other program listens on (`ss -ltnp` lists them), or turn the gallery off (http.enabled: false)."
            ) {
                try checkWebAddress(web.address, port: web.port)
            }
        }
        run(
            "data dir",
            fix:
                "create the folder and give the booth's user write access (set data_dir or --data-dir), or free some space (see above), or lower storage.reserve_mb."
        ) {
            try checkDataDirectory(configuration.dataDirectory, reserveBytes: configuration.storageReserveBytes)
        }
        if let settings = PrintSettings(configuration.printing) {
            do {
                _ = try configuration.printSettings()
            } catch {
                checks.append(Check(part: "print layout", passed: false, detail: "\(error)", fix: "correct print.layout (README.md, Printing)."))
            }
            do {
                checks.append(Check(part: "printer", passed: true, detail: try PrinterCheck.check(settings), fix: nil))
            } catch {
                let fix: String
                if case .fault(_, let faultFix) = error {
                    fix = faultFix
                } else {
                    fix = "set up the queue in CUPS (README.md, Printing) and name it in print.printer; print.server if CUPS is elsewhere."
                }
                checks.append(Check(part: "printer", passed: false, detail: error.description, fix: fix))
            }
        }
        checks += hotspotChecks(configuration)
        let exposed = SecretFiles.exposures(of: configuration)
        checks.append(
            Check(
                part: "secrets", passed: exposed.isEmpty,
                detail: exposed.isEmpty
                    ? "no file of the booth's secrets is open to other users."
                    : exposed.map(\.description).joined(separator: "; ") + ".",
                fix: exposed.isEmpty ? nil : exposed.map(\.fix).joined(separator: "; ") + "."))
        return checks
    }

    /// A test page on the configured printer, printed to its end.
    package static func printTestPage(_ configuration: BoothConfiguration) -> Check {
        let found: PrintSettings?
        do {
            found = try configuration.printSettings()
        } catch {
            return Check(part: "test page", passed: false, detail: "\(error)", fix: "correct print.layout (README.md, Printing).")
        }
        guard let settings = found else {
            return Check(part: "test page", passed: false, detail: "no printer is configured.", fix: "set print.printer.")
        }
        do {
            return Check(part: "test page", passed: true, detail: try PrinterCheck.printTestPage(settings), fix: nil)
        } catch {
            return Check(part: "test page", passed: false, detail: "\(error)", fix: "see the printer's check above, and `lpstat -l -p`.")
        }
    }

    /// The event's bucket, with a real request under the booth's own folder: a put, a list and
    /// a delete of a probe object, signed with the booth's credentials.
    package static func checkEventBucket(_ configuration: BoothConfiguration) async -> Check {
        switch await EventSync.probe(configuration.sync, boothName: configuration.web.boothName) {
        case .success(let detail):
            return Check(part: "event bucket", passed: true, detail: detail, fix: nil)
        case .failure(let error):
            return Check(
                part: "event bucket", passed: false, detail: error.description,
                fix: "check sync.endpoint, sync.bucket, sync.region and sync.path_style, and the credentials (docs/event-sync.md).")
        }
    }

    /// The library folder exists (or can be made), takes a file, and has more free space than
    /// the booth's reserve, as the running booth checks it before each photo.
    static func checkDataDirectory(_ directory: URL, reserveBytes: Int64) throws -> String {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let probe = directory.appendingPathComponent(".doctor-\(getpid())")
        guard FileManager.default.createFile(atPath: probe.path, contents: Data("probe".utf8)) else {
            let health = StorageHealth.check(directory, reserveBytes: reserveBytes)
            throw DoctorFailure(health.problem == nil ? "\(directory.path) is not writable." : health.description)
        }
        try FileManager.default.removeItem(at: probe)
        let health = StorageHealth.check(directory, reserveBytes: reserveBytes)
        guard health.problem == nil else { throw DoctorFailure(health.description) }
        return "\(directory.path) is writable: \(health)"
    }
}

extension Doctor {
    /// The web gallery can listen on `address`:`port`: a socket binds there as the server's
    /// does (with `SO_REUSEADDR`), and is closed at once. The corresponding C function is `bind`.
    static func checkWebAddress(_ address: String, port: Int) throws -> String {
        var storage = sockaddr_storage()
        let length: Int
        if withUnsafeMutableBytes(of: &storage, { inet_pton(AF_INET, address, $0.baseAddress! + 4) }) == 1 {
            storage.ss_family = sa_family_t(AF_INET)
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: UInt16(port).bigEndian, toByteOffset: 2, as: UInt16.self) }
            length = MemoryLayout<sockaddr_in>.size
        } else if withUnsafeMutableBytes(of: &storage, { inet_pton(AF_INET6, address, $0.baseAddress! + 8) }) == 1 {
            storage.ss_family = sa_family_t(AF_INET6)
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: UInt16(port).bigEndian, toByteOffset: 2, as: UInt16.self) }
            length = MemoryLayout<sockaddr_in6>.size
        } else {
            throw DoctorFailure("\(address) is not an IP address.")
        }
        let descriptor = socket(Int32(storage.ss_family), Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw DoctorFailure("cannot open a socket: \(String(cString: strerror(errno))).") }
        defer { close(descriptor) }
        var yes: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(length)) }
        }
        guard bound == 0 else {
            let code = errno
            switch code {
            case EADDRINUSE: throw DoctorFailure("port \(port) on \(address) is in use by another program.")
            case EADDRNOTAVAIL: throw DoctorFailure("\(address) is not an address of this machine.")
            case EACCES: throw DoctorFailure("port \(port) is below 1024, which only root may use.")
            default: throw DoctorFailure("cannot listen on \(address):\(port): \(String(cString: strerror(code))).")
            }
        }
        return "the gallery can listen on \(address):\(port)."
    }
}

/// A check that failed without a device error of its own.
struct DoctorFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
