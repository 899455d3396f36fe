import BoothCore
import Foundation
import GRDB

/// Every operation that writes into photos/ (a save, an import, a change of name, hidden flag or
/// favourite, a deletion, the removal of an imported photo) first commits an intent to the
/// catalog's `in_flight` table, durably like every commit, then does its file work, and removes
/// the intent in its own last commit, together with the row it writes: a crash leaves exactly
/// the intents whose files need a look (``LibraryMaintenance/reconcileAtStart()``).
extension PhotoLibrary {
    /// Commits the intent of an operation on photo `id`, whose original is (or is to be) `file`;
    /// returns its number, for the operation's last commit to remove it
    /// (``closeOperation(_:in:)``).
    func beginOperation(_ operation: LibraryOperation, of id: UUID, file: String) throws(LibraryError) -> Int64 {
        let seq = try catalog.write("note the operation under way") { db in try Self.insertOperation(operation, of: id, file: file, in: db) }
        reached("\(operation.rawValue): intent committed")
        return seq
    }

    /// Inserts an intent inside a transaction of the operation's own (a removal commits its
    /// first step with it); returns its number.
    static func insertOperation(_ operation: LibraryOperation, of id: UUID, file: String, in db: Database) throws -> Int64 {
        var intent = IntentRecord(operation, of: id, file: file, at: Date())
        try intent.insert(db)
        return intent.seq ?? db.lastInsertedRowID
    }

    /// Removes an intent, inside the transaction that completes its operation.
    static func closeOperation(_ seq: Int64?, in db: Database) throws {
        guard let seq else { return }
        try IntentRecord.deleteOne(db, key: seq)
    }

    /// Tells the tests' observer (``stepReached``) that an operation reached `step`.
    func reached(_ step: String) {
        stepReached.withLock { $0 }?(step)
    }
}
