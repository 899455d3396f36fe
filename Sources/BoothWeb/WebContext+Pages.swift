import BoothCore
import BoothStore
import Foundation
import Hummingbird

/// The HTML pages: the grid of photos (all of them, a search, an album), newest first and
/// paged; the albums; each photo's own page; the slideshow.
extension WebContext {
    var pageRoutes: [Route] {
        [
            Route(.get, "/") { request, _ in
                try await keeping(request, varying: try pageVariant(request)) { try await galleryPage(request, try PhotoListing.from(request)) }
            },
            Route(.get, "/albums") { request, _ in
                try await keeping(request, varying: try pageVariant(request)) { try await albumsPage(request) }
            },
            Route(.get, "/albums/favourites") { request, _ in
                try await keeping(request, varying: try pageVariant(request)) {
                    try await galleryPage(request, PhotoListing(source: .album(.favourites, key: "")))
                }
            },
            Route(.get, "/albums/day/{day}") { request, context in
                try await keeping(request, varying: try pageVariant(request)) {
                    try await galleryPage(request, PhotoListing(source: .album(.day, key: try albumKey(.day, "day", context))))
                }
            },
            Route(.get, "/albums/name/{name}") { request, context in
                try await keeping(request, varying: try pageVariant(request)) {
                    try await galleryPage(request, PhotoListing(source: .album(.name, key: try albumKey(.name, "name", context))))
                }
            },
            Route(.get, "/photos/{id}") { request, context in
                let id = try photoID(from: context)
                // A guest's deletion key is checked against the clock: that page is made each time.
                guard FormValues(query: request.uri.query)["key"] == nil else { return try await photoPage(id, request).response }
                return try await keeping(request, varying: try pageVariant(request)) { try await photoPage(id, request) }
            },
            Route(.get, "/slideshow") { request, _ in
                try await keeping(request, varying: try pageVariant(request)) { try await slideshowPage(request) }
            },
        ]
    }

    /// One page of a listing's grid (`?page=N`). An empty listing is a page that says so; a
    /// page past the last is a 404 that points to the first.
    func galleryPage(_ request: Request, _ listing: PhotoListing) async throws -> KeptAnswer {
        let frame = try frame(for: request)
        let language = frame.language
        let page = try Self.queryNumber(request, "page", default: 1, range: Self.pages)
        let pageSize = Self.pageSize
        let (photos, count) = try await visiblePage(page, size: pageSize, of: listing.query)
        let pageCount = Self.pageCount(photos: count, pageSize: pageSize)
        guard page <= pageCount else {
            throw WebError.notFound(
                "These photos fill \(pageCount) page\(pageCount == 1 ? "" : "s"); there is no page \(page). The first is at \(listing.path).")
        }
        let texts = language.texts
        var heading: String?
        var emptyText = texts(.webEmpty)
        var searchText = ""
        switch listing.source {
        case .all:
            break
        case .search(let text):
            heading = texts(.webSearchHeading, ["query": text])
            emptyText = texts(.webSearchEmpty, ["query": text])
            searchText = text
        case .album(let kind, let key):
            heading = albumTitle(kind, key: key, title: photos.first?.caption.text ?? key, in: language)
            emptyText = texts(.webAlbumEmpty)
        }
        let pageText = texts(.webPage, ["page": "\(page)", "count": "\(pageCount)"])
        var title = heading ?? settings.boothName
        if pageCount > 1 { title += " \u{00B7} " + pageText }
        let view = GalleryView(
            frame: frame, photos: photos.map { card(for: $0, in: language, from: listing) },
            pageText: pageText,
            newerPath: page > 1 ? listing.path(page: page - 1) : nil, olderPath: page < pageCount ? listing.path(page: page + 1) : nil,
            isLive: page == 1 && listing == .all, showsPageNumber: pageCount > 1, heading: heading,
            countText: heading == nil ? nil : language.photoCount(count), emptyText: emptyText, searchText: searchText,
            welcome: listing == .all && !settings.welcome.isEmpty ? settings.welcome : nil, title: title)
        return pages.rendered(view, "gallery")
    }

    /// An album's title: the favourites' word, a day in the reader's form, or the name as its
    /// newest photo spells it.
    func albumTitle(_ kind: Album.Kind, key: String, title: String, in language: BoothLanguage) -> String {
        switch kind {
        case .favourites: return language.texts(.webFavourites)
        case .name: return title
        case .day:
            return PhotoQuery.start(ofDay: key).map(language.day) ?? key
        }
    }

    /// An album's key from the path parameter `name`, percent-decoded and checked.
    func albumKey(_ kind: Album.Kind, _ name: String, _ context: GalleryRequestContext) throws -> String {
        let raw = context.parameters.get(name) ?? ""
        guard let decoded = raw.removingPercentEncoding else {
            throw WebError.badRequest("\"\(raw.prefix(60))\" is not a well-formed album name.")
        }
        return try PhotoListing.albumKey(kind, decoded)
    }

    /// `/albums`: every album with its cover, title and count.
    func albumsPage(_ request: Request) async throws -> KeptAnswer {
        let frame = try frame(for: request)
        let albums = try await library.offloaded { library throws(LibraryError) -> [(Album, Photo?)] in
            var albums: [(Album, Photo?)] = []
            for album in try library.gallery.albums() { albums.append((album, try library.gallery.photo(id: album.cover))) }
            return albums
        }
        let cards = albums.map { album, cover in
            AlbumCard(
                title: albumTitle(album.kind, key: album.key, title: album.title, in: frame.language),
                countText: frame.language.photoCount(album.count), path: PhotoListing.albumPath(album.kind, album.key),
                coverPath: GalleryPaths.thumbnail(of: album.cover), coverWidth: cover?.width ?? 4, coverHeight: cover?.height ?? 3)
        }
        return pages.rendered(AlbumsView(frame: frame, albums: cards), "albums")
    }

    /// `/photos/{id}`: the photo at full size, with links to the photos before and after it in
    /// the listing it was opened from (`q` or `album`), and back to where it is in that grid.
    /// Opened with a guest's deletion key (`key`), it offers to delete the photo.
    func photoPage(_ id: UUID, _ request: Request) async throws -> KeptAnswer {
        let frame = try frame(for: request)
        var listing = try PhotoListing.from(request)
        let query = listing.query
        let found = try await library.offloaded { library throws(LibraryError) -> (Photo, PhotoNeighbours?, PhotoNeighbours?)? in
            guard var photo = try library.gallery.photo(id: id) else { return nil }
            if photo.kind != .photo { photo.parts = try library.parts(of: id) }
            let inListing = query == .all ? nil : try library.gallery.neighbours(of: photo, in: query)
            return (photo, inListing, inListing == nil ? try library.gallery.neighbours(of: photo, in: .all) : nil)
        }
        guard let (photo, inListing, inAll) = found else { throw WebError.photoOnItsWay(id) }
        // A photo no longer in the listing it was opened from (renamed, say) is shown among all.
        if inListing == nil { listing = .all }
        let neighbours = inListing ?? inAll ?? PhotoNeighbours(position: 0)
        let language = frame.language
        let texts = language.texts
        var deletePath: String?
        var keyNotice: String?
        if let key = FormValues(query: request.uri.query)["key"] {
            (deletePath, keyNotice) = try await deletionOffer(for: photo, key: key, in: language)
        }
        let back = listing.path(page: neighbours.position / Self.pageSize + 1) + "#p-\(id.lowercased)"
        let shots = photo.parts.map { part in
            ShotLink(
                path: GalleryPaths.shot(part.index + 1, of: id),
                label: texts(.shotOfCount, ["number": "\(part.index + 1)", "count": "\(photo.parts.count)"]))
        }
        let view = PhotoView(
            frame: frame, photo: card(for: photo, in: language, from: listing), backPath: back,
            newerPath: neighbours.newer.map { listing.photoPath($0.id) }, olderPath: neighbours.older.map { listing.photoPath($0.id) },
            authorText: texts(.webAuthor, ["author": author(of: photo)]),
            printPath: guestPrints == nil ? nil : GalleryPaths.print(of: id), deletePath: deletePath,
            keyNotice: keyNotice,
            shots: shots, hasShots: !shots.isEmpty)
        return pages.rendered(view, "photo")
    }

    /// Who took a photo: this booth, or the booth of the event it came from.
    func author(of photo: Photo) -> String {
        photo.origin == nil ? settings.boothName : (photo.booth ?? photo.origin ?? "")
    }

    /// The most photos a slideshow goes through before it reloads for the newest list.
    static let slideshowLength = 500

    /// `/slideshow`: the photos one after another, full screen, for a TV at the event:
    /// favourites first, then the others newest first; a photo is shown as soon as it is
    /// saved.
    func slideshowPage(_ request: Request) async throws -> KeptAnswer {
        let frame = try frame(for: request)
        let length = Self.slideshowLength
        let photos = try await library.offloaded { library throws(LibraryError) -> [Photo] in
            let favourites = try library.gallery.photos(.favourites, limit: length)
            let others = try library.gallery.photos(.all, limit: length).filter { !$0.favourite }
            return Array((favourites + others).prefix(length))
        }
        return pages.rendered(SlideshowView(frame: frame, slides: photos.map { card(for: $0, in: frame.language) }), "slideshow")
    }

    /// Page `page` (from 1) of `size` visible photos `query` picks, newest first, and how many
    /// there are; a page past the last is empty. One catalog read, off the cooperative pool.
    func visiblePage(_ page: Int, size: Int, of query: PhotoQuery = .all) async throws -> (photos: [Photo], count: Int) {
        try await library.offloaded { library throws(LibraryError) -> ([Photo], Int) in
            let count = try library.gallery.count(query)
            guard page <= Self.pageCount(photos: count, pageSize: size) else { return ([], count) }
            return (try library.gallery.photos(query, skipping: (page - 1) * size, limit: size), count)
        }
    }

    /// How many pages `photos` photos fill; an empty library is one (empty) page.
    static func pageCount(photos: Int, pageSize: Int) -> Int {
        max(1, (photos + pageSize - 1) / pageSize)
    }

    /// The pages a request may ask for, as `docs/openapi.yaml` states them: a million pages
    /// of 30 is far more than any booth takes.
    static let pages = 1...1_000_000

    /// A whole-number query parameter within `range`; `fallback` when absent; a 400 that says
    /// what is expected otherwise.
    static func queryNumber(_ request: Request, _ name: String, default fallback: Int, range: ClosedRange<Int>) throws -> Int {
        guard let raw = request.uri.queryParameters[name[...]] else { return fallback }
        if let number = Int(raw), range.contains(number) { return number }
        throw WebError.badRequest(
            "The \(name) parameter must be a whole number from \(range.lowerBound) to \(range.upperBound); \"\(raw.prefix(40))\" is not.")
    }
}
