import Logging
import Synchronization

/// The lines a test's logger was given, every level, to read back what the code under test said.
package final class RecordedLog: Sendable {
    private let lines = Mutex<[(level: Logger.Level, message: String)]>([])

    package init() {}

    /// A logger whose lines this keeps.
    package var logger: Logger { Logger(label: "test") { _ in Handler(log: self) } }

    /// Every line logged so far at `level` or above, oldest first.
    package func messages(atLeast level: Logger.Level = .trace) -> [String] {
        lines.withLock { $0.filter { $0.level >= level }.map(\.message) }
    }

    /// The level of every line logged so far, oldest first.
    package var levels: [Logger.Level] { lines.withLock { $0.map(\.level) } }

    private struct Handler: LogHandler {
        let log: RecordedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            log.lines.withLock { $0.append((event.level, event.message.description)) }
        }
    }
}
