import BoothCore
import Foundation

/// The web gallery's part of the configuration: where it listens, how guests reach it, and who
/// may administer it.
public struct WebConfiguration: Sendable, Hashable {
    /// Whether the booth serves the gallery at all (`--no-http` turns it off).
    public var enabled = true
    /// The address to listen on: all interfaces by default.
    public var address = "0.0.0.0"
    public var port = 8080
    /// How guests' phones reach the booth, such as `http://booth.local:8080`: the QR code after
    /// each save links to a page under it. `nil`: the booth's own address on its network.
    public var publicURL: String?
    /// The secret that allows hiding and deleting photos over the web; `nil` turns those off.
    public var adminToken: String?
    /// The name on the gallery's pages, and the "author" of every photo in the API.
    public var boothName = "Photobooth"
    /// How creation times are written, on the screen and in the gallery.
    public var dateFormat = PhotoDateFormat.standard

    public init() {}

    /// Whether `value` is an IPv4 address in dotted decimal ("192.168.1.20") or an IPv6
    /// address ("::1"), as the web server binds it. Host names are refused: they may resolve
    /// to nothing at boot, before the network is up. The corresponding C function is
    /// `inet_pton`.
    public static func isIPAddress(_ value: String) -> Bool {
        var address = in6_addr()
        return inet_pton(AF_INET, value, &address) == 1 || inet_pton(AF_INET6, value, &address) == 1
    }

    /// `value` when it is an `http://` or `https://` address with a host and nothing after the
    /// path, without a trailing slash; `nil` otherwise.
    static func publicURL(_ value: String) -> String? {
        guard let url = URL(string: value), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty, url.query == nil, url.fragment == nil
        else { return nil }
        return value.hasSuffix("/") ? String(value.dropLast()) : value
    }
}
