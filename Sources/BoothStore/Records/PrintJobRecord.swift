import BoothCore
import Foundation
import GRDB

/// A print request, as `print_job` holds it: one row per request, from the moment it is asked
/// for to its end.
struct PrintJobRecord: Codable, FetchableRecord, MutablePersistableRecord, Sendable {
    static let databaseTableName = "print_job"

    var number: Int64?
    var uuid: String
    var photoID: String
    var copies: Int
    var reason: String
    var requestedAt: String
    var state: String
    var cupsJob: Int?
    var detail: String?
    var pages: Int = 0
    var finishedAt: String?
    /// The operator canceled it while CUPS had it (or might): the print thread cancels the job.
    var cancelAsked = false

    enum CodingKeys: String, CodingKey {
        case number, uuid, copies, reason, state, detail, pages
        case photoID = "photo_id"
        case requestedAt = "requested_at"
        case cupsJob = "cups_job"
        case finishedAt = "finished_at"
        case cancelAsked = "cancel_asked"
    }

    enum Columns {
        static let number = Column(CodingKeys.number)
        static let uuid = Column(CodingKeys.uuid)
        static let photoID = Column(CodingKeys.photoID)
        static let copies = Column(CodingKeys.copies)
        static let state = Column(CodingKeys.state)
        static let cupsJob = Column(CodingKeys.cupsJob)
        static let detail = Column(CodingKeys.detail)
        static let pages = Column(CodingKeys.pages)
        static let finishedAt = Column(CodingKeys.finishedAt)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        number = inserted.rowID
    }

    /// Queues a print of photo `id`, in the transaction of its reason: a crash or power cut
    /// never keeps the reason and loses the request.
    static func queue(_ id: UUID, copies: Int, reason: PrintRequest.Reason, at time: Date, in db: Database) throws -> PrintRequest {
        var record = PrintJobRecord(
            uuid: UUID.random().lowercased, photoID: id.lowercased, copies: copies, reason: reason.rawValue,
            requestedAt: time.utcTimestamp, state: PrintRequest.State.pending.rawValue)
        try record.insert(db)
        return record.request!
    }

    /// The request this row holds; `nil` for a row this version cannot read.
    var request: PrintRequest? {
        guard let number, let id = UUID(uuidString: uuid), let photo = UUID(uuidString: photoID),
            let reason = PrintRequest.Reason(rawValue: reason), let state = PrintRequest.State(rawValue: state)
        else { return nil }
        return PrintRequest(
            number: Int(number), id: id, photo: photo, copies: copies, reason: reason,
            requestedAt: Date(utcTimestamp: requestedAt) ?? .distantPast, state: state, cupsJob: cupsJob, detail: detail,
            pages: pages, finishedAt: finishedAt.flatMap(Date.init(utcTimestamp:)), cancelAsked: cancelAsked)
    }
}

extension DerivableRequest<PrintJobRecord> {
    /// The requests in `states`, in the order they were made.
    func inState(_ states: [PrintRequest.State]) -> Self {
        filter(states.map(\.rawValue).contains(PrintJobRecord.Columns.state)).order(PrintJobRecord.Columns.number)
    }
}
