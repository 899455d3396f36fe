import BoothCore
import BoothWeb
import Foundation

/// The booth's own Wi-Fi as configured and checked: the network, its radio and its addresses.
/// ``BoothConfiguration/hotspotPlan()`` makes it; the booth links its QR codes through it and
/// `photobooth hotspot up` writes the access point's and the DHCP and DNS server's files from it
/// (``HotspotFiles``).
package struct HotspotPlan: Sendable, Hashable {
    package let network: WiFiJoin
    package let country: String
    package let channel: Int
    package let interface: String
    package let address: HotspotAddress
    package let admin: Bool
    package let maxClients: Int
    package let requestsPerSecond: Int
    package let connectionsPerClient: Int
    /// The port the booth's gallery listens on, to which the hotspot's port 80 leads.
    package let webPort: Int

    /// The page a phone joining the network is sent to: "Just taken", on port 80.
    package var portalURL: String { "http://\(address.address)\(GalleryPortal.justTakenPath)" }
    /// The RFC 8908 captive-portal API's address, which the DHCP server announces (RFC 8910).
    package var captiveAPIURL: String { "http://\(address.address)\(GalleryPortal.apiPath)" }
    /// The base of the photo pages' links for phones on the hotspot: the booth's address, port 80.
    package var galleryURL: String { "http://\(address.address)" }

    /// The phones on the hotspot as the gallery tells them apart, with their rules.
    package var guests: HotspotGuests {
        HotspotGuests(
            boothAddress: address.host, prefixLength: address.prefixLength, admin: admin, requestsPerSecond: requestsPerSecond,
            connectionsPerClient: connectionsPerClient)
    }
}

extension BoothConfiguration {
    /// The booth's own Wi-Fi as `hotspot:` describes it, or `nil` when it is off. A network a
    /// phone cannot join, a missing country, or a gallery guests cannot reach is an error that
    /// names the setting.
    package func hotspotPlan() throws(ConfigurationError) -> HotspotPlan? {
        let hotspot = self.hotspot
        guard hotspot.enabled else { return nil }
        let name = hotspot.ssid ?? web.boothName
        if let problem = WiFiJoin.problem(name: name, security: hotspot.security, passphrase: hotspot.passphrase) {
            throw ConfigurationError(.notAllowed, key: "hotspot.ssid", "hotspot: \(problem).")
        }
        guard let country = hotspot.country else {
            throw ConfigurationError(
                .notAllowed, key: "hotspot.country",
                "hotspot.country is needed: the country the booth stands in (DE, FR, GB, US...) sets the channels and power its radio may use.")
        }
        guard Self.channels(in: country.code).contains(hotspot.channel) else {
            throw ConfigurationError(
                .notAllowed, key: "hotspot.channel",
                "hotspot.channel \(hotspot.channel) is not a Wi-Fi channel an access point may use in \(country.code): use 1 to 11 (2.4 GHz, every phone), or 36, 40, 44 or 48 (5 GHz)."
            )
        }
        guard web.enabled else {
            throw ConfigurationError(
                .notAllowed, key: "hotspot.enabled",
                "hotspot.enabled needs the web gallery (http.enabled): guests on the hotspot open their photos there.")
        }
        if web.address != "0.0.0.0", web.address != "::", web.address != hotspot.address.address {
            throw ConfigurationError(
                .notAllowed, key: "http.address",
                "http.address \(web.address) is not reachable from the hotspot: use 0.0.0.0 (every network) or \(hotspot.address.address), the booth's address on its Wi-Fi."
            )
        }
        return HotspotPlan(
            network: WiFiJoin(name: name, security: hotspot.security, passphrase: hotspot.passphrase)!, country: country.code,
            channel: hotspot.channel, interface: hotspot.interface, address: hotspot.address, admin: hotspot.admin,
            maxClients: hotspot.maxClients, requestsPerSecond: hotspot.requestsPerSecond,
            connectionsPerClient: hotspot.connectionsPerClient, webPort: web.port)
    }

    /// The channels an access point may use in `country`: 1 to 11 at 2.4 GHz everywhere (12
    /// and 13 are not allowed in North America), and the four lowest 5 GHz channels, which need
    /// no radar detection anywhere.
    static func channels(in country: String) -> Set<Int> {
        var channels = Set(1...11).union([36, 40, 44, 48])
        if !["US", "CA"].contains(country) { channels.formUnion([12, 13]) }
        return channels
    }
}
