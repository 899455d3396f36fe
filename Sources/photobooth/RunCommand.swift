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

    @OptionGroup var hardware: HardwareOptions

    @Option(help: ArgumentHelp("The lowest level of log lines on standard error.", valueName: "level"))
    var logLevel = LogLevel(argument: "info")!

    func run() async throws {
        startLogging(at: logLevel.level)
        let configuration = try hardware.configuration(
            dataDirectory: library.directory, explicitDataDirectory: library.dataDirectory != nil, simulate: simulate)
        try await Booth.run(configuration, logger: Logger(label: "photobooth"))
    }
}
