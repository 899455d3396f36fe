import BoothWeb
import Foundation

/// The address of a photo's page in the web gallery, for the QR code on the "Saved as" screen.
///
/// The booth cannot always know how guests reach it (a name on the network, a router's port
/// forward), so the configuration may say (`http.public_url`); otherwise the address the
/// gallery listens on when it is one, or else the booth's own IPv4 address on its network,
/// looked up at each save, since a booth that boots before the network is up gets its
/// address later. A gallery that listens on the loopback only has nothing to link to. A booth
/// with its own Wi-Fi links its address there (port 80, which leads to the gallery), unless a
/// public address is configured: that one resolves to the booth on its Wi-Fi too, and serves
/// the same path from anywhere once the photo is synced (`photobooth serve`).
struct PhotoLinks: Sendable {
    /// `http.public_url`, without a trailing slash, or `nil` for the booth's own address.
    let publicURL: String?
    /// The address and port the gallery listens on.
    let address: String
    let port: Int
    /// Whether the booth serves the gallery; without it there is nothing to link to.
    let enabled: Bool
    /// What signs the key that lets the guest delete the photo for a while; `nil`: no key.
    var deletionKeys: DeletionKeys?
    /// The booth's own Wi-Fi: without a public address, pages are linked at the booth's address
    /// on it, where a guest who joined it finds them; `nil` when the booth runs none.
    var hotspot: HotspotPlan?

    /// The photo page's address, or `nil` when the booth has none to give (no gallery, no
    /// network). It never carries a key: anyone may see it (``deletionKey(for:)``).
    func link(to id: UUID) -> String? {
        guard enabled, let base = publicURL ?? hotspot?.galleryURL ?? listeningHost().map({ "http://\($0):\(port)" }) else { return nil }
        return base + GalleryServer.pagePath(of: id)
    }

    /// The key that lets the guest delete photo `id` from its page, valid for a while from when
    /// the photo was taken, for the guest's own screens only (``BoothCore/PhotoLink``); `nil`
    /// without ``deletionKeys``.
    func deletionKey(for id: UUID) -> String? {
        deletionKeys?.key(for: id)
    }

    /// The host guests can reach the gallery at, without a public address configured.
    private func listeningHost() -> String? {
        switch address {
        case "0.0.0.0", "::", "": Self.ownAddress()
        case "localhost", "::1": nil
        case let loopback where loopback.hasPrefix("127."): nil
        case let ipv6 where ipv6.contains(":"): "[\(ipv6)]"
        default: address
        }
    }

    /// The first IPv4 address of an interface that is up and not the loopback, such as
    /// "192.168.1.20". The corresponding C function is `getifaddrs`.
    static func ownAddress() -> String? {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return nil }
        defer { freeifaddrs(list) }
        for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
            let flags = Int32(entry.pointee.ifa_flags)
            guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET),
                flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0
            else { continue }
            var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            let found = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4 in
                var raw = ipv4.pointee.sin_addr
                return inet_ntop(AF_INET, &raw, &text, socklen_t(text.count)) != nil
            }
            if found { return String(decoding: text.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self) }
        }
        return nil
    }
}
