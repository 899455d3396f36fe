import Glibc
import NIOCore

/// How many connections the web gallery holds at once: in all, and from one client.
///
/// Every connection is a file descriptor, and the booth's capture path needs descriptors of
/// its own (the photo's file and its folder, the catalog, the devices): a flood of idle
/// connections must never take them. The total is derived from the process's limit on open
/// files, less ``reservedDescriptors`` for the rest of the booth, at most
/// ``descriptorsPerConnection`` for each connection (see ``fitting(descriptors:)``).
package struct ConnectionLimits: Sendable, Equatable, CustomStringConvertible {
    /// Connections open at once, from every client together.
    package var total: Int
    /// Connections open at once from one client (``ClientAddress``): an IPv4 address, or an
    /// IPv6 /64 network. Clients on the booth itself (loopback) are held to ``total`` only.
    package var perClient: Int
    /// Phones on the booth's own Wi-Fi, held to their own limit (``HotspotGuests``).
    package var hotspot: HotspotGuests?

    /// The connections `client` may hold at once.
    func perClient(for client: ClientAddress) -> Int {
        guard let hotspot, hotspot.contains(client) else { return perClient }
        return min(perClient, hotspot.connectionsPerClient)
    }

    /// Limits of `total` connections, `perClient` from one client.
    package init(total: Int, perClient: Int = ConnectionLimits.defaultPerClient) {
        self.total = max(1, total)
        self.perClient = max(1, min(perClient, self.total))
    }

    /// 64 from one client: a browser opens at most 6 connections to a site, and a phone with
    /// the gallery, the slideshow and a live stream open in a few tabs some more; wrk's usual
    /// 64 fit too. A client that wants more holds them only to take them from the others, and
    /// 64 leaves room for every guest of an event.
    package static let defaultPerClient = 64

    /// Descriptors left to the rest of the booth, whatever the web does: the photo being
    /// written and its folder, the catalog's connections (each with its write-ahead log and
    /// shared memory), the devices, the event loops and thread pools, the sync's connections
    /// to the bucket, the journal. An idle simulated booth with the sync on holds about 60.
    package static let reservedDescriptors = 256

    /// What one connection may hold: its socket, an original the connection sends from its
    /// file (``KeptAnswerHandler``, one at a time) and one the router sends.
    package static let descriptorsPerConnection = 3

    /// The most connections the web holds however many descriptors it may open: an idle
    /// connection costs some KB of memory (its channel, buffers and task), and a booth on a
    /// small board must keep its memory for photos.
    package static let most = 4096

    /// The descriptors the booth would like to be allowed: enough for ``most`` connections and
    /// the reserve.
    package static let descriptorsWanted = reservedDescriptors + most * descriptorsPerConnection

    /// The limits for a process allowed `descriptors` open files: what is left after the
    /// reserve, shared by ``descriptorsPerConnection`` per connection, at most ``most``; a
    /// handful even when the limit leaves nothing (the booth then has other troubles).
    package static func fitting(descriptors: Int) -> ConnectionLimits {
        let total = (descriptors - reservedDescriptors) / descriptorsPerConnection
        return ConnectionLimits(total: min(most, max(8, total)))
    }

    /// The limits for this process's limit on open files as it is now (its soft
    /// `RLIMIT_NOFILE`). The corresponding C function is `getrlimit`.
    package static func forThisProcess() -> ConnectionLimits {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return fitting(descriptors: 1024) }
        return fitting(descriptors: Int(clamping: limit.rlim_cur))
    }

    package var description: String {
        "\(total) connection\(total == 1 ? "" : "s"), \(perClient) from one client"
    }
}

/// Who a connection comes from, as the limits count clients: an IPv4 address, or the /64
/// network of an IPv6 address (a phone or a household is given a whole /64 and may take any
/// address in it, so counting addresses would count nothing). An IPv4 address mapped into
/// IPv6 is the IPv4 address.
struct ClientAddress: Hashable, Sendable, CustomStringConvertible {
    private enum Value: Hashable {
        case v4(UInt32)
        case v6(UInt64)
        case unknown
    }

    private let value: Value
    /// The booth itself (127.0.0.0/8, ::1): a reverse proxy in front of `photobooth serve`
    /// brings every guest through it, so it is not one client.
    let isLoopback: Bool

    init(_ address: SocketAddress?) {
        switch address {
        case .v4(let address)?:
            let host = UInt32(bigEndian: address.address.sin_addr.s_addr)
            value = .v4(host)
            isLoopback = host >> 24 == 127
        case .v6(let address)?:
            let bytes = withUnsafeBytes(of: address.address.sin6_addr) { Array($0) }
            if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
                let host = bytes[12..<16].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                value = .v4(host)
                isLoopback = host >> 24 == 127
            } else {
                value = .v6(bytes[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
                isLoopback = bytes[0..<15].allSatisfy { $0 == 0 } && bytes[15] == 1
            }
        default:
            value = .unknown
            isLoopback = false
        }
    }

    /// The IPv4 address, host order; `nil` for an IPv6 client or an unknown one.
    var ipv4: UInt32? {
        if case .v4(let host) = value { host } else { nil }
    }

    /// The address as logs write it: `192.168.1.20`, `2001:db8:1:2::/64`.
    var description: String {
        switch value {
        case .v4(let host):
            return (0..<4).map { String(host >> (24 - 8 * $0) & 0xFF) }.joined(separator: ".")
        case .v6 where isLoopback:
            return "::1"
        case .v6(let network):
            return (0..<4).map { String(network >> (48 - 16 * $0) & 0xFFFF, radix: 16) }.joined(separator: ":") + "::/64"
        case .unknown:
            return "an unknown address"
        }
    }
}
