/// The printer as the booth understands it: whether it prints, and what is wrong with it, from
/// IPP's `printer-state` and `printer-state-reasons` of the CUPS queue and of the printer itself.
package struct PrinterStatus: Sendable, Hashable, Codable {
    package enum State: String, Sendable, Hashable, Codable {
        /// Ready, nothing to print.
        case idle
        /// Printing.
        case printing
        /// The queue or the printer stopped: nothing prints until the fault is cleared.
        case stopped
        /// The print server (CUPS) cannot be reached.
        case unreachable
    }

    package var state: State
    /// What is wrong, most serious first; warnings (a supply running low) last.
    package var faults: [PrinterFault]
    /// What the printer or CUPS says, in its words (`printer-state-message`).
    package var message: String

    package init(state: State, faults: [PrinterFault] = [], message: String = "") {
        self.state = state
        self.faults = faults
        self.message = message
    }

    /// Whether prints are held: a fault that stops printing (not a warning), or no server.
    package var isHoldingPrints: Bool { state == .unreachable || faults.contains { !$0.isWarning } }

    /// The most serious fault, if any.
    package var fault: PrinterFault? { faults.first }

    /// The status from IPP's words: `state` 3 (idle), 4 (processing) or 5 (stopped), and the
    /// reasons of the queue and of the printer (`media-empty-error`, `paused`, ...), suffixes
    /// and all. Reasons the booth does not know are left out; a stopped queue with none it
    /// knows is ``PrinterFault/stopped``.
    package init(ippState: Int, reasons: [String], message: String) {
        var faults = Set(reasons.compactMap(PrinterFault.init(reason:)))
        if ippState == 5, faults.allSatisfy(\.isWarning) { faults.insert(.stopped) }
        let sorted = PrinterFault.allCases.filter { faults.contains($0) }
        let stops = sorted.contains { !$0.isWarning }
        self.init(state: stops || ippState == 5 ? .stopped : ippState == 4 ? .printing : .idle, faults: sorted, message: message)
    }
}

/// What can be wrong with a printer, in the order the booth tells them (the most serious first).
public enum PrinterFault: String, Sendable, Hashable, Codable, CaseIterable {
    /// The print server (CUPS) cannot be reached.
    case serverUnreachable = "server-unreachable"
    /// The printer cannot be reached, or is switched off.
    case offline
    /// CUPS is trying to reach the printer.
    case connecting
    case doorOpen = "door-open"
    case mediaJam = "media-jam"
    case mediaEmpty = "media-empty"
    /// The ink, toner or ribbon is used up.
    case markerEmpty = "marker-supply-empty"
    /// The operator (or CUPS, after a failure) paused the queue.
    case paused
    /// The queue stopped for a reason the printer did not say.
    case stopped
    /// The queue does not accept new jobs.
    case notAccepting = "not-accepting-jobs"
    /// A warning: prints go on.
    case mediaLow = "media-low"
    /// A warning: prints go on.
    case markerLow = "marker-supply-low"

    /// Whether prints go on despite it.
    package var isWarning: Bool { self == .mediaLow || self == .markerLow }

    /// What the operator does about it, for the log, `/healthz`, `/api/status` and `doctor`.
    package var fix: String {
        switch self {
        case .serverUnreachable: "Start CUPS (systemctl start cups), or correct print.server."
        case .offline, .connecting: "Switch the printer on, and check its USB cable or its network."
        case .doorOpen: "Close the printer's door or cover."
        case .mediaJam: "Open the printer, take the stuck paper out, and close it."
        case .mediaEmpty: "Load paper (a dye-sublimation printer: paper and ribbon together)."
        case .markerEmpty: "Replace the ink, toner or ribbon."
        case .paused, .stopped: "Start the queue again (cupsenable QUEUE), or set print.resume_queue: true."
        case .notAccepting: "Let the queue take jobs again (cupsaccept QUEUE)."
        case .mediaLow: "Have paper ready: it is running low."
        case .markerLow: "Have ink or a ribbon ready: it is running low."
        }
    }

    /// The fault one of IPP's `printer-state-reasons` names, whatever its suffix (`-report`,
    /// `-warning`, `-error`); `nil` for a reason that is no fault the booth tells (`none`,
    /// `cups-waiting-for-job-completed`).
    package init?(reason: String) {
        var word = Substring(reason)
        for suffix in ["-report", "-warning", "-error"] where word.hasSuffix(suffix) {
            word = word.dropLast(suffix.count)
        }
        switch word {
        case "media-empty", "media-needed": self = .mediaEmpty
        case "media-jam": self = .mediaJam
        case "media-low": self = .mediaLow
        case "marker-supply-empty", "toner-empty", "marker-waste-full": self = .markerEmpty
        case "marker-supply-low", "toner-low", "marker-waste-almost-full": self = .markerLow
        case "door-open", "cover-open", "interlock-open", "input-tray-missing": self = .doorOpen
        case "offline", "shutdown", "timed-out": self = .offline
        case "connecting-to-device": self = .connecting
        case "paused", "moving-to-paused": self = .paused
        // Not IPP's: what the booth says of a queue whose printer-is-accepting-jobs is false.
        case "not-accepting-jobs": self = .notAccepting
        default: return nil
        }
    }
}

/// The most prints guests may ask for from their phones (`print.max_per_picture`,
/// `print.max_total`); `nil` for no limit. Every print counts towards them, whoever asked
/// for it, except those canceled or failed.
public struct PrintLimits: Sendable, Hashable {
    public var perPicture: Int?
    public var total: Int?

    public init(perPicture: Int? = nil, total: Int? = nil) {
        self.perPicture = perPicture
        self.total = total
    }
}
