import ArgumentParser
import BoothService
import Foundation
import Logging

struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the camera, button, light, keypad, screen and data folder for real.",
        discussion: """
            Prints one line per check, PASS or FAIL, and for each failure what to do. Uses the same \
            configuration file and options as `run`. Stop the booth first: a running booth holds the \
            devices. Exit code 0 only when every check passes.
            """)

    @OptionGroup var library: LibraryOptions
    @OptionGroup var hardware: HardwareOptions

    func run() async throws {
        startLogging(at: .warning)
        let configuration = try hardware.configuration(
            dataDirectory: library.directory, explicitDataDirectory: library.dataDirectory != nil, simulate: false)
        let logger = Logger(label: "photobooth")
        // The checks block on devices: a thread of their own, not the cooperative pool.
        let checks = await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: Doctor.checks(configuration, logger: logger)) }.start()
        }
        for check in checks { print(check.line) }
        let failed = checks.filter { !$0.passed }.count
        print(failed == 0 ? "All \(checks.count) checks passed." : "\(failed) of \(checks.count) checks failed.")
        if failed > 0 { throw ExitCode(1) }
    }
}
