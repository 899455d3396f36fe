import GRDB

/// A value the sync worker keeps between runs, as `sync_state` holds it: by name, as text.
struct SyncStateRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "sync_state"

    var name: String
    var value: String
}
