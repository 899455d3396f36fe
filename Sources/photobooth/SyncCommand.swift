import ArgumentParser
import BoothCore
import BoothStore
import Foundation

struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "The event's bucket: what waits to be uploaded, and how the sync goes.",
        subcommands: [SyncStatusCommand.self])
}

struct SyncStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the photos waiting for the event's bucket, the last success and the last error.",
        discussion: """
            Reads the library's catalog (the booth may be running): how many photos taken, renamed, \
            hidden or deleted here the bucket does not have yet, how long the oldest has waited, \
            when the store last confirmed an upload or a listing, and the last error with what to \
            do. Nothing is lost while it fails: the photos wait in the outbox and go up once the \
            store takes them.

            EXIT STATUS
              0  Nothing is failing (photos may be on their way).
              1  The last attempt failed, or the library cannot be read.
              2  Bad usage.

            EXAMPLE
                sudo photobooth sync status
            """)

    @OptionGroup var library: LibraryOptions

    @Flag(help: "Print the status as JSON.")
    var json = false

    func run() throws {
        let library = try library.openLibrary()
        let summary = try library.outbox.summary()
        let state = try library.outbox.state()
        let lastSuccess = state.lastUpload?.utcTimestamp
        let lastListing = state.lastListing?.utcTimestamp
        let lastError = state.failure?.message
        let lastErrorAt = state.failure?.time?.utcTimestamp
        let oldestAge = summary.oldest.map { max(0, Int(Date().timeIntervalSince($0))) }
        if json {
            var object: [String: Any] = ["pending": summary.pending, "failing": lastError != nil]
            object["oldest_pending_seconds"] = oldestAge
            object["last_success"] = lastSuccess
            object["last_listing"] = lastListing
            object["last_error"] = lastError
            object["last_error_at"] = lastErrorAt
            let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            print(String(decoding: data, as: UTF8.self))
        } else {
            if summary.pending == 0 {
                print("Nothing waits: the bucket has every photo taken here.")
            } else {
                let age = oldestAge.map { " (the oldest for \(Self.duration($0)))" } ?? ""
                print("\(summary.pending) photo\(summary.pending == 1 ? "" : "s") waiting for the bucket\(age).")
            }
            print("Last upload: \(lastSuccess ?? "never").")
            print("Last look at the event's other booths: \(lastListing ?? "never").")
            if let lastError {
                print("Failing since \(lastErrorAt ?? "?"): \(lastError)")
            }
        }
        if lastError != nil { throw ExitCode.failure }
    }

    /// `95` as "1 min 35 s".
    static func duration(_ seconds: Int) -> String {
        switch seconds {
        case ..<60: "\(seconds) s"
        case ..<3600: "\(seconds / 60) min \(seconds % 60) s"
        default: "\(seconds / 3600) h \(seconds / 60 % 60) min"
        }
    }
}
