import BoothCore
import BoothStore
import Foundation
import Hummingbird

/// Which photos a grid pages through (every photo, a search, an album) and the addresses that
/// keep a guest in it: its pages, and the photo pages opened from it, whose previous, next and
/// back links stay within the same photos.
struct PhotoListing: Sendable, Hashable {
    enum Source: Sendable, Hashable {
        case all
        /// The words as the guest typed them.
        case search(String)
        case album(Album.Kind, key: String)
    }

    let source: Source

    static let all = PhotoListing(source: .all)

    /// The store's query for these photos.
    var query: PhotoQuery {
        switch source {
        case .all: .all
        case .search(let text): .search(text)
        case .album(.favourites, _): .favourites
        case .album(.day, let key): .day(key)
        case .album(.name, let key): .name(key)
        }
    }

    /// The grid's address without a page: `/`, `/?q=zoe`, `/albums/day/2026-11-23`.
    var path: String {
        switch source {
        case .all: "/"
        case .search(let text): "/?q=\(Self.encoded(text))"
        case .album(let kind, let key): Self.albumPath(kind, key)
        }
    }

    /// Page `page` (from 1) of the grid.
    func path(page: Int) -> String {
        guard page > 1 else { return path }
        return path + (path.contains("?") ? "&" : "?") + "page=\(page)"
    }

    /// The query a photo page opened from this grid carries: empty for the whole gallery,
    /// `q=zoe` for a search, `album=day/2026-11-23` for an album.
    var photoQuery: String {
        switch source {
        case .all: ""
        case .search(let text): "q=\(Self.encoded(text))"
        case .album(.favourites, _): "album=favourites"
        case .album(let kind, let key): "album=\(kind.rawValue)/\(Self.encoded(key))"
        }
    }

    /// A photo's page as opened from this grid.
    func photoPath(_ id: UUID) -> String {
        let query = photoQuery
        return GalleryPaths.page(of: id) + (query.isEmpty ? "" : "?" + query)
    }

    /// An album's address: `/albums/favourites`, `/albums/day/2026-11-23`, `/albums/name/zoe`.
    static func albumPath(_ kind: Album.Kind, _ key: String) -> String {
        kind == .favourites ? "/albums/favourites" : "/albums/\(kind.rawValue)/\(encoded(key))"
    }

    /// The longest search a guest may type, in characters: longer than any name a booth takes.
    static let maximumSearchLength = 100

    /// The listing a page's query asks for: `q` (a search), else `album` (`favourites`,
    /// `day/YYYY-MM-DD`, `name/KEY`); every photo without either. A bad value of either is a 400
    /// that says what is expected; an empty or blank search is no search.
    static func from(_ request: Request) throws -> PhotoListing {
        let form = FormValues(query: request.uri.query)
        // Both are checked whichever is used: a malformed value is an error even beside the other.
        let album = try form["album"].map(albumSource)
        if let text = form["q"] {
            // Checked as sent, before trimming: a tab or a line break at either end is as wrong
            // as one inside, and the limit counts what the guest sent.
            guard text.count <= maximumSearchLength else {
                throw WebError.badRequest(
                    "A search is at most \(maximumSearchLength) characters; this one has \(text.count). Type part of the name.")
            }
            guard !Self.holdsControlCharacters(text) else {
                throw WebError.badRequest("A search cannot hold control characters (such as a line break or a tab). Type the name as text.")
            }
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if !trimmed.isEmpty { return PhotoListing(source: .search(trimmed)) }
        }
        return album.map { PhotoListing(source: $0) } ?? .all
    }

    /// Whether `text` holds a control character (a line break, a tab): no name or search does.
    static func holdsControlCharacters(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// An album named as the `album` parameter names it.
    static func albumSource(_ text: String) throws -> Source {
        if text == "favourites" { return .album(.favourites, key: "") }
        // Split by scalars: a name that starts with a combining mark (a skin tone) makes one
        // character of it and the slash.
        let parts = text.unicodeScalars.split(separator: "/", maxSplits: 1).map(String.init)
        if parts.count == 2, let kind = Album.Kind(rawValue: parts[0]), kind != .favourites {
            return .album(kind, key: try albumKey(kind, parts[1]))
        }
        throw WebError.badRequest(
            "The album parameter must be favourites, day/YYYY-MM-DD or name/NAME; \"\(text.prefix(60))\" is none of them.")
    }

    /// An album's key, checked: a day is `YYYY-MM-DD`, a name is text, folded as the albums fold
    /// names.
    static func albumKey(_ kind: Album.Kind, _ raw: String) throws -> String {
        switch kind {
        case .favourites:
            return ""
        case .day:
            guard raw.wholeMatch(of: /\d{4}-\d{2}-\d{2}/) != nil else {
                throw WebError.badRequest("A day's album is named by its date, such as 2026-11-23; \"\(raw.prefix(40))\" is not a date.")
            }
            return raw
        case .name:
            // A blank name is nobody's: its album is empty, as an unknown name's is.
            guard raw.count <= maximumSearchLength, !holdsControlCharacters(raw) else {
                throw WebError.badRequest("A name's album is named by the name, of at most \(maximumSearchLength) characters of text.")
            }
            return NameKey.fold(raw)
        }
    }

    /// `text` percent-encoded for a path segment or a query value (``FormValues/encoded(_:)``).
    static func encoded(_ text: String) -> String {
        FormValues.encoded(text)
    }
}
