import BoothCore
import BoothStore
import Foundation
import HTTPTypes
import Hummingbird

/// The captive portal of the booth's own Wi-Fi: "Just taken", the page a joining phone opens by
/// itself, and the RFC 8908 API that the hotspot's DHCP server announces (RFC 8910).
extension WebContext {
    var portalRoutes: [Route] {
        [
            Route(.get, GalleryPortal.justTakenPath) { request, _ in
                try await keeping(request, varying: try pageVariant(request)) { try await justTakenPage(request) }
            },
            Route(.get, GalleryPortal.apiPath) { _, _ in try captivePortalAPI() },
        ]
    }

    /// How many pictures "Just taken" shows: a guest who just posed finds theirs among the last
    /// few, at the top, without scrolling.
    static let justTakenCount = 8

    /// `/just-taken`: the last pictures, newest first, each opening its page; new ones appear
    /// at the top as they are taken.
    func justTakenPage(_ request: Request) async throws -> KeptAnswer {
        let frame = try frame(for: request)
        let language = frame.language
        let texts = language.texts
        let (photos, _) = try await visiblePage(1, size: Self.justTakenCount)
        let heading = texts(.webJustTaken)
        let view = GalleryView(
            frame: frame, photos: photos.map { card(for: $0, in: language) }, pageText: "", newerPath: nil, olderPath: nil,
            isLive: true, showsPageNumber: false, heading: heading, countText: language.photoCount(photos.count),
            emptyText: texts(.webEmpty), searchText: "", welcome: nil, title: heading + " \u{00B7} " + settings.boothName)
        return pages.rendered(view, "gallery")
    }

    /// The captive-portal API (RFC 8908): the network is captive, and its portal is "Just
    /// taken". A booth without its own Wi-Fi has none.
    func captivePortalAPI() throws -> Response {
        guard let guests = settings.hotspot else {
            throw WebError.notFound("This booth runs no Wi-Fi of its own (hotspot.enabled), so it has no captive portal.")
        }
        struct Answer: Encodable {
            let captive: Bool
            let userPortalURL: String
            enum CodingKeys: String, CodingKey {
                case captive
                case userPortalURL = "user-portal-url"
            }
        }
        var response = Response.json(Answer(captive: true, userPortalURL: guests.portalURL), headers: [.cacheControl: "private, no-store"])
        response.headers[.contentType] = "application/captive+json"
        return response
    }

    /// The paths a phone on the hotspot is not given unless `hotspot.admin`: the admin page and
    /// API, and the metrics.
    var operatorPaths: Set<String> {
        Set(adminRoutes.map(\.path)).union(["/metrics"])
    }

    /// Throws 404 for a phone on the hotspot when the operator has not opened the admin to it:
    /// the page does not exist as far as guests can tell.
    func refuseHotspotGuests(_ context: GalleryRequestContext) throws {
        guard let guests = settings.hotspot, !guests.admin, guests.contains(ClientAddress(context.channel.remoteAddress)) else { return }
        throw WebError.notFound("There is nothing at this address. The gallery starts at /.", text: .webNothingHere)
    }
}
