import BoothCore
import BoothStore
import Foundation
import Hummingbird
import Logging

/// What every part of the web gallery shares: the library, the live booth, the settings, the
/// page templates and the counters.
struct WebContext: Sendable {
    let library: PhotoLibrary
    let live: BoothFeeds
    let settings: WebSettings
    let pages: PageRenderer
    let metrics: WebMetrics
    /// Answers made from the catalog, kept until its photos change.
    let kept: ResponseCache
    /// The connections open now, within the settings' limits.
    let connections: ConnectionTable
    /// The wrong admin tokens of each client, and the waits they earned.
    let wrongTokens = WrongTokens()
    let logger: Logger
    /// How often the event stream sends a keep-alive comment when no photo comes.
    let eventKeepAlive: Duration

    /// Photos per gallery page, and the API's default page size.
    static let pageSize = 30
    /// The most photos one API page may hold.
    static let maximumPageSize = 100

    init(library: PhotoLibrary, live: BoothFeeds, settings: WebSettings, logger: Logger, eventKeepAlive: Duration = .seconds(15)) {
        self.library = library
        self.live = live
        self.settings = settings
        self.pages = PageRenderer(boothName: settings.boothName)
        self.metrics = WebMetrics()
        self.kept = ResponseCache(library: library)
        self.connections = ConnectionTable(limits: settings.connectionLimits ?? .forThisProcess(), metrics: metrics, logger: logger)
        self.logger = logger
        self.eventKeepAlive = eventKeepAlive
    }

    /// The visible photo with this id, or a 404 that does not tell a hidden photo from a
    /// missing one.
    func visiblePhoto(_ id: UUID) async throws -> Photo {
        guard let photo = try await library.offloaded({ library throws(LibraryError) in try library.gallery.photo(id: id) }) else {
            throw WebError.unknownPhoto(id)
        }
        return photo
    }

    /// What pages and events show of a photo, in `language`; its page opened from `listing`.
    func card(for photo: Photo, in language: BoothLanguage, from listing: PhotoListing = .all) -> PhotoCard {
        PhotoCard(
            id: photo.id.lowercased, caption: photo.caption.text, width: photo.width, height: photo.height,
            createdAt: photo.createdAt.utcTimestamp,
            createdText: takenText(photo.createdAt, in: language),
            pagePath: listing.photoPath(photo.id), thumbnailPath: GalleryPaths.thumbnail(of: photo.id),
            originalPath: GalleryPaths.original(of: photo), downloadPath: GalleryPaths.download(of: photo),
            mediaType: photo.kind.isAnimated ? "image/gif" : "image/jpeg", fileExtension: photo.kind.fileExtension,
            favourite: photo.favourite)
    }

    /// "Taken on 22/11/2026 at 14h05", in the booth's time zone and `language`: its own form,
    /// or the operator's pattern (`gallery.date_format`) with the language's names of months.
    func takenText(_ date: Date, in language: BoothLanguage) -> String {
        // Without a pattern of the operator's, the settings hold the booth's language's form.
        let format = settings.dateFormat == settings.language.dateFormat ? language.dateFormat : settings.dateFormat.localized(for: language)
        return format.string(from: date)
    }

    /// The frame of a page for `request`, in the reader's language.
    func frame(for request: Request) throws -> PageFrame {
        let (language, chosen) = try BoothLanguage.of(request, fallback: settings.language)
        return PageFrame(boothName: settings.boothName, language: language, chosen: chosen, request: request)
    }

    /// `http://host[:port]` as the client reached the booth (its `Host` header, which HTTP
    /// types call the authority), so that the API's absolute URLs work from the client's side
    /// of any address or name. Without a usable `Host`, the address the gallery listens on.
    func origin(of request: Request) -> String {
        if let host = request.head.authority, Self.isPlausibleHost(host) {
            return "http://\(host)"
        }
        return "http://\(settings.address):\(settings.port)"
    }

    /// A host name, IPv4 or bracketed IPv6 address with an optional port: nothing that could
    /// break out of a URL or a header.
    /// Read byte by byte: it runs for every API request, kept or not.
    static func isPlausibleHost(_ host: String) -> Bool {
        !host.isEmpty && host.utf8.count <= 255
            && host.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
                case UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: ":"), UInt8(ascii: "["), UInt8(ascii: "]"): true
                default: false
                }
            }
    }
}

/// A photo as the pages, the event stream and the gallery's script see it.
struct PhotoCard: Sendable, Encodable {
    var id: String
    var caption: String
    var width: Int
    var height: Int
    /// ISO 8601 UTC with milliseconds.
    var createdAt: String
    /// "Taken on 22/11/2026 at 14h05", in the booth's time zone.
    var createdText: String
    var pagePath: String
    var thumbnailPath: String
    var originalPath: String
    var downloadPath: String
    /// The original's type and extension, for a file shared from the page.
    var mediaType: String
    var fileExtension: String
    /// One of the operator's favourites.
    var favourite: Bool

    /// The JSON of an event (schema `PhotoEvent`) leaves out the download's path: the
    /// gallery's script links to the photo's page, the slideshow shows the original.
    enum CodingKeys: CodingKey {
        case id, caption, width, height, createdAt, createdText, pagePath, thumbnailPath, originalPath
    }
}
