import BoothCore
import Foundation
import GRDB
import Synchronization

/// A print request of the catalog's print queue, from its asking to its end.
package struct PrintRequest: Sendable, Hashable, Codable {
    /// Why the picture is printed.
    package enum Reason: String, Sendable, Hashable, Codable, CaseIterable {
        /// Every picture is printed when saved (`print.auto`).
        case auto
        /// A guest at the booth asked (the print key or button on the saved screen).
        case booth
        /// A guest from the photo's page (`print.guests`).
        case guest
        /// The operator: the admin page or `photobooth print`.
        case admin
    }

    /// Where the request is.
    package enum State: String, Sendable, Hashable, Codable, CaseIterable {
        /// Waiting to be sent to CUPS.
        case pending
        /// Being sent: CUPS may or may not have it; after a restart the booth asks CUPS before
        /// sending it again.
        case sending
        /// CUPS has it, as job ``PrintRequest/cupsJob``, and it is not finished.
        case printing
        /// Printed.
        case done
        /// CUPS or the printer gave up on it, or it could not be made.
        case failed
        /// Canceled by the operator, at the booth or at the printer.
        case canceled

        /// Whether the request will not change by itself any more.
        package var isFinished: Bool { self == .done || self == .failed || self == .canceled }
    }

    /// The request's number in the queue: `photobooth print status` lists it, `cancel` and
    /// `retry` name it.
    package let number: Int
    /// The request's identity, also the CUPS job's `job-uuid`.
    package let id: UUID
    package let photo: UUID
    package let copies: Int
    package let reason: Reason
    package let requestedAt: Date
    package var state: State
    /// CUPS's job number, once CUPS has the job.
    package var cupsJob: Int?
    /// What CUPS or the printer last said of it, or why it failed.
    package var detail: String?
    /// Pages printed, as CUPS counts them.
    package var pages: Int
    package var finishedAt: Date?
    /// The operator canceled it while CUPS had it, or might have had it: the print thread
    /// cancels CUPS's job.
    package var cancelAsked: Bool
}

/// How many prints of one picture guests may still ask for, and which limit holds them.
package struct PrintAllowance: Sendable, Hashable {
    package let limits: PrintLimits
    /// Prints of the picture so far.
    package let ofPicture: Int
    /// Prints of the event so far.
    package let inAll: Int

    /// Prints left; `nil` when no limit applies.
    package var left: Int? {
        let leftOfPicture = limits.perPicture.map { max(0, $0 - ofPicture) }
        let leftInAll = limits.total.map { max(0, $0 - inAll) }
        switch (leftOfPicture, leftInAll) {
        case (let picture?, let all?): return min(picture, all)
        case (let one?, nil), (nil, let one?): return one
        case (nil, nil): return nil
        }
    }

    /// Whether the event's limit, not the picture's, is what leaves none.
    package var eventIsSpent: Bool { limits.total.map { inAll >= $0 } ?? false }
}

/// The print side of the catalog: the print queue. Every request is a row written in the
/// transaction of its reason; the print thread takes the pending ones in order, records that it
/// is sending each before it does, then CUPS's job number, then the end. None of it is what
/// guests see: its writes never move ``GalleryChanges``.
package final class PrintQueue: Sendable {
    private let catalog: Catalog
    /// Called after every commit of this process that queued or canceled a request, so that
    /// the print thread wakes at once rather than at its next look at the printer (which also
    /// finds the requests of other processes, such as `photobooth print`).
    private let listeners = Mutex<[@Sendable () -> Void]>([])

    init(catalog: Catalog) {
        self.catalog = catalog
    }

    /// Calls `wake` after each commit that queued or canceled a request, from then on.
    package func whenQueued(_ wake: @escaping @Sendable () -> Void) {
        listeners.withLock { $0.append(wake) }
    }

    func noteQueued() {
        for wake in listeners.withLock({ $0 }) { wake() }
    }

    /// Queues `copies` prints of photo `id`, for `reason`.
    package func request(_ id: UUID, copies: Int, reason: PrintRequest.Reason, at time: Date = Date()) throws(LibraryError) -> PrintRequest {
        let request = try catalog.write("queue a print") { db throws -> PrintRequest? in
            guard try PhotoRecord.all().photo(id).isEmpty(db) == false else { return nil }
            return try PrintJobRecord.queue(id, copies: copies, reason: reason, at: time, in: db)
        }
        guard let request else { throw LibraryError.unknownPhoto(id.lowercased) }
        noteQueued()
        return request
    }

    /// The requests in `states`, oldest first.
    package func requests(in states: [PrintRequest.State]) throws(LibraryError) -> [PrintRequest] {
        try catalog.read("read the print queue") { db in try PrintJobRecord.all().inState(states).fetchAll(db).compactMap(\.request) }
    }

    /// Every request, newest first, at most `limit`.
    package func recent(limit: Int = 100) throws(LibraryError) -> [PrintRequest] {
        try catalog.read("read the print queue") { db in
            try PrintJobRecord.all().order(PrintJobRecord.Columns.number.desc).limit(limit).fetchAll(db).compactMap(\.request)
        }
    }

    /// Request `number`; `nil` when there is none.
    package func request(number: Int) throws(LibraryError) -> PrintRequest? {
        try catalog.read("read the print queue") { db in try PrintJobRecord.fetchOne(db, key: number)?.request }
    }

    /// How many requests are in each state.
    package func counts() throws(LibraryError) -> [PrintRequest.State: Int] {
        try catalog.read("read the print queue") { db in
            var counts = Dictionary(uniqueKeysWithValues: PrintRequest.State.allCases.map { ($0, 0) })
            let rows = try Row.fetchAll(db, sql: "SELECT state, count(*) FROM print_job GROUP BY state")
            for row in rows {
                if let state = PrintRequest.State(rawValue: row[0]) { counts[state] = row[1] }
            }
            return counts
        }
    }

    /// Pages printed in all.
    package func pagesPrinted() throws(LibraryError) -> Int {
        try catalog.read("read the print queue") { db in try Int.fetchOne(db, sql: "SELECT coalesce(sum(pages), 0) FROM print_job") ?? 0 }
    }

    /// What guests may still print of photo `id` under `limits`.
    package func allowance(of id: UUID, under limits: PrintLimits) throws(LibraryError) -> PrintAllowance {
        try catalog.read("read the print queue") { db in try Self.allowance(of: id, under: limits, in: db) }
    }

    /// Queues a guest's print of photo `id`: `copies`, or fewer when the limits leave fewer.
    /// The limits are read and the request written in one transaction, so two guests pressing
    /// at once cannot both have the last print. `nil` when the limits leave none; the
    /// allowance as it was, either way.
    package func guestRequest(_ id: UUID, copies: Int, under limits: PrintLimits, at time: Date = Date()) throws(LibraryError)
        -> (PrintRequest?, PrintAllowance)
    {
        let answer = try catalog.write("queue a print") { db throws -> (PrintRequest?, PrintAllowance)? in
            // Guests print what they see: not a photo the operator hid.
            guard try PhotoRecord.all().visible().photo(id).isEmpty(db) == false else { return nil }
            let allowance = try Self.allowance(of: id, under: limits, in: db)
            let granted = min(copies, allowance.left ?? copies)
            guard granted > 0 else { return (nil, allowance) }
            return (try PrintJobRecord.queue(id, copies: granted, reason: .guest, at: time, in: db), allowance)
        }
        guard let answer else { throw LibraryError.unknownPhoto(id.lowercased) }
        if answer.0 != nil { noteQueued() }
        return answer
    }

    /// Prints asked for photo `id` and in all, canceled and failed ones left out: what the
    /// guests' limits count.
    private static func allowance(of id: UUID, under limits: PrintLimits, in db: Database) throws -> PrintAllowance {
        let counted = "state NOT IN ('canceled', 'failed')"
        let picture =
            try Int.fetchOne(db, sql: "SELECT coalesce(sum(copies), 0) FROM print_job WHERE photo_id = ? AND \(counted)", arguments: [id.lowercased])
            ?? 0
        let total = try Int.fetchOne(db, sql: "SELECT coalesce(sum(copies), 0) FROM print_job WHERE \(counted)") ?? 0
        return PrintAllowance(limits: limits, ofPicture: picture, inAll: total)
    }

    // MARK: The print thread's steps

    /// The print thread is about to send `request`: once this returns, a restart asks CUPS for
    /// it before sending it again.
    package func sending(_ request: PrintRequest) throws(LibraryError) {
        try update(request.number, "update the print queue") { $0.state = PrintRequest.State.sending.rawValue }
    }

    /// CUPS has `request` as job `job`.
    package func printing(_ request: PrintRequest, job: Int, detail: String? = nil) throws(LibraryError) {
        try update(request.number, "update the print queue") { row in
            row.state = PrintRequest.State.printing.rawValue
            row.cupsJob = job
            row.detail = detail
        }
    }

    /// What CUPS or the printer says of a request that is not finished.
    package func note(_ request: PrintRequest, detail: String?) throws(LibraryError) {
        try update(request.number, "update the print queue") { $0.detail = detail }
    }

    /// `request` goes back to the queue, to be sent (again) in its turn: it was never sent, or
    /// CUPS lost it.
    package func sendAgain(_ request: PrintRequest, detail: String?) throws(LibraryError) {
        try update(request.number, "update the print queue") { row in
            row.state = PrintRequest.State.pending.rawValue
            row.cupsJob = nil
            row.detail = detail
        }
    }

    /// `request` ended as `state`.
    package func finished(_ request: PrintRequest, as state: PrintRequest.State, pages: Int, detail: String?, at time: Date = Date())
        throws(LibraryError)
    {
        try update(request.number, "update the print queue") { row in
            row.state = state.rawValue
            row.pages = pages
            row.detail = detail
            row.finishedAt = time.utcTimestamp
        }
    }

    /// The operator cancels request `number`: a request not sent yet is canceled here; one
    /// CUPS has is canceled there by the print thread, which sees it ended. Returns the request
    /// as it is after this, or `nil` when there is none.
    package func cancel(_ number: Int, at time: Date = Date()) throws(LibraryError) -> PrintRequest? {
        let request = try catalog.write("cancel a print") { db -> PrintRequest? in
            guard var row = try PrintJobRecord.fetchOne(db, key: number) else { return nil }
            if row.state == PrintRequest.State.pending.rawValue {
                row.state = PrintRequest.State.canceled.rawValue
                row.detail = "Canceled by the operator."
                row.finishedAt = time.utcTimestamp
                try row.update(db)
            } else if row.state == PrintRequest.State.printing.rawValue || row.state == PrintRequest.State.sending.rawValue {
                row.cancelAsked = true
                try row.update(db)
            }
            return row.request
        }
        if request != nil { noteQueued() }
        return request
    }

    /// The operator tries a failed or canceled request again: a new request of the same
    /// picture and copies, queued now. Returns it, or `nil` when `number` names no finished
    /// request.
    package func retry(_ number: Int, at time: Date = Date()) throws(LibraryError) -> PrintRequest? {
        let request = try catalog.write("retry a print") { db -> PrintRequest? in
            guard let old = try PrintJobRecord.fetchOne(db, key: number)?.request, old.state == .failed || old.state == .canceled else {
                return nil
            }
            return try PrintJobRecord.queue(old.photo, copies: old.copies, reason: old.reason, at: time, in: db)
        }
        if request != nil { noteQueued() }
        return request
    }

    private func update(_ number: Int, _ operation: String, _ change: (inout PrintJobRecord) -> Void) throws(LibraryError) {
        try catalog.write(operation) { db in
            guard var row = try PrintJobRecord.fetchOne(db, key: number) else { return }
            change(&row)
            try row.update(db)
        }
    }
}
