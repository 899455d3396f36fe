import ArgumentParser
import BoothCore
import BoothStore
import Foundation

struct PrintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "print",
        abstract: "Print pictures, and follow the print queue.",
        discussion: """
            `photobooth print ID` queues a picture for the booth's printer (print.printer); the \
            running booth sends it to CUPS within a second and follows it to its end. The queue is \
            in the library's catalog: a request is never lost, nor printed twice, whatever stops \
            the booth.
            """,
        subcommands: [PrintPhotoCommand.self, PrintStatusCommand.self, PrintCancelCommand.self, PrintRetryCommand.self],
        defaultSubcommand: PrintPhotoCommand.self)
}

struct PrintPhotoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photo",
        abstract: "Queue pictures for printing (the default: `photobooth print ID`).",
        discussion: """
            EXIT STATUS
              0  Every picture was queued.
              1  A picture was not found, or the library cannot be written.
              2  Bad usage.

            EXAMPLE
                sudo photobooth print 3f2a --copies 2
            """)

    @OptionGroup var library: LibraryOptions

    @Argument(help: ArgumentHelp("The pictures' ids, or unique prefixes of them.", valueName: "id"))
    var ids: [String]

    @Option(help: "The copies of each picture (1 to 10).")
    var copies = 1

    func validate() throws {
        guard (1...10).contains(copies) else { throw ValidationError("--copies takes 1 to 10, not \(copies).") }
    }

    func run() throws {
        let library = try library.openLibrary()
        var failed = 0
        for reference in ids {
            do {
                let photo = try library.gallery.photo(matching: reference)
                let request = try library.prints.request(photo.id, copies: copies, reason: .admin)
                print(
                    "\(photo.id.lowercased.prefix(8))  \(photo.caption.text): queued as print \(request.number) (\(copies) cop\(copies == 1 ? "y" : "ies"))"
                )
            } catch {
                failed += 1
                FileHandle.standardError.write(Data("photobooth: \(reference): \(error)\n".utf8))
            }
        }
        if failed > 0 { throw ExitCode.failure }
    }
}

struct PrintStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "List the print requests: pending, printing, done, failed, canceled.",
        discussion: """
            Reads the library's catalog (the booth may be running): each request, newest first, \
            with its picture, copies, why it was asked, where it is, CUPS's job number and what \
            CUPS or the printer last said of it.

            EXIT STATUS
              0  No request failed.
              1  A request failed, or the library cannot be read.
              2  Bad usage.

            EXAMPLE
                sudo photobooth print status --json
            """)

    @OptionGroup var library: LibraryOptions

    @Flag(help: "Print the status as JSON.")
    var json = false

    @Option(help: "The most requests listed, newest first.")
    var limit = 50

    func run() throws {
        let library = try library.openLibrary()
        let requests = try library.prints.recent(limit: max(1, limit))
        let counts = try library.prints.counts()
        if json {
            struct Request: Encodable {
                let number: Int
                let id: String
                let photo: String
                let copies: Int
                let reason: String
                let state: String
                let requestedAt: String
                let cupsJob: Int?
                let detail: String?
                let pages: Int
                let finishedAt: String?
            }
            struct Status: Encodable {
                let counts: [String: Int]
                let pagesPrinted: Int
                let requests: [Request]
            }
            // Ids in lower case and times in ISO 8601 UTC, as every other JSON of the booth.
            let status = Status(
                counts: Dictionary(uniqueKeysWithValues: counts.map { ($0.key.rawValue, $0.value) }),
                pagesPrinted: try library.prints.pagesPrinted(),
                requests: requests.map { request in
                    Request(
                        number: request.number, id: request.id.lowercased, photo: request.photo.lowercased, copies: request.copies,
                        reason: request.reason.rawValue, state: request.state.rawValue, requestedAt: request.requestedAt.utcTimestamp,
                        cupsJob: request.cupsJob, detail: request.detail, pages: request.pages, finishedAt: request.finishedAt?.utcTimestamp)
                })
            let encoder = JSONEncoder.booth(forPeople: true)
            print(String(decoding: try encoder.encode(status), as: UTF8.self))
        } else {
            let summary = PrintRequest.State.allCases.compactMap { state in counts[state].flatMap { $0 > 0 ? "\($0) \(state.rawValue)" : nil } }
            print(summary.isEmpty ? "No print was asked for." : summary.joined(separator: ", ") + ".")
            for request in requests {
                let job = request.cupsJob.map { " CUPS job \($0)" } ?? ""
                let detail = request.detail.map { ": \($0)" } ?? ""
                print(
                    "\(String(request.number).leftPadded(to: 5))  \(request.photo.lowercased.prefix(8))  \(request.copies)x  \(request.reason.rawValue.padded(to: 8)) \(request.state.rawValue.padded(to: 9))\(job)\(detail)"
                )
            }
        }
        if (counts[.failed] ?? 0) > 0 { throw ExitCode.failure }
    }
}

struct PrintCancelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel", abstract: "Cancel print requests by number (as `print status` lists them).")

    @OptionGroup var library: LibraryOptions

    @Argument(help: ArgumentHelp("The requests' numbers.", valueName: "number"))
    var numbers: [Int]

    func run() throws {
        let library = try library.openLibrary()
        var failed = 0
        for number in numbers {
            switch try library.prints.cancel(number) {
            case nil:
                failed += 1
                FileHandle.standardError.write(Data("photobooth: there is no print \(number).\n".utf8))
            case let request? where request.state == .canceled:
                print("Print \(number): canceled.")
            case let request? where request.state.isFinished:
                print("Print \(number): already \(request.state.rawValue).")
            case .some:
                print("Print \(number): CUPS has it; the running booth cancels it there.")
            }
        }
        if failed > 0 { throw ExitCode.failure }
    }
}

struct PrintRetryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retry", abstract: "Print failed or canceled requests again, as new requests.")

    @OptionGroup var library: LibraryOptions

    @Argument(help: ArgumentHelp("The requests' numbers.", valueName: "number"))
    var numbers: [Int]

    func run() throws {
        let library = try library.openLibrary()
        var failed = 0
        for number in numbers {
            if let request = try library.prints.retry(number) {
                print("Print \(number): queued again as print \(request.number).")
            } else {
                failed += 1
                FileHandle.standardError.write(Data("photobooth: print \(number) does not exist, or did not fail and was not canceled.\n".utf8))
            }
        }
        if failed > 0 { throw ExitCode.failure }
    }
}

extension String {
    fileprivate func padded(to width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
    fileprivate func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
