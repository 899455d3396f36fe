import BoothCore
import Foundation
import HTTPTypes
import Hummingbird
import Synchronization

/// The phones on the booth's own Wi-Fi, as the gallery tells them apart: by their address on
/// its network. They are guests and nothing more: the admin page and API are not there for them
/// (unless ``admin``), each may hold ``connectionsPerClient`` connections and make
/// ``requestsPerSecond`` requests a second, so that no phone slows the booth, and a page they
/// ask of another site (their phone's connectivity check, a bookmark) sends them to "Just
/// taken", which is how a phone finds the captive portal and opens it by itself.
package struct HotspotGuests: Sendable, Hashable {
    /// The booth's address on its Wi-Fi, host order.
    package let boothAddress: UInt32
    package let prefixLength: Int
    package let admin: Bool
    package let requestsPerSecond: Int
    package let connectionsPerClient: Int

    package init(boothAddress: UInt32, prefixLength: Int, admin: Bool, requestsPerSecond: Int, connectionsPerClient: Int) {
        self.boothAddress = boothAddress
        self.prefixLength = prefixLength
        self.admin = admin
        self.requestsPerSecond = requestsPerSecond
        self.connectionsPerClient = connectionsPerClient
    }

    /// The booth's address as a host: `10.42.0.1`.
    package var boothHost: String {
        (0..<4).map { String(boothAddress >> (24 - 8 * $0) & 0xFF) }.joined(separator: ".")
    }

    /// "Just taken" at the booth's address, port 80 (which leads to the gallery).
    package var portalURL: String { "http://\(boothHost)\(GalleryPortal.justTakenPath)" }

    /// Whether `client` is a phone on the booth's Wi-Fi.
    func contains(_ client: ClientAddress) -> Bool {
        guard let address = client.ipv4 else { return false }
        let mask = UInt32.max << (32 - prefixLength)
        return address & mask == boothAddress & mask
    }

    /// Whether a request's `Host` names the booth itself (its address, with or without a port).
    func namesBooth(_ authority: String?) -> Bool {
        guard let authority, !authority.isEmpty else { return true }
        let host = authority.split(separator: ":", maxSplits: 1).first.map(String.init) ?? authority
        return host == boothHost
    }
}

/// How many requests each phone on the hotspot may still make: a bucket of tokens per address
/// that fills at ``HotspotGuests/requestsPerSecond`` and holds twice as many, so that a page
/// and its thumbnails load at once and a phone that keeps asking is slowed to the rate.
final class RequestRate: Sendable {
    private struct Bucket {
        var tokens: Double
        var at: MonotonicInstant
    }

    private let rate: Double
    private let burst: Double
    private let buckets = Mutex([UInt32: Bucket]())
    /// Buckets kept at most; full ones are forgotten first (a full bucket is a new one).
    private static let kept = 1024

    init(perSecond: Int) {
        rate = Double(perSecond)
        burst = Double(2 * perSecond)
    }

    /// Takes a token of `client`'s at `now`; `false` when it has none left.
    func allows(_ client: UInt32, at now: MonotonicInstant) -> Bool {
        let (rate, burst) = (rate, burst)
        return buckets.withLock { buckets in
            var bucket = buckets[client] ?? Bucket(tokens: burst, at: now)
            let elapsed = Double(max(0, now.nanoseconds - bucket.at.nanoseconds)) / 1e9
            bucket.tokens = min(burst, bucket.tokens + elapsed * rate)
            bucket.at = now
            let allowed = bucket.tokens >= 1
            if allowed { bucket.tokens -= 1 }
            if buckets[client] == nil, buckets.count >= Self.kept {
                buckets = buckets.filter { Double(max(0, now.nanoseconds - $0.value.at.nanoseconds)) / 1e9 * rate + $0.value.tokens < burst }
            }
            buckets[client] = bucket
            return allowed
        }
    }
}

/// The gallery's rules for phones on the hotspot (``HotspotGuests``): the rate of requests, and
/// "Just taken" for an address the gallery does not have on a host that is not the booth's.
struct CaptivePortal: RouterMiddleware {
    typealias Context = GalleryRequestContext

    let guests: HotspotGuests
    let rate: RequestRate
    let clock: @Sendable () -> MonotonicInstant

    init(_ guests: HotspotGuests, clock: @escaping @Sendable () -> MonotonicInstant) {
        self.guests = guests
        self.rate = RequestRate(perSecond: guests.requestsPerSecond)
        self.clock = clock
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let client = ClientAddress(context.channel.remoteAddress)
        guard guests.contains(client), let address = client.ipv4 else { return try await next(request, context) }
        guard rate.allows(address, at: clock()) else {
            throw WebError(
                status: .tooManyRequests, message: "Too many requests from this phone at once: wait a second and try again.",
                headers: [.retryAfter: "1"])
        }
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound && !guests.namesBooth(request.head.authority) {
            // A connectivity check (generate_204, hotspot-detect.html, connecttest.txt,
            // canonical.html...) or any other site's page: the portal. Not 204, not the page
            // the phone expects, so it knows the network is captive and shows the portal.
            return Response(status: .found, headers: [.location: guests.portalURL, .cacheControl: "no-store"])
        }
    }
}
