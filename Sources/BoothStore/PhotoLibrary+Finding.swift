import BoothCore
import Foundation
import GRDB

/// Which photos a listing shows: all of them, those whose name has the words searched for, one
/// album. Guests page through each newest first, like the whole gallery.
public enum PhotoQuery: Sendable, Hashable {
    /// Every photo.
    case all
    /// Photos whose name has every word of the text (case and accents aside), each word as
    /// the start of a word of the name: "zoe" finds "Zoë", "ann ben" finds "Anna & Ben". A text
    /// with no letter or digit finds nothing.
    case search(String)
    /// The album of a name: the photos whose name is this one, compared as ``NameKey`` does.
    case name(String)
    /// The album of a day, `YYYY-MM-DD` in the booth's local time.
    case day(String)
    /// The operator's favourites.
    case favourites

    /// When local day `day` (`YYYY-MM-DD`, as ``day(_:)`` takes it) begins in the booth's time
    /// zone; `nil` when `day` is not a real date ("2026-02-30").
    public static func start(ofDay day: String) -> Date? {
        guard let match = day.wholeMatch(of: /(\d{4})-(\d{2})-(\d{2})/),
            let year = Int(match.1), let month = Int(match.2), let dayOfMonth = Int(match.3)
        else { return nil }
        let components = DateComponents(year: year, month: month, day: dayOfMonth)
        guard components.isValidDate(in: Calendar.local) else { return nil }
        return Calendar.local.date(from: components)
    }
}

/// A group of photos guests can open: one per name, one per day of the event, the favourites.
public struct Album: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case favourites
        case day
        case name
    }

    public var kind: Kind
    /// What the album is keyed by in its address: the folded name, the day (`YYYY-MM-DD`), or
    /// empty for the favourites.
    public var key: String
    /// The album's title: the name as most of its photos spell it (of spellings used as often,
    /// the newest photo's), the day, or empty for the favourites (whose title is a word in the
    /// reader's language).
    public var title: String
    /// How many photos it holds.
    public var count: Int
    /// Its newest photo, which stands for it.
    public var cover: UUID

    /// The listing of this album's photos.
    public var query: PhotoQuery {
        switch kind {
        case .favourites: .favourites
        case .day: .day(key)
        case .name: .name(key)
        }
    }

    public init(kind: Kind, key: String, title: String, count: Int, cover: UUID) {
        self.kind = kind
        self.key = key
        self.title = title
        self.count = count
        self.cover = cover
    }
}

extension Calendar {
    /// The Gregorian calendar in the booth's time zone, which says where its days end.
    static var local: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        return calendar
    }
}

extension PhotoLibrary {
    /// A page of the photos `query` picks, newest first: `limit` after the first `offset` (all
    /// when `limit` is nil). Hidden photos are left out unless `includingHidden`.
    public func photos(
        _ query: PhotoQuery, skipping offset: Int = 0, limit: Int? = nil, includingHidden: Bool = false
    ) throws(LibraryError) -> [Photo] {
        guard let (condition, arguments) = Self.condition(of: query) else { return [] }
        let sql = """
            SELECT \(Self.photoColumns) FROM photo WHERE \(shown(includingHidden)) AND \(condition)
            ORDER BY \(Self.newestFirst) LIMIT ? OFFSET ?
            """
        return try read("list photos") { db in
            try Row.fetchAll(db, sql: sql, arguments: arguments + [limit ?? -1, max(offset, 0)]).map(Self.photo(from:))
        }
    }

    /// How many photos `query` picks; hidden ones count only when `includingHidden`.
    public func count(_ query: PhotoQuery, includingHidden: Bool = false) throws(LibraryError) -> Int {
        guard let (condition, arguments) = Self.condition(of: query) else { return 0 }
        return try read("count photos") { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM photo WHERE \(shown(includingHidden)) AND \(condition)", arguments: arguments) ?? 0
        }
    }

    /// The albums guests see: the favourites (when there are any), one per day, oldest day
    /// first, then one per name, alphabetically. Photos without a name of their own (the
    /// placeholder "Photo 42") belong to no name's album; hidden photos to none.
    public func albums() throws(LibraryError) -> [Album] {
        try read("list albums") { db in
            var albums: [Album] = []
            // SQLite takes the bare columns of a row with MAX() from the row that has it: the
            // newest favourite is the cover.
            if let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*) AS count, id, MAX(created_at || printf('%012d', number))
                    FROM photo WHERE \(shown(false)) AND favourite = 1
                    """),
                let cover = UUID(uuidString: (row["id"] as String?) ?? ""), (row["count"] as Int) > 0
            {
                albums.append(Album(kind: .favourites, key: "", title: "", count: row["count"], cover: cover))
            }
            albums += try dayAlbums(db)
            let titles = try nameTitles(db)
            // Counted over the name index alone, then each album's newest photo read by its key.
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT album.name_key, album.count, cover.id, cover.caption FROM (
                        SELECT name_key, COUNT(*) AS count, MAX(created_at) AS newest
                        FROM photo WHERE \(shown(false)) AND name_key != '' GROUP BY name_key
                    ) AS album JOIN photo AS cover ON cover.rowid = (
                        SELECT rowid FROM photo WHERE \(shown(false)) AND name_key = album.name_key AND created_at = album.newest
                        ORDER BY number DESC LIMIT 1)
                    ORDER BY album.name_key
                    """)
            {
                guard let cover = UUID(uuidString: row["id"]) else { continue }
                let key: String = row["name_key"]
                let title = titles[key] ?? Caption(sanitizing: row["caption"] as String)?.text ?? key
                albums.append(Album(kind: .name, key: key, title: title, count: row["count"], cover: cover))
            }
            return albums
        }
    }

    /// Each name album's title, by its key: the spelling most of its visible photos have
    /// ("Alice" three times beats "ALICE " twice), the newest photo's among spellings used as
    /// often. One pass over the named photos, grouped by spelling.
    private func nameTitles(_ db: Database) throws -> [String: String] {
        var best: [String: (uses: Int, newest: String, title: String)] = [:]
        for row in try Row.fetchAll(
            db,
            sql: """
                SELECT name_key, caption, COUNT(*) AS uses, MAX(created_at || printf('%012d', number)) AS newest
                FROM photo WHERE \(shown(false)) AND name_key != '' GROUP BY name_key, caption
                """)
        {
            guard let title = Caption(sanitizing: row["caption"] as String)?.text else { continue }
            let candidate = (uses: row["uses"] as Int, newest: row["newest"] as String, title: title)
            let key: String = row["name_key"]
            if let current = best[key], (current.uses, current.newest) >= (candidate.uses, candidate.newest) { continue }
            best[key] = candidate
        }
        return best.mapValues(\.title)
    }

    /// One album per local day with photos, oldest first. Days are found by stepping through
    /// the newest-first index from one day's end to the next photo, so the cost grows with the
    /// number of days, not of photos, and the booth's time zone decides where a day ends (as
    /// it does for the guests who took them).
    private func dayAlbums(_ db: Database) throws -> [Album] {
        var albums: [Album] = []
        var next = try String.fetchOne(db, sql: "SELECT MIN(created_at) FROM photo WHERE \(shown(false))")
        while let timestamp = next, let date = Date(utcTimestamp: timestamp) {
            let day = Self.localDay(of: date)
            guard let (start, end) = Self.utcRange(ofLocalDay: day) else { break }
            let count =
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM photo WHERE \(shown(false)) AND created_at >= ? AND created_at < ?",
                    arguments: [start, end]) ?? 0
            let cover = try String.fetchOne(
                db,
                sql: """
                    SELECT id FROM photo WHERE \(shown(false)) AND created_at >= ? AND created_at < ?
                    ORDER BY \(Self.newestFirst) LIMIT 1
                    """,
                arguments: [start, end])
            if count > 0, let cover = cover.flatMap(UUID.init(uuidString:)) {
                albums.append(Album(kind: .day, key: day, title: day, count: count, cover: cover))
            }
            next = try String.fetchOne(
                db, sql: "SELECT MIN(created_at) FROM photo WHERE \(shown(false)) AND created_at >= ?", arguments: [end])
        }
        return albums
    }

    /// The local day of `date` in the booth's time zone, `YYYY-MM-DD`.
    static func localDay(of date: Date) -> String {
        let day = Calendar.local.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", day.year ?? 0, day.month ?? 0, day.day ?? 0)
    }

    /// The catalog's timestamps (UTC) from the start of local day `day` (`YYYY-MM-DD`) to the
    /// start of the next; `nil` when `day` is not a date.
    static func utcRange(ofLocalDay day: String) -> (start: String, end: String)? {
        guard let start = PhotoQuery.start(ofDay: day), let end = Calendar.local.date(byAdding: .day, value: 1, to: start)
        else { return nil }
        return (start.utcTimestamp, end.utcTimestamp)
    }

    /// Where the newest photo whose name starts with `prefix` is in the gallery (the visible
    /// photos, newest first), names compared as ``NameKey`` does; `nil` when no name does. The
    /// booth's gallery jumps there as a guest types.
    public func position(ofNameStartingWith prefix: String) throws(LibraryError) -> Int? {
        let key = NameKey.fold(prefix)
        guard !key.isEmpty else { return nil }
        return try read("find a name") { db in
            // The range [key, key + U+10FFFF) holds exactly the keys that start with `key`, and
            // the name index answers it without a scan.
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT created_at, number FROM photo WHERE \(shown(false)) AND name_key >= ? AND name_key < ?
                        ORDER BY \(Self.newestFirst) LIMIT 1
                        """,
                    arguments: [key, key + "\u{10FFFF}"])
            else { return nil }
            return try countNewer(than: (row["created_at"], row["number"]), in: db)
        }
    }

    /// The SQL condition and its arguments for `query`; `nil` when it can pick nothing (a
    /// search without a word).
    static func condition(of query: PhotoQuery) -> (String, StatementArguments)? {
        switch query {
        case .all:
            return ("1", [])
        case .search(let text):
            let words = NameKey.words(text)
            guard !words.isEmpty else { return nil }
            // Each word quoted (so that no word is read as an FTS5 operator) and a prefix.
            let match = words.map { "\"\($0.replacingOccurrences(of: "\"", with: "\"\""))\"*" }.joined(separator: " ")
            return ("number IN (SELECT rowid FROM photo_search WHERE photo_search MATCH ?)", [match])
        case .name(let name):
            let key = NameKey.fold(name)
            guard !key.isEmpty else { return nil }
            return ("name_key = ?", [key])
        case .day(let day):
            guard let (start, end) = utcRange(ofLocalDay: day) else { return nil }
            return ("created_at >= ? AND created_at < ?", [start, end])
        case .favourites:
            return ("favourite = 1", [])
        }
    }
}
