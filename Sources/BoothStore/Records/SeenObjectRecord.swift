import GRDB

/// A record of another booth already imported (or refused), as `sync_seen` holds it: by key,
/// with the ETag it had, so that an unchanged record is not fetched again.
struct SeenObjectRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "sync_seen"

    var key: String
    var etag: String
}
