import ArgumentParser
import BoothCore
import BoothService
import Foundation
import Logging

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the booth.",
        discussion: """
            With --simulate the booth runs on any Linux machine: a test-pattern camera, the terminal as \
            shutter button and keypad (Enter takes a photo; type a name and Enter to name it; Escape then \
            Enter keeps the default name), and the screen printed as lines. Input may be piped: each line \
            waits until the booth waits for one, and at the end of input the booth finishes its saves and \
            exits 0.
            """)

    @OptionGroup var library: LibraryOptions

    @Flag(help: "Run on simulated hardware (test-pattern camera, terminal as button, keypad and screen).")
    var simulate = false

    @Option(help: ArgumentHelp("Seconds from the button press to the shot.", valueName: "seconds"))
    var countdown: Double = 3

    @Option(help: ArgumentHelp("Seconds without a key before the name entry ends with the default name.", valueName: "seconds"))
    var nameTimeout: Double = 30

    @Option(help: ArgumentHelp("The lowest level of log lines on standard error.", valueName: "level"))
    var logLevel = LogLevel(argument: "info")!

    func validate() throws {
        guard countdown.isFinite, (0...60).contains(countdown) else {
            throw ValidationError("--countdown must be between 0 and 60 seconds.")
        }
        guard nameTimeout.isFinite, (0.1...3600).contains(nameTimeout) else {
            throw ValidationError("--name-timeout must be between 0.1 and 3600 seconds.")
        }
    }

    func run() async throws {
        startLogging(at: logLevel.level)
        let settings = BoothSettings(countdown: .seconds(countdown), nameTimeout: .seconds(nameTimeout))
        try await Booth.run(
            BoothConfiguration(dataDirectory: library.directory, settings: settings, simulate: simulate),
            logger: Logger(label: "photobooth"))
    }
}
