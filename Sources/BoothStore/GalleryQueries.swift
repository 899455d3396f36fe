import BoothCore
import Foundation
import GRDB

/// What the gallery reads of the catalog, and never writes: the listings, counts and places that
/// the web's pages and the booth's screens show, the albums, a photo by its id, thumbnails, and
/// near-duplicates. Every question is made of the named requests of the `photo` table
/// (`PhotoRequests.swift`), and read in one transaction.
///
/// A catalog row whose id is not a photo id (``PhotoRecord/wellFormedID``) has no identity to
/// show it by: the booth never writes one (a hand edit or damage does), every listing and count
/// leaves it out alike, and ``LibraryMaintenance/check()`` reports it. The test costs a pattern
/// match per row, so queries make it only when the library found such rows at opening.
package struct GalleryQueries: Sendable {
    let catalog: Catalog
    /// How many catalog rows had an id that is not a photo id when the library was opened.
    let malformedRowCount: Int

    /// The photos `query` picks, newest first: a page of `limit` after the first `offset` (all
    /// when `limit` is nil). Hidden photos are left out unless `includingHidden`.
    package func photos(
        _ query: PhotoQuery = .all, skipping offset: Int = 0, limit: Int? = nil, includingHidden: Bool = false
    ) throws(LibraryError) -> [Photo] {
        guard var request = shown(includingHidden: includingHidden).picked(by: query)?.newestFirst() else { return [] }
        if limit != nil || offset > 0 { request = request.limit(limit ?? -1, offset: max(offset, 0)) }
        return try catalog.read("list photos") { db in try Self.withParts(request.fetchAll(db).map(\.photo), in: db) }
    }

    /// `photos`, each composed picture with its shots: one query for them all.
    static func withParts(_ photos: [Photo], in db: Database) throws -> [Photo] {
        let composed = photos.filter { $0.kind != .photo || $0.layout != nil }.map(\.id)
        guard !composed.isEmpty else { return photos }
        let parts = try PartRecord.parts(of: composed, in: db)
        return photos.map { photo in
            var photo = photo
            photo.parts = parts[photo.id] ?? []
            return photo
        }
    }

    /// How many photos `query` picks; hidden ones count only when `includingHidden`.
    package func count(_ query: PhotoQuery = .all, includingHidden: Bool = false) throws(LibraryError) -> Int {
        guard let request = shown(includingHidden: includingHidden).picked(by: query) else { return 0 }
        return try catalog.read("count photos") { db in try request.fetchCount(db) }
    }

    /// The photos hidden from guests, newest first: what an operator looks through to unhide one.
    package func hiddenPhotos() throws(LibraryError) -> [Photo] {
        let request = shown(includingHidden: true).hidden().newestFirst()
        return try catalog.read("list hidden photos") { db in try Self.withParts(request.fetchAll(db).map(\.photo), in: db) }
    }

    /// How many visible photos come before `photo` in the newest-first order: its index in the
    /// list that ``photos(_:skipping:limit:includingHidden:)`` pages through.
    package func position(of photo: Photo) throws(LibraryError) -> Int {
        let request = shown().newer(than: PhotoPlace(photo))
        return try catalog.read("find a photo's page") { db in try request.fetchCount(db) }
    }

    /// Where the newest photo whose name starts with `prefix` is in the gallery (the visible
    /// photos, newest first), names compared as ``NameKey`` does; `nil` when no name does. The
    /// booth's gallery jumps there as a guest types.
    package func position(ofNameStartingWith prefix: String) throws(LibraryError) -> Int? {
        let key = NameKey.fold(prefix)
        guard !key.isEmpty else { return nil }
        let newest = shown().named(startingWith: key).newestFirst()
        return try catalog.read("find a name") { db in
            guard let photo = try newest.fetchOne(db)?.photo else { return nil }
            return try shown().newer(than: PhotoPlace(photo)).fetchCount(db)
        }
    }

    /// Where a photo stands in the listing `query` picks (visible photos, newest first): how
    /// many come before it, and its neighbours. `nil` when the listing does not hold it.
    package func neighbours(of photo: Photo, in query: PhotoQuery) throws(LibraryError) -> PhotoNeighbours? {
        guard let listing = shown().picked(by: query) else { return nil }
        let place = PhotoPlace(photo)
        return try catalog.read("find a photo's neighbours") { db in
            guard try !listing.photo(photo.id).isEmpty(db) else { return nil }
            // The nearest newer photo is the oldest of the newer ones: the index read backwards.
            return PhotoNeighbours(
                position: try listing.newer(than: place).fetchCount(db),
                newer: try listing.newer(than: place).oldestFirst().fetchOne(db)?.photo,
                older: try listing.older(than: place).newestFirst().fetchOne(db)?.photo)
        }
    }

    /// The photo with this id, or `nil`; a hidden photo is `nil` unless `includingHidden`.
    package func photo(id: UUID, includingHidden: Bool = false) throws(LibraryError) -> Photo? {
        let request = shown(includingHidden: includingHidden).photo(id)
        return try catalog.read("look up a photo") { db in try Self.withParts(request.fetchOne(db).map { [$0.photo] } ?? [], in: db).first }
    }

    /// The photo whose id is `reference` or starts with it (as with git commits, a few
    /// characters are enough when they are unique), hidden or not.
    package func photo(matching reference: String) throws(LibraryError) -> Photo {
        let prefix = reference.lowercased().trimmingCharacters(in: .whitespaces)
        guard !prefix.isEmpty, prefix.allSatisfy({ $0.isHexDigit || $0 == "-" }) else {
            throw LibraryError.unknownPhoto(reference)
        }
        let request = shown(includingHidden: true).photos(withIDStartingWith: prefix).limit(2)
        let matches = try catalog.read("look up a photo") { db in try Self.withParts(request.fetchAll(db).map(\.photo), in: db) }
        switch matches.count {
        case 0: throw LibraryError.unknownPhoto(reference)
        case 1: return matches[0]
        default: throw LibraryError.ambiguousPhoto(reference)
        }
    }

    /// The thumbnail JPEG of a photo; `nil` for an unknown photo, and for a hidden one unless
    /// `includingHidden`.
    package func thumbnail(of id: UUID, includingHidden: Bool = false) throws(LibraryError) -> Data? {
        let request = PhotoRecord.all().shown(includingHidden: includingHidden, wellFormedOnly: malformedRowCount > 0).photo(id)
            .select(PhotoRecord.Columns.thumbnail, as: Data.self)
        return try catalog.read("read a thumbnail") { db in try request.fetchOne(db) }
    }

    /// The photos a query may see, as listings read them.
    func shown(includingHidden: Bool = false) -> QueryInterfaceRequest<ListedPhoto> {
        ListedPhoto.all().shown(includingHidden: includingHidden, wellFormedOnly: malformedRowCount > 0)
    }
}

/// A photo's place in a listing: how many photos come before it, the one just before (newer)
/// and the one just after (older).
package struct PhotoNeighbours: Sendable, Hashable {
    /// How many photos of the listing come before it.
    package var position: Int
    package var newer: Photo?
    package var older: Photo?

    package init(position: Int, newer: Photo? = nil, older: Photo? = nil) {
        self.position = position
        self.newer = newer
        self.older = older
    }
}
