import ArgumentParser
import BoothService
import BoothSystem
import Foundation
import Logging

struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the camera, button, light, keypad, screen and data folder for real.",
        discussion: """
            Tries each part the configuration names: the camera (present, its formats, one frame \
            in the chosen mode), the shutter button's and the light's GPIO lines (they exist and \
            are free), the keypad (it opens at its speed), the screen (the framebuffer's mode), \
            the fonts, the web gallery's address and port (a socket binds there: the address is one \
            of this machine's and no other program listens on the port), and the data folder \
            (writable, with more free space than the booth's reserve, storage.reserve_mb), and, when \
            the booth syncs with an event's bucket, the bucket (a small object written, listed and \
            deleted under the booth's own folder, with the booth's credentials). Prints one \
            line per check, PASS or FAIL, and for each failure what to do. Uses the same \
            configuration file and options as `run`. Stop the booth first: a running booth holds \
            the devices.

            EXIT STATUS
              0  Every check passed.
              1  A check failed, or the configuration file is wrong.
              2  Bad usage, such as an unknown option or a wrong value.

            ON A BOOTH INSTALLED FROM THE PACKAGE
                sudo systemctl stop photobooth
                sudo photobooth doctor
                sudo systemctl start photobooth
              As root, doctor checks /var/lib/photobooth and may open every
              device; when the service cannot open one, `journalctl -u
              photobooth` says which.
            """)

    @OptionGroup var library: LibraryOptions
    @OptionGroup var hardware: HardwareOptions

    @Flag(help: "Also print a test page on the configured printer (print.printer) and wait for it.")
    var printTestPage = false

    func run() async throws {
        startLogging(at: .warning)
        let configuration = try hardware.configuration(
            dataDirectory: library.directory, explicitDataDirectory: library.dataDirectory != nil, simulate: false)
        let logger = Logger(label: "photobooth")
        // The checks block on devices: a thread of their own, not the cooperative pool.
        var checks = await DedicatedThread.run(name: "doctor") { Doctor.checks(configuration, logger: logger) }
        if configuration.sync.isEnabled {
            checks.append(await Doctor.checkEventBucket(configuration))
        }
        if printTestPage {
            checks.append(await DedicatedThread.run(name: "test page") { Doctor.printTestPage(configuration) })
        }
        for check in checks { print(check.line) }
        let failed = checks.filter { !$0.passed }.count
        print(failed == 0 ? "All \(checks.count) checks passed." : "\(failed) of \(checks.count) checks failed.")
        if failed > 0 { throw ExitCode(1) }
    }
}
