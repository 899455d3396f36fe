import BoothCore
import BoothStore
import Foundation
import HTTPTypes
import Hummingbird

/// The JSON API, documented in `docs/openapi.yaml`. A list item is shaped like one of
/// picsum.photos' `/v2/list` (`id`, `author`, `width`, `height`, `url`, `download_url`) with
/// the booth's own fields beside it, so tools written for picsum read the booth's photos.
extension WebContext {
    var apiRoutes: [Route] {
        [
            Route(.get, "/api/photos") { request, _ in
                try await keeping(request, varying: origin(of: request)) { try await photoList(request) }
            },
            Route(.get, "/api/photos/{id}") { request, context in
                let id = try photoID(from: context)
                return try await keeping(request, varying: origin(of: request)) { try await photoResource(id, request) }
            },
            Route(.get, "/api/albums") { request, _ in
                let language = try BoothLanguage.of(request, fallback: settings.language).language
                return try await keeping(request, varying: language.code + " " + origin(of: request)) { try await albumList(request) }
            },
            Route(.get, "/api/status") { _, _ in try await status() },
        ]
    }

    /// `/api/photos?q=&album=&page=&limit=`: a page of visible photos (those whose name has
    /// the words of `q`, or those of an album, or all), newest first, with `Link`
    /// (`rel="prev"`, `rel="next"`) and `X-Total-Count` headers. A page past the end is empty.
    func photoList(_ request: Request) async throws -> KeptAnswer {
        let listing = try PhotoListing.from(request)
        let page = try Self.queryNumber(request, "page", default: 1, range: Self.pages)
        let limit = try Self.queryNumber(request, "limit", default: Self.pageSize, range: 1...Self.maximumPageSize)
        let (photos, count) = try await visiblePage(page, size: limit, of: listing.query)
        let origin = origin(of: request)
        let filter = listing.photoQuery.isEmpty ? "" : listing.photoQuery + "&"
        var links: [String] = []
        if page > 1 {
            links.append("<\(origin)/api/photos?\(filter)page=\(page - 1)&limit=\(limit)>; rel=\"prev\"")
        }
        if page < Self.pageCount(photos: count, pageSize: limit) {
            links.append("<\(origin)/api/photos?\(filter)page=\(page + 1)&limit=\(limit)>; rel=\"next\"")
        }
        var headers: HTTPFields = [Self.totalCount: String(count)]
        if !links.isEmpty { headers[Self.link] = links.joined(separator: ", ") }
        return .json(photos.map { resource(for: $0, origin: origin) }, headers: headers)
    }

    /// `/api/photos/{id}`: one visible photo.
    func photoResource(_ id: UUID, _ request: Request) async throws -> KeptAnswer {
        .json(resource(for: try await visiblePhoto(id), origin: origin(of: request)))
    }

    /// `/api/albums`: every album (the favourites, one per day, one per name) with its title
    /// in the reader's language (`Accept-Language`), its count and its cover.
    func albumList(_ request: Request) async throws -> KeptAnswer {
        let language = try BoothLanguage.of(request, fallback: settings.language).language
        let albums = try await library.offloaded { library throws(LibraryError) in try library.gallery.albums() }
        let origin = origin(of: request)
        return .json(
            albums.map { album in
                AlbumResource(
                    kind: album.kind.rawValue, title: albumTitle(album.kind, key: album.key, title: album.title, in: language),
                    count: album.count, coverID: album.cover.lowercased, url: origin + PhotoListing.albumPath(album.kind, album.key))
            }, headers: language.headers(chosen: false))
    }

    /// `/api/status`: the booth's state and the number of visible photos.
    func status() async throws -> Response {
        let count = try await library.offloaded { library throws(LibraryError) in try library.gallery.count() }
        let booth = live.status()
        return .json(
            StatusResource(
                state: booth.state, cameraConnected: booth.cameraConnected, storageOK: booth.storageProblem == nil,
                since: booth.since.utcTimestamp, photoCount: count,
                sync: booth.sync.map {
                    SyncResource(
                        pending: $0.pending, oldestPendingSeconds: $0.oldestPending.map { max(0, Int(Date().timeIntervalSince($0))) },
                        lastSuccess: $0.lastSuccess?.utcTimestamp, lastError: $0.lastError,
                        clockOffsetSeconds: $0.clockOffset.map { Int($0.rounded()) })
                }, printer: booth.printer, hotspot: booth.hotspot))
    }

    /// A photo in the API's words, with absolute URLs from `origin`.
    func resource(for photo: Photo, origin: String) -> PhotoResource {
        PhotoResource(
            id: photo.id.lowercased, author: author(of: photo),
            width: photo.width, height: photo.height,
            url: origin + GalleryPaths.page(of: photo.id), downloadURL: origin + GalleryPaths.original(of: photo),
            caption: photo.caption.text, createdAt: photo.createdAt.utcTimestamp,
            thumbnailURL: origin + GalleryPaths.thumbnail(of: photo.id), favourite: photo.favourite)
    }

    static let link = HTTPField.Name("Link")!
    static let totalCount = HTTPField.Name("X-Total-Count")!
}

/// A photo in the JSON API (schema `Photo` of `docs/openapi.yaml`).
struct PhotoResource: Encodable, Sendable {
    var id: String
    /// The booth's name, where picsum names the photographer.
    var author: String
    var width: Int
    var height: Int
    /// The photo's page.
    var url: String
    /// The original JPEG.
    var downloadURL: String
    var caption: String
    /// ISO 8601 UTC with milliseconds.
    var createdAt: String
    var thumbnailURL: String
    /// One of the operator's favourites.
    var favourite: Bool
}

/// An album in the JSON API (schema `Album` of `docs/openapi.yaml`).
struct AlbumResource: Encodable, Sendable {
    /// `favourites`, `day` or `name`.
    var kind: String
    var title: String
    var count: Int
    /// The photo that stands for it: its newest.
    var coverID: String
    /// The album's page.
    var url: String
}

/// The booth's state in the JSON API (schema `Status` of `docs/openapi.yaml`).
struct StatusResource: Encodable, Sendable {
    var state: String
    var cameraConnected: Bool
    /// Whether photos can be saved (`/healthz` says why not).
    var storageOK: Bool
    /// When the booth entered this state, ISO 8601 UTC with milliseconds.
    var since: String
    /// Photos guests can see.
    var photoCount: Int
    /// The event sync; absent when the booth does not sync.
    var sync: SyncResource?
    /// The printer; absent when the booth does not print.
    var printer: PrinterReport?
    /// The booth's own Wi-Fi; absent when it runs none.
    var hotspot: HotspotReport?
}

/// The event sync in the JSON API (schema `SyncStatus` of `docs/openapi.yaml`).
struct SyncResource: Encodable, Sendable {
    var pending: Int
    var oldestPendingSeconds: Int?
    var lastSuccess: String?
    var lastError: String?
    /// The store's clock minus the booth's, once known.
    var clockOffsetSeconds: Int?

    // Absent values are left out rather than written as null: the synthesized encoding of
    // optionals (encodeIfPresent).
}
