import BoothCore
import BoothSystem
import Foundation
import Logging
import SystemPackage

/// Log lines for systemd's journal. When standard error is the journal's stream (systemd names
/// its device and inode in `$JOURNAL_STREAM`), each line starts with its syslog priority, such
/// as `<3>` for an error: the journal keeps it as the line's priority (`journalctl -p err`,
/// colours, the console's copy) and strips it from the text. The journal stamps the time, so
/// the line has none.
package struct JournalLogHandler: LogHandler {
    package var logLevel: Logger.Level = .info
    package var metadata: Logger.Metadata = [:]
    private let write: @Sendable (String) -> Void

    /// A handler that hands each finished line (ending in a newline) to `write`.
    package init(write: @escaping @Sendable (String) -> Void = JournalLogHandler.writeToStandardError) {
        self.write = write
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Whether standard error goes to the journal: `$JOURNAL_STREAM` is `DEVICE:INODE` of the
    /// stream systemd connected, and it must still be standard error (a child whose standard
    /// error was redirected inherits the variable).
    package static func standardErrorIsJournal(
        environment: [String: String] = ProcessInfo.processInfo.environment, descriptor: Int32 = STDERR_FILENO
    ) -> Bool {
        guard let stream = environment["JOURNAL_STREAM"] else { return false }
        let parts = stream.split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return false }
        return UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
    }

    /// The syslog priority of a level (sd-daemon.h's `SD_ERR` and so on).
    static func priority(of level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    package func log(event: LogEvent) {
        var line = "<\(Self.priority(of: event.level))>\(event.message)"
        let merged = event.metadata.map { metadata.merging($0) { $1 } } ?? metadata
        if !merged.isEmpty {
            line += " " + merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        }
        // One line per entry: a message with newlines would otherwise become several entries,
        // the later ones without a priority.
        write(line.replacingOccurrences(of: "\n", with: " ") + "\n")
    }

    /// Each line in one `write(2)` (unless the kernel takes it in parts), so that lines from
    /// different threads do not interleave.
    package static let writeToStandardError: @Sendable (String) -> Void = { line in
        // A line the journal cannot take is lost: logging never stops the booth.
        _ = try? FileDescriptor.standardError.writeAll(line.utf8)
    }
}
