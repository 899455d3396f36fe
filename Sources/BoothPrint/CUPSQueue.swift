import BoothCore
import CCUPS
import Foundation

/// A print job as CUPS tells it.
package struct CUPSJob: Sendable, Hashable {
    /// IPP's `job-state`.
    package enum State: Int, Sendable, Hashable {
        case pending = 3
        case held = 4
        case processing = 5
        case stopped = 6
        case canceled = 7
        case aborted = 8
        case completed = 9

        /// Whether the job will not change any more.
        package var isFinal: Bool { rawValue >= State.canceled.rawValue }

        package var word: String {
            switch self {
            case .pending: "pending"
            case .held: "held"
            case .processing: "processing"
            case .stopped: "stopped"
            case .canceled: "canceled"
            case .aborted: "aborted"
            case .completed: "completed"
            }
        }
    }

    package let id: Int
    package let state: State
    /// `job-state-reasons`, as CUPS words them.
    package let reasons: [String]
    /// `job-printer-state-message`: what the printer last said while printing it.
    package let message: String
    /// Pages printed (`job-impressions-completed`), copies included.
    package let pages: Int
}

/// What a queue (or a printer, asked directly) says of itself.
package struct PrinterAttributes: Sendable, Hashable {
    /// IPP's `printer-state`: 3 idle, 4 processing, 5 stopped.
    package var state: Int
    /// `printer-state-reasons`, as the printer words them (`media-empty-error`, `paused`).
    package var reasons: [String]
    package var message: String
    package var acceptingJobs: Bool
    /// Where CUPS sends the queue's jobs (`ipp://printer.local/ipp/print`).
    package var deviceURI: String?
    /// The document formats the queue takes as they are (`image/jpeg`, `image/pwg-raster`).
    package var formats: [String]
    /// The resolution pages are made at, in dots per inch.
    package var resolution: Int?
}

/// A CUPS queue, reached through a connection to its server: the IPP operations the booth needs.
/// Every call blocks; they run on the print thread.
final class CUPSQueue {
    let name: String
    let connection: CUPSConnection
    /// The user every request is made as: CUPS shows a job's name only to its owner, and the
    /// booth finds its own jobs by owner after a restart.
    let user: String

    init(name: String, connection: CUPSConnection, user: String) {
        self.name = name
        self.connection = connection
        self.user = user
    }

    var resource: String { "/printers/\(name)" }
    var uri: String { "ipp://localhost/printers/\(name)" }

    static let jobAttributes = [
        "job-id", "job-uuid", "job-state", "job-state-reasons", "job-printer-state-message", "job-impressions-completed",
    ]

    /// Prints `document` in one request (IPP Print-Job): CUPS takes the whole document before it
    /// makes the job, so the job exists whole or not at all. `uuid` marks the job as the booth's
    /// request, so that a booth that stopped before it heard the job's number finds it again.
    func print(
        _ document: Data, format: String, uuid: UUID, title: String, copies: Int, media: PrintMedia?, borderless: Bool = false
    ) throws(PrintError) -> Int {
        let request = IPPMessage(IPP_OP_PRINT_JOB, user: user)
        request.add(.operation, .uri, "printer-uri", uri)
        request.add(.operation, .name, "job-name", title)
        request.add(.operation, .mimeType, "document-format", format)
        request.add(.job, .uri, "job-uuid", "urn:uuid:\(uuid.uuidString.lowercased())")
        if copies > 1 { request.add(.job, integer: "copies", copies) }
        if let media {
            // Borderless is a media-col with no margins; otherwise the paper's name is enough.
            if borderless {
                request.addBorderlessMedia(width: media.shortSide, length: media.longSide)
            } else {
                request.add(.job, .keyword, "media", media.pwgName)
            }
        }
        let answer = try connection.perform(request, resource: resource, document: document)
        guard let id = answer.integer("job-id") else {
            throw .refused(status: Int(answer.status.rawValue), message: "CUPS took the job but gave no job number")
        }
        return id
    }

    /// Job `id` of this queue; `nil` when CUPS does not know it.
    func job(_ id: Int) throws(PrintError) -> CUPSJob? {
        let request = IPPMessage(IPP_OP_GET_JOB_ATTRIBUTES, user: user)
        request.add(.operation, .uri, "job-uri", "ipp://localhost/jobs/\(id)")
        request.add(.operation, keywords: "requested-attributes", Self.jobAttributes)
        do {
            let answer = try connection.perform(request, resource: "/jobs")
            return Self.job(id: id, from: { answer.string($0) }, integer: { answer.integer($0) }, strings: { answer.strings($0) })
        } catch  where error.isNotFound {
            return nil
        }
    }

    /// The booth's job marked `uuid`, finished or not; `nil` when CUPS has none.
    func job(marked uuid: UUID) throws(PrintError) -> CUPSJob? {
        let request = IPPMessage(IPP_OP_GET_JOBS, user: user)
        request.add(.operation, .uri, "printer-uri", uri)
        request.add(.operation, .keyword, "which-jobs", "all")
        request.add(.operation, boolean: "my-jobs", true)
        request.add(.operation, keywords: "requested-attributes", Self.jobAttributes)
        let marker = "urn:uuid:\(uuid.uuidString.lowercased())"
        let answer: IPPMessage
        do {
            answer = try connection.perform(request, resource: resource)
        } catch  where error.isNotFound {
            // No job at all: CUPS says so with not-found.
            return nil
        }
        for group in answer.jobGroups() where group["job-uuid"] == marker {
            guard let id = group["job-id"].flatMap({ Int($0) }) else { continue }
            return Self.job(
                id: id, from: { group[$0] }, integer: { group[$0].flatMap { Int($0) } },
                strings: { group[$0]?.split(separator: ",").map(String.init) ?? [] })
        }
        return nil
    }

    private static func job(
        id: Int, from string: (String) -> String?, integer: (String) -> Int?, strings: (String) -> [String]
    ) -> CUPSJob? {
        guard let state = integer("job-state").flatMap(CUPSJob.State.init(rawValue:)) else { return nil }
        return CUPSJob(
            id: id, state: state, reasons: strings("job-state-reasons"), message: string("job-printer-state-message") ?? "",
            pages: integer("job-impressions-completed") ?? 0)
    }

    /// What the queue says of itself and its printer.
    func attributes() throws(PrintError) -> PrinterAttributes {
        try Self.attributes(of: uri, resource: resource, over: connection, user: user)
    }

    /// What the printer at `uri` says of itself, asked through `connection`.
    static func attributes(of uri: String, resource: String, over connection: CUPSConnection, user: String) throws(PrintError)
        -> PrinterAttributes
    {
        let request = IPPMessage(IPP_OP_GET_PRINTER_ATTRIBUTES, user: user)
        request.add(.operation, .uri, "printer-uri", uri)
        request.add(
            .operation, keywords: "requested-attributes",
            [
                "printer-state", "printer-state-reasons", "printer-state-message", "printer-is-accepting-jobs", "device-uri",
                "document-format-supported", "printer-resolution-default",
            ])
        let answer = try connection.perform(request, resource: resource)
        // An answer without the printer's state is not a printer's (another server answers at
        // that address): the printer is not there, rather than idle.
        guard let state = answer.integer("printer-state") else {
            connection.close()
            throw .unreachable("\(uri) answered without its state: nothing that prints is there.")
        }
        return PrinterAttributes(
            state: state, reasons: answer.strings("printer-state-reasons").filter { $0 != "none" },
            message: answer.string("printer-state-message") ?? "", acceptingJobs: answer.boolean("printer-is-accepting-jobs") ?? true,
            deviceURI: answer.string("device-uri"), formats: answer.strings("document-format-supported"),
            resolution: answer.resolution("printer-resolution-default").map { max($0.x, $0.y) })
    }

    /// Cancels job `id`; a job already finished stays as it ended.
    func cancel(_ id: Int) throws(PrintError) {
        let request = IPPMessage(IPP_OP_CANCEL_JOB, user: user)
        request.add(.operation, .uri, "job-uri", "ipp://localhost/jobs/\(id)")
        do {
            _ = try connection.perform(request, resource: "/jobs")
        } catch  where error.isNotFound {
        } catch {
            // "Not possible": the job finished meanwhile.
            if case .refused(let status, _) = error, status == Int(IPP_STATUS_ERROR_NOT_POSSIBLE.rawValue) { return }
            throw error
        }
    }

    /// Makes the queue, or points it again, at the IPP Everywhere printer `device`, as `lpadmin
    /// -p NAME -E -v DEVICE -m everywhere` does (CUPS-Add-Modify-Printer): CUPS asks the printer
    /// what it takes and makes its driver; the queue is started and takes jobs. CUPS lets only
    /// its administrators do it (the `lpadmin` group, over the local socket).
    func setUp(device: String) throws(PrintError) {
        let request = IPPMessage(IPP_OP_CUPS_ADD_MODIFY_PRINTER, user: user)
        request.add(.operation, .uri, "printer-uri", uri)
        request.add(.operation, .name, "ppd-name", "everywhere")
        request.add(.printer, .uri, "device-uri", device)
        request.add(.printer, .text, "printer-info", "Photobooth")
        request.add(.printer, enumeration: "printer-state", Int(IPP_PSTATE_IDLE.rawValue))
        request.add(.printer, boolean: "printer-is-accepting-jobs", true)
        _ = try connection.perform(request, resource: "/admin/")
    }

    /// Starts a stopped queue again (IPP Resume-Printer).
    func resume() throws(PrintError) {
        let request = IPPMessage(IPP_OP_RESUME_PRINTER, user: user)
        request.add(.operation, .uri, "printer-uri", uri)
        _ = try connection.perform(request, resource: "/admin/")
    }
}

/// The queue's state and, for a network printer, the printer's own, read together: CUPS relays
/// a printer's reasons only while it prints, so the printer is asked directly too.
struct PrinterLook {
    /// A connection to the queue's `ipp://` printer, kept from one look to the next.
    struct Device {
        let uri: String
        let resource: String
        let connection: CUPSConnection
    }

    let attributes: PrinterAttributes
    let status: PrinterStatus

    /// Reads `queue`, then its printer through `device` (made, or made again when the queue's
    /// printer changed); a printer that does not answer is offline.
    init(_ queue: CUPSQueue, device: inout Device?) throws(PrintError) {
        attributes = try queue.attributes()
        var reasons = attributes.reasons
        var message = attributes.message
        if !attributes.acceptingJobs { reasons.append("not-accepting-jobs") }
        if let uri = attributes.deviceURI, let (server, resource) = Self.directlyAskable(uri) {
            if device?.uri != uri { device = Device(uri: uri, resource: resource, connection: CUPSConnection(server: server)) }
            do {
                let printer = try CUPSQueue.attributes(of: uri, resource: resource, over: device!.connection, user: queue.user)
                reasons += printer.reasons
                if message.isEmpty { message = printer.message }
            } catch {
                reasons.append("offline")
                if message.isEmpty { message = "The printer does not answer at \(uri): \(error)" }
            }
        } else {
            device = nil
        }
        status = PrinterStatus(ippState: attributes.state, reasons: reasons, message: message)
    }

    /// A network printer's address to ask for its state: an `ipp://` device; `nil` for any other
    /// (a USB printer's state comes through CUPS's backend).
    static func directlyAskable(_ uri: String) -> (IPPServer, String)? {
        guard let url = URL(string: uri), url.scheme == "ipp", let host = url.host, !host.isEmpty else { return nil }
        return (IPPServer(host: host, port: url.port ?? 631), url.path.isEmpty ? "/" : url.path)
    }
}

extension PrinterAttributes {
    /// The resolution pages are made at: the printer's, within 150 to 600 dpi (300 when it
    /// says none).
    var pageResolution: Int { min(600, max(150, resolution ?? 300)) }
}
