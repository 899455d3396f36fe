import ArgumentParser
import BoothImaging
import BoothService
import BoothStore
import Foundation
import Logging

/// The options every command that works on the photo library takes.
struct LibraryOptions: ParsableArguments {
    @Option(
        name: .customLong("data-dir"),
        help: ArgumentHelp(
            "The photo library's folder.",
            discussion: "Default: ~/.local/share/photobooth ($XDG_DATA_HOME/photobooth), or /var/lib/photobooth as root.",
            valueName: "dir"),
        completion: .directory)
    var dataDirectory: String?

    /// The library folder, as given or by default.
    var directory: URL {
        dataDirectory.map { URL(fileURLWithPath: $0) } ?? LibraryLocation.defaultDirectory()
    }

    /// Opens the existing library; a missing one is an error that says where it looked.
    func openLibrary() throws -> PhotoLibrary {
        try PhotoLibrary(
            directory: directory, thumbnailer: JPEGThumbnailer(), logger: Logger(label: "photobooth"), create: false)
    }
}

/// A log level on the command line.
struct LogLevel: ExpressibleByArgument {
    let level: Logger.Level

    init?(argument: String) {
        guard let level = Logger.Level(rawValue: argument.lowercased()) else { return nil }
        self.level = level
    }

    static var allValueStrings: [String] { Logger.Level.allCases.map(\.rawValue) }
    var defaultValueDescription: String { level.rawValue }
}

/// Sends log lines to standard error at `level` and above: with their priority and without a
/// time when standard error is systemd's journal, with a time otherwise.
func startLogging(at level: Logger.Level) {
    let journal = JournalLogHandler.standardErrorIsJournal()
    LoggingSystem.bootstrap { label in
        var handler: any LogHandler = journal ? JournalLogHandler() : StreamLogHandler.standardError(label: label)
        handler.logLevel = level
        return handler
    }
}
