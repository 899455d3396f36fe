import BoothCore
import Foundation
import GRDB

extension GalleryQueries {
    /// The albums guests see: the favourites (when there are any), one per day, oldest day
    /// first, then one per name, alphabetically. Photos without a name of their own (the
    /// placeholder "Photo 42") belong to no name's album; hidden photos to none.
    package func albums() throws(LibraryError) -> [Album] {
        try catalog.read("list albums") { db in
            var albums: [Album] = []
            let favourites = shown().favourites()
            let count = try favourites.fetchCount(db)
            if count > 0, let cover = try favourites.newestFirst().fetchOne(db)?.photo {
                albums.append(Album(kind: .favourites, key: "", title: "", count: count, cover: cover.id))
            }
            albums += try dayAlbums(db)
            let titles = try nameTitles(db)
            for album in try nameAlbums().fetchAll(db) {
                guard let cover = UUID(uuidString: album.cover) else { continue }
                let title = titles[album.key] ?? Caption(sanitizing: album.caption)?.text ?? album.key
                albums.append(Album(kind: .name, key: album.key, title: title, count: album.count, cover: cover))
            }
            return albums
        }
    }

    /// One album of names as ``nameAlbums()`` reads it.
    struct NameAlbumRow: Decodable, FetchableRecord {
        var key: String
        var count: Int
        /// The id of its newest photo.
        var cover: String
        /// The newest photo's name.
        var caption: String
    }

    /// The albums of names, by key: how many visible photos have each name key, and the newest
    /// of them. Counted over the name index alone, then each album's newest photo read by its
    /// key: one statement, whose correlated subquery the query interface cannot say.
    private func nameAlbums() -> SQLRequest<NameAlbumRow> {
        let shown = shownCondition
        return """
            SELECT album.name_key AS key, album.count, cover.id AS cover, cover.caption FROM (
                SELECT name_key, COUNT(*) AS count, MAX(created_at) AS newest
                FROM photo WHERE \(shown) AND name_key != '' GROUP BY name_key
            ) AS album JOIN photo AS cover ON cover.rowid = (
                SELECT rowid FROM photo WHERE \(shown) AND name_key = album.name_key AND created_at = album.newest
                ORDER BY number DESC LIMIT 1)
            ORDER BY album.name_key
            """
    }

    /// One spelling of a name as ``nameTitles(_:)`` reads it.
    private struct SpellingRow: Decodable, FetchableRecord {
        var key: String
        var caption: String
        var uses: Int
        /// The newest photo's `created_at` and number, as one text that sorts as they do.
        var newest: String
    }

    /// Each name album's title, by its key: the spelling most of its visible photos have
    /// ("Alice" three times beats "ALICE " twice), the newest photo's among spellings used as
    /// often. One pass over the named photos, grouped by spelling.
    private func nameTitles(_ db: Database) throws -> [String: String] {
        let spellings: SQLRequest<SpellingRow> = """
            SELECT name_key AS key, caption, COUNT(*) AS uses, MAX(created_at || printf('%012d', number)) AS newest
            FROM photo WHERE \(shownCondition) AND name_key != '' GROUP BY name_key, caption
            """
        var best: [String: (uses: Int, newest: String, title: String)] = [:]
        for spelling in try spellings.fetchAll(db) {
            guard let title = Caption(sanitizing: spelling.caption)?.text else { continue }
            if let current = best[spelling.key], (current.uses, current.newest) >= (spelling.uses, spelling.newest) { continue }
            best[spelling.key] = (spelling.uses, spelling.newest, title)
        }
        return best.mapValues(\.title)
    }

    /// One album per local day with photos, oldest first. Days are found by stepping through
    /// the newest-first index from one day's end to the next photo, so the cost grows with the
    /// number of days, not of photos, and the booth's time zone decides where a day ends (as
    /// it does for the guests who took them).
    private func dayAlbums(_ db: Database) throws -> [Album] {
        var albums: [Album] = []
        let first = shown().oldestFirst().select(PhotoRecord.Columns.createdAt, as: String.self)
        var next = try first.fetchOne(db)
        while let timestamp = next, let date = Date(utcTimestamp: timestamp) {
            let day = PhotoQuery.localDay(of: date)
            guard let (start, end) = PhotoQuery.utcRange(ofLocalDay: day) else { break }
            let photos = shown().taken(from: start, to: end)
            let count = try photos.fetchCount(db)
            if count > 0, let cover = try photos.newestFirst().fetchOne(db)?.photo {
                albums.append(Album(kind: .day, key: day, title: day, count: count, cover: cover.id))
            }
            next = try first.filter(PhotoRecord.Columns.createdAt >= end).fetchOne(db)
        }
        return albums
    }

    /// The condition of ``shown(includingHidden:)`` for guests, for the statements the query
    /// interface cannot say: the same conditions, so that the same partial index serves them.
    private var shownCondition: SQL {
        malformedRowCount > 0 ? "\(PhotoRecord.visibleCondition) AND \(PhotoRecord.wellFormedCondition)" : PhotoRecord.visibleCondition
    }
}
