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
            discussion: """
                Default: for list, show, export and check, data_dir in /etc/photobooth/photobooth.yaml when set; \
                otherwise $STATE_DIRECTORY (the service), /var/lib/photobooth as root, else \
                $XDG_DATA_HOME/photobooth or ~/.local/share/photobooth.
                """,
            valueName: "dir"),
        completion: .directory)
    var dataDirectory: String?

    /// The library folder, as given or by default.
    var directory: URL {
        dataDirectory.map { URL(fileURLWithPath: $0) } ?? LibraryLocation.defaultDirectory()
    }

    /// The library the operator's commands (list, show, export, check) work on: as given, else
    /// the one the installed booth's configuration names (`data_dir` in
    /// /etc/photobooth/photobooth.yaml), else the default.
    var existingDirectory: URL {
        guard dataDirectory == nil, let installed = installedConfiguration else { return directory }
        return installed.dataDirectory
    }

    /// The installed booth's configuration (/etc/photobooth/photobooth.yaml), when it reads.
    var installedConfiguration: BoothConfiguration? {
        guard FileManager.default.fileExists(atPath: BoothConfiguration.defaultFile) else { return nil }
        var configuration = BoothConfiguration(dataDirectory: directory, simulate: false)
        return (try? configuration.apply(file: BoothConfiguration.defaultFile)) != nil ? configuration : nil
    }

    /// Opens the existing library (in `folder`, else ``existingDirectory``); a
    /// missing one is an error that says where it looked.
    func openLibrary(at folder: URL? = nil) throws -> PhotoLibrary {
        try PhotoLibrary(
            directory: folder ?? existingDirectory, thumbnailer: JPEGThumbnailer(), logger: Logger(label: "photobooth"),
            create: false)
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
