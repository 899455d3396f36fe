import BoothCore
import Foundation
import GRDB

/// The one row of `catalog_state`: the catalog's identity (new with each catalog, so that a
/// rebuilt one is not compared with the old), its counts of commits and of changes guests can
/// see (each raised by triggers), and why the next start must check every photo, when it must.
struct CatalogStateRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "catalog_state"

    /// Always 1: the table holds one row.
    var only = 1
    var identity: String
    /// The commits that changed photos or intents (migration v9's triggers).
    var changes: Int64
    /// Why the next start checks every photo; `nil`: it need not.
    var fullCheckDue: String?
    /// The changes guests can see (migration v11's triggers).
    var galleryChanges: Int64

    enum CodingKeys: String, CodingKey {
        case only, identity, changes
        case fullCheckDue = "full_check_due"
        case galleryChanges = "gallery_changes"
    }

    enum Columns {
        static let changes = Column(CodingKeys.changes)
        static let fullCheckDue = Column(CodingKeys.fullCheckDue)
        static let galleryChanges = Column(CodingKeys.galleryChanges)
    }

    /// The row, or zeros for a catalog that lost it (a hand edit).
    static func current(_ db: Database) throws -> CatalogStateRecord {
        try fetchOne(db) ?? CatalogStateRecord(identity: "", changes: 0, galleryChanges: 0)
    }

    /// The count of changes guests can see, read alone.
    static func galleryCount(_ db: Database) throws -> GalleryCount {
        try current(db).galleryCount
    }

    var commitCount: CommitCount {
        CommitCount(identity: identity, changes: changes)
    }

    var galleryCount: GalleryCount {
        GalleryCount(identity: identity, changes: galleryChanges)
    }
}
