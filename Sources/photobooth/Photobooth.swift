import ArgumentParser
import Foundation
import Glibc

/// The `photobooth` command.
@main
struct Photobooth: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photobooth",
        abstract: "A photo booth: camera, shutter button, keypad and screen, and the library of its photos.",
        discussion: """
            Exit codes: 0 success, 1 a problem found or a failed operation, 2 bad usage.
            Start with `photobooth run --simulate` to try the booth on any Linux machine.
            """,
        version: "0.5.0",
        subcommands: [RunCommand.self, DoctorCommand.self, ListCommand.self, ShowCommand.self, ExportCommand.self, CheckCommand.self])

    /// Runs the command with the exit codes the booth documents: ArgumentParser's usage errors
    /// (64) become 2, and failures print a message without a stack trace.
    static func main() async {
        // A closed standard output (`photobooth list | head -1`) must be a write error, not a
        // signal that kills a booth in the middle of saving a photo.
        signal(SIGPIPE, SIG_IGN)
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code == .success {
                print(message)
                Glibc.exit(0)
            }
            if !message.isEmpty {
                FileHandle.standardError.write(Data("photobooth: \(message)\n".utf8))
            }
            Glibc.exit(code == .validationFailure ? 2 : code.rawValue)
        }
    }
}
