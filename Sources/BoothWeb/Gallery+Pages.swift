import BoothCore
import BoothStore
import Foundation
import Hummingbird

/// The HTML pages: the grid of photos, newest first and paged, and each photo's own page.
extension Gallery {
    var pageRoutes: [Route] {
        [
            Route(.get, "/") { request, _ in try await galleryPage(request) },
            Route(.get, "/photos/{id}") { _, context in try await photoPage(try photoID(from: context)) },
        ]
    }

    /// `/?page=N`: one page of the grid. An empty library is a page that says so; a page past
    /// the last is a 404 that points to the first.
    func galleryPage(_ request: Request) async throws -> Response {
        let page = try Self.queryNumber(request, "page", default: 1, range: Self.pages)
        let pageSize = Self.pageSize
        let (photos, count) = try await visiblePage(page, size: pageSize)
        let pageCount = Self.pageCount(photos: count, pageSize: pageSize)
        guard page <= pageCount else {
            throw WebError.notFound(
                "The gallery has \(pageCount) page\(pageCount == 1 ? "" : "s"); there is no page \(page). The newest photos are at /.")
        }
        return pages.gallery(
            GalleryView(
                boothName: settings.boothName, photos: photos.map(card(for:)), page: page, pageCount: pageCount,
                pageSize: pageSize))
    }

    /// `/photos/{id}`: the photo at full size, with a link back to the grid page it is on.
    func photoPage(_ id: UUID) async throws -> Response {
        let found = try await library.offloaded { library throws(LibraryError) -> (Photo, Int)? in
            guard let photo = try library.photo(id: id) else { return nil }
            return (photo, try library.position(of: photo))
        }
        guard let (photo, position) = found else { throw WebError.photoOnItsWay(id) }
        let back = GalleryPaths.gallery(page: position / Self.pageSize + 1)
        return pages.photo(PhotoView(boothName: settings.boothName, photo: card(for: photo), backPath: back))
    }

    /// Page `page` (from 1) of `size` visible photos, newest first, and how many visible photos
    /// there are; a page past the last is empty. One catalog read, off the cooperative pool.
    func visiblePage(_ page: Int, size: Int) async throws -> (photos: [Photo], count: Int) {
        try await library.offloaded { library throws(LibraryError) -> ([Photo], Int) in
            let count = try library.count()
            guard page <= Self.pageCount(photos: count, pageSize: size) else { return ([], count) }
            return (try library.photos(skipping: (page - 1) * size, limit: size), count)
        }
    }

    /// How many pages `photos` photos fill; an empty library is one (empty) page.
    static func pageCount(photos: Int, pageSize: Int) -> Int {
        max(1, (photos + pageSize - 1) / pageSize)
    }

    /// A whole-number query parameter within `range`; `fallback` when absent; a 400 that says
    /// what is expected otherwise.
    /// The pages a request may ask for, as `docs/openapi.yaml` states them: a million pages
    /// of 30 is far more than any booth takes.
    static let pages = 1...1_000_000

    static func queryNumber(_ request: Request, _ name: String, default fallback: Int, range: ClosedRange<Int>) throws -> Int {
        guard let raw = request.uri.queryParameters[name[...]] else { return fallback }
        if let number = Int(raw), range.contains(number) { return number }
        throw WebError.badRequest(
            "The \(name) parameter must be a whole number from \(range.lowerBound) to \(range.upperBound); \"\(raw.prefix(40))\" is not.")
    }
}
