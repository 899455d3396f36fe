import BoothCore
import Foundation
import GRDB

/// Where a photo stands in the newest-first order: its time, then its number for photos taken
/// in the same millisecond.
struct PhotoPlace: Sendable, Hashable {
    /// The photo's `created_at`.
    var createdAt: String
    var number: Int

    init(_ photo: Photo) {
        createdAt = photo.createdAt.utcTimestamp
        number = photo.number
    }

    init(createdAt: String, number: Int) {
        self.createdAt = createdAt
        self.number = number
    }
}

extension PhotoRecord {
    /// Whether a row's id is a photo id as the catalog writes them: a UUID in lowercase
    /// (``UUID/lowercased``), which is what lookups by id compare with. The condition of the
    /// partial index `photo_malformed_id` (migration v9), which holds the rows it refuses.
    static let wellFormedID: String = {
        let hex = "[0-9a-f]"
        let groups = [8, 4, 4, 4, 12].map { String(repeating: hex, count: $0) }
        return "id GLOB '\(groups.joined(separator: "-"))'"
    }()

    /// The condition of the partial indexes of visible photos (`photo_visible_newest_first`,
    /// `photo_visible_by_name`, `photo_visible_favourites`), as they state it.
    static let visibleCondition: SQL = "hidden = 0"

    /// ``wellFormedID``, to be stated in a request.
    static let wellFormedCondition = SQL(sql: wellFormedID)
}

/// The named requests of the `photo` table. Conditions that a partial index holds are written
/// into the SQL as the index states them, never bound: SQLite uses a partial index only for a
/// query that states the index's own condition.
extension DerivableRequest where RowDecoder: PhotoTable {
    /// The photos guests see: not hidden. The condition of `photo_visible_newest_first`,
    /// `photo_visible_by_name` and `photo_visible_favourites`.
    func visible() -> Self {
        filter(literal: PhotoRecord.visibleCondition)
    }

    /// The photos hidden from guests.
    func hidden() -> Self {
        filter(sql: "hidden = 1")
    }

    /// The rows whose id is a photo id (``PhotoRecord/wellFormedID``).
    func wellFormed() -> Self {
        filter(literal: PhotoRecord.wellFormedCondition)
    }

    /// The rows whose id is not a photo id: the rows of the partial index `photo_malformed_id`.
    func malformed() -> Self {
        filter(literal: "NOT (\(PhotoRecord.wellFormedCondition))")
    }

    /// The photos a query may see: visible ones unless `includingHidden`, and, when
    /// `wellFormedOnly` (the catalog has rows without a photo id), never such a row. Without
    /// either, every row, so that the plain newest-first index serves the query.
    func shown(includingHidden: Bool = false, wellFormedOnly: Bool) -> Self {
        var request = self
        if !includingHidden { request = request.visible() }
        if wellFormedOnly { request = request.wellFormed() }
        return request
    }

    /// The photo with this id.
    func photo(_ id: UUID) -> Self {
        filter(PhotoRecord.Columns.id == id.lowercased)
    }

    /// The photos whose id starts with `prefix`.
    func photos(withIDStartingWith prefix: String) -> Self {
        filter(literal: "substr(\(PhotoRecord.Columns.id), 1, \(prefix.count)) = \(prefix)")
    }

    /// Newest first; photos taken in the same millisecond by their number. The order of the
    /// `photo_newest_first` index (and of `photo_visible_newest_first`, which holds only the
    /// visible photos), so a page never sorts the catalog.
    func newestFirst() -> Self {
        order(PhotoRecord.Columns.createdAt.desc, PhotoRecord.Columns.number.desc)
    }

    /// Oldest first, the same index read forwards.
    func oldestFirst() -> Self {
        order(PhotoRecord.Columns.createdAt, PhotoRecord.Columns.number)
    }

    /// The photos before `place` in the newest-first order.
    func newer(than place: PhotoPlace) -> Self {
        typealias Columns = PhotoRecord.Columns
        return filter(Columns.createdAt > place.createdAt || (Columns.createdAt == place.createdAt && Columns.number > place.number))
    }

    /// The photos after `place` in the newest-first order.
    func older(than place: PhotoPlace) -> Self {
        typealias Columns = PhotoRecord.Columns
        return filter(Columns.createdAt < place.createdAt || (Columns.createdAt == place.createdAt && Columns.number < place.number))
    }

    /// The photos taken from `start` (included) to `end` (excluded), as `created_at` writes them.
    func taken(from start: String, to end: String) -> Self {
        filter(PhotoRecord.Columns.createdAt >= start && PhotoRecord.Columns.createdAt < end)
    }

    /// The photos whose name has this key (``NameKey/fold(_:)``): one album of names.
    func named(_ key: String) -> Self {
        filter(PhotoRecord.Columns.nameKey == key)
    }

    /// The photos whose name's key starts with `key`. The range [key, key + U+10FFFF) holds
    /// exactly such keys, and the name index answers it without a scan.
    func named(startingWith key: String) -> Self {
        filter(PhotoRecord.Columns.nameKey >= key && PhotoRecord.Columns.nameKey < key + "\u{10FFFF}")
    }

    /// The photos with a name of their own (not a placeholder).
    func withNames() -> Self {
        filter(PhotoRecord.Columns.nameKey != "")
    }

    /// The operator's favourites, stated as `photo_visible_favourites` states it.
    func favourites() -> Self {
        filter(sql: "favourite = 1")
    }

    /// The photos whose name has every one of `words` (folded, not empty) as the start of one of
    /// its words, through the full-text index. Each word is quoted, so that no word is read as an
    /// FTS5 operator, and made a prefix.
    func matching(words: [String]) -> Self {
        let pattern = words.map { "\"\($0.replacingOccurrences(of: "\"", with: "\"\""))\"*" }.joined(separator: " ")
        return filter(literal: "\(PhotoRecord.Columns.number) IN (SELECT rowid FROM photo_search WHERE photo_search MATCH \(pattern))")
    }

    /// The photos whose perceptual hash is not known yet: the rows of the partial index
    /// `photo_without_hash`, stated as it states them.
    func withoutPerceptualHash() -> Self {
        filter(sql: "perceptual_hash IS NULL")
    }

    /// The photos whose perceptual hash is known.
    func withPerceptualHash() -> Self {
        filter(PhotoRecord.Columns.perceptualHash != nil)
    }

    /// The photos `query` picks; `nil` when it can pick nothing (a search without a word, a day
    /// that is no date).
    func picked(by query: PhotoQuery) -> Self? {
        switch query {
        case .all:
            return self
        case .search(let text):
            let words = NameKey.words(text)
            return words.isEmpty ? nil : matching(words: words)
        case .name(let name):
            let key = NameKey.fold(name)
            return key.isEmpty ? nil : named(key)
        case .day(let day):
            guard let (start, end) = PhotoQuery.utcRange(ofLocalDay: day) else { return nil }
            return taken(from: start, to: end)
        case .favourites:
            return favourites()
        }
    }
}
