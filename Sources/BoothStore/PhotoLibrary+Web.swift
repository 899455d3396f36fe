import BoothCore
import Foundation
import GRDB
import Synchronization
import SystemPackage

/// What the web gallery needs of the library beyond listings: a photo's place among the photos
/// of a listing (for its page's previous, next and back links), and the secret that signs the
/// links letting a guest delete the photo they just took.
extension PhotoLibrary {
    /// Where a photo stands in the listing `query` picks (visible photos, newest first): how
    /// many come before it, and its neighbours. `nil` when the listing does not hold it.
    public func neighbours(of photo: Photo, in query: PhotoQuery) throws(LibraryError) -> PhotoNeighbours? {
        guard let (condition, arguments) = Self.condition(of: query) else { return nil }
        let place = (createdAt: photo.createdAt.utcTimestamp, number: photo.number)
        let newer = Self.newerThan
        let older = "(created_at < ? OR (created_at = ? AND number < ?))"
        let here = Self.place(place)
        return try read("find a photo's neighbours") { db in
            guard
                try Bool.fetchOne(
                    db, sql: "SELECT COUNT(*) > 0 FROM photo WHERE \(shown(false)) AND \(condition) AND id = ?",
                    arguments: arguments + [photo.id.lowercased]) == true
            else { return nil }
            let position = try countNewer(than: place, in: db, condition: condition, arguments: arguments)
            // The nearest newer photo is the oldest of the newer ones: the index read backwards.
            let previous = try Row.fetchOne(
                db,
                sql: """
                    SELECT \(Self.photoColumns) FROM photo WHERE \(shown(false)) AND \(condition) AND \(newer)
                    ORDER BY created_at, number LIMIT 1
                    """,
                arguments: arguments + here
            ).map(Self.photo(from:))
            let next = try Row.fetchOne(
                db,
                sql: """
                    SELECT \(Self.photoColumns) FROM photo WHERE \(shown(false)) AND \(condition) AND \(older)
                    ORDER BY \(Self.newestFirst) LIMIT 1
                    """,
                arguments: arguments + here
            ).map(Self.photo(from:))
            return PhotoNeighbours(position: position, newer: previous, older: next)
        }
    }

    /// The file that holds the secret of the guests' deletion links, in the library folder.
    public static let guestLinkSecretName = "guest-links.key"

    /// The secret that signs the links a guest gets to delete the photo they just took: 32
    /// random bytes in `guest-links.key` in the library folder, made at first use, readable by
    /// the booth's user only (0600), so that links stay valid across restarts. Removing the
    /// file makes every link given so far useless.
    public func guestLinkSecret() throws(LibraryError) -> Data {
        let url = directory.appendingPathComponent(Self.guestLinkSecretName)
        if FileManager.default.fileExists(atPath: url.path) {
            let secret = try DurableFile.read(url)
            guard secret.count == Self.guestLinkSecretSize else {
                throw LibraryError.badGuestLinkSecret(url.path, size: secret.count, expected: Self.guestLinkSecretSize)
            }
            return secret
        }
        var generator = SystemRandomNumberGenerator()
        let secret = Data((0..<Self.guestLinkSecretSize).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        try DurableFile.write(secret, toNew: url, permissions: .ownerReadWrite)
        try DurableFile.syncFolder(directory)
        return secret
    }

    static let guestLinkSecretSize = 32
}

/// A photo's place in a listing: how many photos come before it, the one just before (newer)
/// and the one just after (older).
public struct PhotoNeighbours: Sendable, Hashable {
    /// How many photos of the listing come before it.
    public var position: Int
    public var newer: Photo?
    public var older: Photo?

    public init(position: Int, newer: Photo? = nil, older: Photo? = nil) {
        self.position = position
        self.newer = newer
        self.older = older
    }
}

/// Which version of the catalog's photos a reader sees: a number raised after each committed
/// transaction that inserted, updated or deleted a row of the `photo` table, whichever
/// function of the library wrote it. An answer made from the catalog after reading
/// ``generation`` is good for as long as the generation stays the same, so the web gallery
/// keeps its pages and serves them again without rendering, and is never stale: the number is
/// raised when the commit returns, before the caller is told of it.
public final class PhotoChanges: TransactionObserver, Sendable {
    private let counter = Atomic<UInt64>(0)
    /// Whether the transaction in progress changed the table (the writer's queue only).
    private let pending = Atomic<Bool>(false)

    init() {}

    /// The number of committed changes to the photos so far, starting from 0 at each opening.
    public var generation: UInt64 { counter.load(ordering: .acquiring) }

    public func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        eventKind.tableName == "photo"
    }

    public func databaseDidChange(with event: DatabaseEvent) {
        pending.store(true, ordering: .relaxed)
    }

    public func databaseDidChange() {
        pending.store(true, ordering: .relaxed)
    }

    public func databaseDidCommit(_ db: Database) {
        if pending.exchange(false, ordering: .relaxed) { counter.add(1, ordering: .releasing) }
    }

    public func databaseDidRollback(_ db: Database) {
        pending.store(false, ordering: .relaxed)
    }
}
