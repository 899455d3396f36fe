import BoothCore
import Foundation

/// Which photos a listing shows: all of them, those whose name has the words searched for, one
/// album. Guests page through each newest first, like the whole gallery.
package enum PhotoQuery: Sendable, Hashable {
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
    package static func start(ofDay day: String) -> Date? {
        guard let match = day.wholeMatch(of: /(\d{4})-(\d{2})-(\d{2})/),
            let year = Int(match.1), let month = Int(match.2), let dayOfMonth = Int(match.3)
        else { return nil }
        let components = DateComponents(year: year, month: month, day: dayOfMonth)
        guard components.isValidDate(in: Calendar.local) else { return nil }
        return Calendar.local.date(from: components)
    }
}

/// A group of photos guests can open: one per name, one per day of the event, the favourites.
package struct Album: Sendable, Hashable {
    package enum Kind: String, Sendable, Hashable, CaseIterable {
        case favourites
        case day
        case name
    }

    package var kind: Kind
    /// What the album is keyed by in its address: the folded name, the day (`YYYY-MM-DD`), or
    /// empty for the favourites.
    package var key: String
    /// The album's title: the name as most of its photos spell it (of spellings used as often,
    /// the newest photo's), the day, or empty for the favourites (whose title is a word in the
    /// reader's language).
    package var title: String
    /// How many photos it holds.
    package var count: Int
    /// Its newest photo, which stands for it.
    package var cover: UUID

    /// The listing of this album's photos.
    package var query: PhotoQuery {
        switch kind {
        case .favourites: .favourites
        case .day: .day(key)
        case .name: .name(key)
        }
    }

    package init(kind: Kind, key: String, title: String, count: Int, cover: UUID) {
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

extension PhotoQuery {
    /// The local day of `date` in the booth's time zone, `YYYY-MM-DD`.
    static func localDay(of date: Date) -> String {
        let day = Calendar.local.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", day.year ?? 0, day.month ?? 0, day.day ?? 0)
    }

    /// The catalog's timestamps (UTC) from the start of local day `day` (`YYYY-MM-DD`) to the
    /// start of the next; `nil` when `day` is not a date.
    static func utcRange(ofLocalDay day: String) -> (start: String, end: String)? {
        guard let start = start(ofDay: day), let end = Calendar.local.date(byAdding: .day, value: 1, to: start) else { return nil }
        return (start.utcTimestamp, end.utcTimestamp)
    }
}
