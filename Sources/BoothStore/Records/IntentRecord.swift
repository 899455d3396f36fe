import BoothCore
import Foundation
import GRDB

/// What an operation in flight does to its photo's files.
enum LibraryOperation: String, Codable, Sendable {
    /// ``PhotoLibrary/add(_:thumbnail:id:number:caption:createdAt:camera:perceptualHash:)``:
    /// original and sidecar written, then the row.
    case save
    /// ``PhotoLibrary/importPhoto(_:thumbnail:record:origin:)``: the same for another booth's photo.
    case importing = "import"
    /// ``PhotoLibrary/change(_:_:imported:sidecar:row:also:)``: the sidecar replaced, then the row.
    case change
    /// ``PhotoLibrary/recycle(_:)``: the record, the moves to recycle/, then the row deleted.
    case recycle
    /// ``PhotoLibrary/removeImported(_:from:)``: the row deleted, then the original and sidecar.
    case removeImported = "remove imported"
    /// ``PhotoLibrary/addPart(_:id:of:index:number:width:height:createdAt:camera:)``: a shot of a
    /// picture being made, its JPEG and sidecar in parts/, then its row.
    case savePart = "save part"
}

/// The intent of an operation that writes into photos/, as `in_flight` holds it from before the
/// operation's file work to its last commit (``LibraryMaintenance/reconcileAtStart()``).
struct IntentRecord: Codable, FetchableRecord, MutablePersistableRecord, Sendable {
    static let databaseTableName = "in_flight"

    /// Its number, given by the catalog at insertion.
    var seq: Int64?
    var photoID: String
    /// The photo's original, relative to the library folder.
    var file: String
    /// What the operation does, as written; ``kind`` reads it.
    var operation: String
    var startedAt: String

    enum CodingKeys: String, CodingKey {
        case seq, file, operation
        case photoID = "photo_id"
        case startedAt = "started_at"
    }

    enum Columns {
        static let seq = Column(CodingKeys.seq)
    }

    init(_ operation: LibraryOperation, of id: UUID, file: String, at time: Date) {
        photoID = id.lowercased
        self.file = file
        self.operation = operation.rawValue
        startedAt = time.utcTimestamp
    }

    /// The operation; `nil` for one this version does not know (a newer one's).
    var kind: LibraryOperation? {
        LibraryOperation(rawValue: operation)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        seq = inserted.rowID
    }
}

extension DerivableRequest<IntentRecord> {
    /// The intents up to `seq`, included.
    func upTo(_ seq: Int64) -> Self {
        filter(IntentRecord.Columns.seq <= seq)
    }

    /// In the order the operations began.
    func inOrder() -> Self {
        order(IntentRecord.Columns.seq)
    }
}
