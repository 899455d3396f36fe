import BoothCore
import BoothPictures
import BoothStore
import BoothSystem
import Foundation
import Logging
import Synchronization

/// How the booth prints (`print:` in photobooth.yaml).
package struct PrintSettings: Sendable, Hashable {
    /// The CUPS server.
    package var server: IPPServer
    /// The CUPS queue's name.
    package var queue: String
    /// The IPP Everywhere printer the booth keeps ``queue`` pointed at (`print.printer` given
    /// as an address); `nil` when the operator set up the queue.
    package var device: String?
    package var media: PrintMedia
    /// Copies of each picture.
    package var copies: Int
    /// Whether every picture is printed when saved.
    package var auto: Bool
    /// The margin around the picture, in hundredths of a millimetre.
    package var margin: Int
    /// Whether the booth starts a queue that CUPS stopped (after a printer's failure) again.
    package var resumeQueue: Bool
    /// The user the booth's jobs belong to in CUPS.
    package var user: String
    /// The print layout (`print.layout`), checked against the media; `nil` for the picture
    /// alone on the sheet.
    package var layout: Layout?
    /// What the print layout's texts say besides the picture's own (the event, the booth).
    package var blanks: [TextBlank: String] = [:]
    /// How the print layout writes the picture's date.
    package var dateFormat = PhotoDateFormat.standard
    /// The font of the print layout's texts that name none.
    package var defaultFont = ""

    package init(
        server: IPPServer = .cupsDefault, queue: String, media: PrintMedia, copies: Int = 1, auto: Bool = false, margin: Int = 300,
        resumeQueue: Bool = false, user: String = "photobooth", device: String? = nil
    ) {
        self.server = server
        self.queue = queue
        self.device = device
        self.media = media
        self.copies = copies
        self.auto = auto
        self.margin = margin
        self.resumeQueue = resumeQueue
        self.user = user
    }
}

extension PrintSettings {
    /// What makes the pages of these settings: the paper, the margin, the print layout.
    package func pageMaker() -> PageMaker {
        PageMaker(media: media, margin: margin, layout: layout, defaultFont: defaultFont)
    }

    /// What the print layout's texts say of a picture named `caption`, taken at `date`.
    package func blanks(caption: String, date: Date) -> [TextBlank: String] {
        var blanks = self.blanks
        blanks[.caption] = caption
        blanks[.date] = dateFormat.string(from: date)
        return blanks
    }
}

/// What the print thread last knew, for the operator's status and metrics.
package struct PrintFigures: Sendable, Hashable {
    package var printer: PrinterStatus
    /// Requests in each state.
    package var requests: [PrintRequest.State: Int]
    /// Pages printed in all.
    package var pages: Int
}

/// The print thread: it sends the catalog's print queue to CUPS, one request after another in
/// the order they were made, follows each job to its end through CUPS's job state, and watches
/// the printer.
///
/// Each request is sent at most once whatever stops the booth: the thread records that it is
/// sending a request before it sends it, and CUPS's job carries the request's identity
/// (`job-uuid`). A request found being sent (the booth stopped meanwhile) is looked for in
/// CUPS's jobs before anything else: a job CUPS has is followed, and a request CUPS never got
/// is sent again. CUPS takes a job's document whole or not at all (IPP Print-Job), so there is
/// no half-sent job.
///
/// The printer's state is read every second from the queue and, for a network printer, from
/// the printer itself: CUPS relays a printer's reasons only while it prints, and a guest should
/// learn that the paper ran out before pressing, not after. Every change is reported.
///
/// Everything here blocks (IPP over HTTP, reading and laying out pictures): it runs on a thread
/// of its own at background priority, never on Swift's cooperative pool nor ahead of the
/// capture path.
package final class PrintWorker: Sendable {
    /// How often the printer and the jobs are asked.
    package static let interval = Duration.seconds(1)

    private let settings: PrintSettings
    private let library: PhotoLibrary
    private let logger: Logger
    private let reported: @Sendable (PrinterStatus) -> Void
    private let current = Mutex(PrinterStatus(state: .idle))
    private let counted = Mutex<(requests: [PrintRequest.State: Int], pages: Int)>(([:], 0))
    /// Whether a guest is still naming a picture: its prints wait for the name, which the
    /// picture may print (`{caption}`).
    private let isBeingNamed: @Sendable (UUID) -> Bool
    private let thread = Mutex<DedicatedThread?>(nil)

    /// A print thread for `settings` over `library`'s print queue; `reported` hears every change
    /// of the printer's state, on the print thread. Idle until ``start()``.
    package init(
        settings: PrintSettings, library: PhotoLibrary, logger: Logger, isBeingNamed: @escaping @Sendable (UUID) -> Bool = { _ in false },
        reporting reported: @escaping @Sendable (PrinterStatus) -> Void = { _ in }
    ) {
        self.isBeingNamed = isBeingNamed
        self.settings = settings
        self.library = library
        self.logger = logger
        self.reported = reported
    }

    /// The printer's state at the last look.
    package var status: PrinterStatus { current.withLock { $0 } }

    /// The printer and the queue at the last look.
    package var figures: PrintFigures {
        let (requests, pages) = counted.withLock { $0 }
        return PrintFigures(printer: status, requests: requests, pages: pages)
    }

    /// Looks at the queue now: a picture was named, or a request made in another process.
    package func wake() {
        thread.withLock { $0 }?.wake()
    }

    package func start() {
        let started = DedicatedThread(name: "print", priority: .background) { [self] wakeup in
            run(wakeup)
        }
        thread.withLock { $0 = started }
        library.prints.whenQueued { [weak started] in started?.wake() }
    }

    package func stop() async {
        await thread.withLock { $0 }?.stop()
    }

    private func run(_ wakeup: Wakeup) {
        let clock = MonotonicClock()
        let connection = CUPSConnection(server: settings.server)
        let queue = CUPSQueue(name: settings.queue, connection: connection, user: settings.user)
        var device: PrinterLook.Device?
        // Whether this run set up the booth's queue for its printer's address: once, and again
        // only when the queue is gone.
        var setUp = false
        let pages = settings.pageMaker()
        // The open requests at the last look: the counts are read again when they change (and
        // every tenth look, for what another process finished), not every second.
        var lastOpen: [PrintRequest]?
        var looks = 0
        while !wakeup.isStopping {
            let next = clock.now + Self.interval
            let attributes = watch(queue, device: &device, setUp: &setUp)
            do throws(LibraryError) {
                // One read of the catalog a look while nothing prints.
                let open = try library.prints.requests(in: [.pending, .sending, .printing])
                if let attributes {
                    let sentBack = try settle(open.filter { $0.state != .pending }, queue)
                    let pending = sentBack ? try library.prints.requests(in: [.pending]) : open.filter { $0.state == .pending }
                    if attributes.acceptingJobs, !pending.isEmpty {
                        try send(pending, queue, attributes: attributes, pages: pages, wakeup: wakeup)
                    }
                }
                looks += 1
                if open != lastOpen || looks % 10 == 0 {
                    let (requests, printed) = (try library.prints.counts(), try library.prints.pagesPrinted())
                    counted.withLock { $0 = (requests, printed) }
                    lastOpen = open
                }
            } catch {
                logger.error("The print queue could not be read or updated: \(error)")
            }
            wakeup.wait(until: next)
        }
    }

    // MARK: The printer

    /// Reads the queue's and the printer's state and reports a change; `nil` when CUPS cannot
    /// be reached.
    private func watch(_ queue: CUPSQueue, device: inout PrinterLook.Device?, setUp: inout Bool) -> PrinterAttributes? {
        let look: PrinterLook
        do {
            look = try PrinterLook(queue, device: &device)
            // The booth's queue points at its printer's address: set up once a run when it points
            // elsewhere (another address in the configuration), never in a loop if CUPS writes
            // the address its own way.
            if let printer = settings.device, look.attributes.deviceURI != printer, !setUp {
                setUp = true
                return self.setUp(queue, for: printer)
            }
        } catch  where error.isNotFound && settings.device != nil {
            setUp = true
            return self.setUp(queue, for: settings.device!)
        } catch {
            let fault: PrinterFault = error.isNotFound ? .stopped : .serverUnreachable
            let message =
                error.isNotFound
                ? "CUPS has no queue named \(settings.queue) (print.printer); lpstat -p lists the queues."
                : "\(error)"
            publish(PrinterStatus(state: error.isNotFound ? .stopped : .unreachable, faults: [fault], message: message))
            return nil
        }
        let status = look.status
        publish(status)
        if status.faults.contains(.paused) || status.faults == [.stopped], settings.resumeQueue {
            do {
                try queue.resume()
                logger.notice("The print queue \(settings.queue) was stopped; it is started again (print.resume_queue).")
            } catch {
                logger.warning("The print queue \(settings.queue) is stopped and could not be started again: \(error)")
            }
        }
        return look.attributes
    }

    /// Makes the booth's queue for the printer at `printer` (or points it there again); the next
    /// look reads it. Says what stops it when CUPS refuses.
    private func setUp(_ queue: CUPSQueue, for printer: String) -> PrinterAttributes? {
        do {
            try queue.setUp(device: printer)
            logger.notice("The CUPS queue \(settings.queue) is set up for the IPP Everywhere printer at \(printer).")
        } catch {
            let message = """
                The CUPS queue \(settings.queue) for \(printer) cannot be set up: \(error). CUPS asks the printer \
                what it takes, so it must be on and reachable; and CUPS lets only its administrators do it: add the \
                booth's user to lpadmin (sudo adduser photobooth lpadmin), or set up the queue yourself and name it \
                in print.printer.
                """
            publish(PrinterStatus(state: .stopped, faults: [.stopped], message: message))
        }
        return nil
    }

    private func publish(_ status: PrinterStatus) {
        let changed = current.withLock { current in
            defer { current = status }
            return current != status
        }
        guard changed else { return }
        if status.fault != nil {
            logger.warning(
                "The printer: \(status.faults.map(\.rawValue).joined(separator: ", "))\(status.message.isEmpty ? "" : " (\(status.message))").")
        } else {
            logger.notice("The printer is \(status.state.rawValue)\(status.message.isEmpty ? "" : " (\(status.message))").")
        }
        reported(status)
    }

    // MARK: The jobs

    /// Finds out what became of the requests CUPS has or may have: a request being sent when
    /// the booth stopped, a job printing, a job the operator canceled.
    /// Returns whether a request went back to the queue, to be sent again.
    private func settle(_ requests: [PrintRequest], _ queue: CUPSQueue) throws(LibraryError) -> Bool {
        var sentBack = false
        for request in requests {
            do {
                sentBack = try settle(request, queue) || sentBack
            } catch let error as LibraryError {
                throw error
            } catch {
                // CUPS stopped answering: the next look goes on.
                logger.debug("Print \(request.number) could not be followed: \(error)")
                break
            }
        }
        return sentBack
    }

    /// Returns whether the request went back to the queue.
    private func settle(_ request: PrintRequest, _ queue: CUPSQueue) throws -> Bool {
        var job: CUPSJob?
        if let id = request.cupsJob {
            if request.cancelAsked { try queue.cancel(id) }
            job = try queue.job(id)
        }
        if job == nil {
            job = try queue.job(marked: request.id)
        }
        guard let job else {
            if request.cancelAsked {
                try library.prints.finished(request, as: .canceled, pages: 0, detail: "Canceled by the operator before CUPS had it.")
            } else {
                let why = request.state == .sending ? "CUPS never got it" : "CUPS lost it"
                logger.warning("Print \(request.number) (photo \(request.photo.lowercased)) is sent again: \(why).")
                try library.prints.sendAgain(request, detail: "\(why); sent again")
                return true
            }
            return false
        }
        if request.state == .sending || request.cupsJob != job.id {
            try library.prints.printing(request, job: job.id, detail: detail(of: job))
        }
        if request.cancelAsked, request.cupsJob == nil, !job.state.isFinal {
            try queue.cancel(job.id)
            return false
        }
        switch job.state {
        case .completed:
            try library.prints.finished(request, as: .done, pages: job.pages, detail: nil)
            logger.notice("Print \(request.number) (photo \(request.photo.lowercased)) printed: CUPS job \(job.id).")
        case .canceled:
            let detail = request.cancelAsked ? "Canceled by the operator." : "Canceled at the printer or in CUPS."
            try library.prints.finished(request, as: .canceled, pages: job.pages, detail: detail)
            logger.notice("Print \(request.number) (photo \(request.photo.lowercased)): \(detail)")
        case .aborted:
            let detail = "CUPS gave up on it: \(self.detail(of: job))"
            try library.prints.finished(request, as: .failed, pages: job.pages, detail: detail)
            logger.error("Print \(request.number) (photo \(request.photo.lowercased)) failed. \(detail)")
        default:
            let detail = detail(of: job)
            if detail != request.detail { try library.prints.note(request, detail: detail) }
        }
        return false
    }

    private func detail(of job: CUPSJob) -> String {
        job.message.isEmpty ? "CUPS job \(job.id), \(job.state.word)" : "CUPS job \(job.id), \(job.state.word): \(job.message)"
    }

    /// Sends the pending requests, in order, but those of a picture still being named.
    private func send(
        _ pending: [PrintRequest], _ queue: CUPSQueue, attributes: PrinterAttributes, pages: PageMaker, wakeup: Wakeup
    ) throws(LibraryError) {
        let dpi = attributes.pageResolution
        let format = "image/jpeg"
        for request in pending where !wakeup.isStopping {
            guard !isBeingNamed(request.photo) else { continue }
            let document: Data
            let started = ContinuousClock.now
            do throws(PrintError) {
                document = try page(of: request, pages: pages, dpi: dpi)
            } catch {
                try library.prints.finished(request, as: .failed, pages: 0, detail: "\(error)")
                logger.error("Print \(request.number) (photo \(request.photo.lowercased)) cannot be made: \(error)")
                continue
            }
            try library.prints.sending(request)
            let job: Int
            do throws(PrintError) {
                let title = "Photobooth \(request.photo.lowercased.prefix(8)) #\(request.number)"
                job = try queue.print(
                    document, format: format, uuid: request.id, title: title, copies: request.copies, media: settings.media,
                    borderless: settings.margin == 0)
            } catch {
                switch error {
                case .refused(let status, _) where !Self.isTemporary(status):
                    try library.prints.finished(request, as: .failed, pages: 0, detail: "CUPS refused it: \(error)")
                    logger.error("Print \(request.number) (photo \(request.photo.lowercased)): CUPS refused it: \(error)")
                default:
                    // Whether CUPS took it is unknown until it is asked: the next look settles it.
                    logger.warning("Print \(request.number) could not be sent, and is looked for at the next try: \(error)")
                    return
                }
                continue
            }
            try library.prints.printing(request, job: job, detail: "CUPS job \(job), pending")
            let elapsed = (ContinuousClock.now - started).components
            let milliseconds = elapsed.seconds * 1000 + elapsed.attoseconds / 1_000_000_000_000_000
            logger.notice(
                """
                Print \(request.number) (photo \(request.photo.lowercased), \(request.copies) cop\(request.copies == 1 ? "y" : "ies")) \
                sent as CUPS job \(job): page made and accepted in \(milliseconds) ms.
                """)
        }
    }

    /// IPP statuses that say "not now" rather than "never": a queue not accepting jobs, a busy
    /// or unavailable server.
    static func isTemporary(_ status: Int) -> Bool {
        [0x0404, 0x0506, 0x0502, 0x0507, 0x0508].contains(status)
    }

    /// The page of `request`: its picture (an animation's first shot) laid out on the media.
    private func page(of request: PrintRequest, pages: PageMaker, dpi: Int) throws(PrintError) -> Data {
        let photo: Photo?
        do {
            photo = try library.gallery.photo(id: request.photo, includingHidden: true)
        } catch {
            throw .document("The photo \(request.photo.lowercased) cannot be read from the catalog: \(error)")
        }
        guard let photo else { throw .document("The photo \(request.photo.lowercased) was deleted.") }
        var file = library.url(of: photo)
        var (width, height) = (photo.width, photo.height)
        if photo.kind.isAnimated {
            let parts: [PhotoPart]
            do {
                parts = try library.parts(of: photo.id)
            } catch {
                throw .document("The shots of animation \(photo.id.lowercased) cannot be read from the catalog: \(error)")
            }
            guard let first = parts.first else {
                throw .document("The animation \(photo.id.lowercased) has no shot to print.")
            }
            file = library.directory.appendingPathComponent(first.file)
            (width, height) = (first.width, first.height)
        }
        let bytes: Data
        do {
            bytes = try Data(contentsOf: file)
        } catch {
            throw .document("The picture \(file.path) cannot be read: \(error.localizedDescription)")
        }
        return try pages.page(
            of: bytes, width: width, height: height, dpi: dpi, blanks: settings.blanks(caption: photo.caption.text, date: photo.createdAt))
    }
}
