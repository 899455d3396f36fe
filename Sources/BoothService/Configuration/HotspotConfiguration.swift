import BoothCore
import Foundation

/// `hotspot:` in photobooth.yaml: the booth's own Wi-Fi access point, for guests at a venue
/// with no network of its own. Off by default; ``HotspotPlan`` is what an enabled one runs.
package struct HotspotConfiguration: Sendable, Hashable {
    package var enabled = false
    /// The network's name; `nil`: the booth's name (`booth.name`).
    package var ssid: String?
    package var security = WiFiJoin.Security.wpa2
    package var passphrase = ""
    /// The ISO 3166 country the booth stands in, which sets the channels and power allowed.
    package var country: CountryCode?
    package var channel = 6
    /// The radio's network interface.
    package var interface = "wlan0"
    /// The booth's address on its Wi-Fi and the network's size.
    package var address = HotspotAddress(settingText: "10.42.0.1/24")!
    /// Whether phones on the hotspot may use the admin page and API (with the token).
    package var admin = false
    /// The most phones joined at once.
    package var maxClients = 64
    /// Requests a second one phone may make to the gallery (a burst of twice as many).
    package var requestsPerSecond = 20
    /// Connections one phone may hold open to the gallery.
    package var connectionsPerClient = 16

    package init() {}
}

/// A country's ISO 3166-1 alpha-2 code, in capitals: `DE`, `FR`, `US`.
package struct CountryCode: SettingValue, Hashable {
    package let code: String

    package init?(settingText text: String) {
        guard text.count == 2, text.allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
        code = text.uppercased()
    }

    package var settingText: String { code }
}

/// The booth's IPv4 address on its Wi-Fi with the network's prefix length, `10.42.0.1/24`:
/// a private address (RFC 1918), a network of /16 to /28, the address neither the network's
/// first nor its last.
package struct HotspotAddress: SettingValue, Hashable {
    /// The booth's address, host order.
    package let host: UInt32
    package let prefixLength: Int

    package init?(settingText text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let length = Int(parts[1]), (16...28).contains(length) else { return nil }
        var raw = in_addr()
        guard inet_pton(AF_INET, String(parts[0]), &raw) == 1 else { return nil }
        let host = UInt32(bigEndian: raw.s_addr)
        let mask = UInt32.max << (32 - length)
        let isPrivate = host >> 24 == 10 || host >> 20 == 0xAC1 || host >> 16 == 0xC0A8
        guard isPrivate, host & ~mask != 0, host & ~mask != ~mask else { return nil }
        self.host = host
        self.prefixLength = length
    }

    package var settingText: String { "\(address)/\(prefixLength)" }

    /// The booth's address alone: `10.42.0.1`.
    package var address: String { Self.text(host) }
    /// The network's mask in dotted form: `255.255.255.0`.
    package var netmask: String { Self.text(mask) }
    /// The network: `10.42.0.0/24`.
    package var network: String { "\(Self.text(host & mask))/\(prefixLength)" }

    /// The addresses phones are given: the network's, but its first, its last and the booth's,
    /// which the DHCP server never hands out.
    package var clientRange: (first: String, last: String) {
        (Self.text((host & mask) + 1), Self.text((host | ~mask) - 1))
    }

    /// Whether `address` (host order) is on this network.
    package func contains(_ address: UInt32) -> Bool { address & mask == host & mask }

    private var mask: UInt32 { UInt32.max << (32 - prefixLength) }

    private static func text(_ address: UInt32) -> String {
        "\(address >> 24).\(address >> 16 & 0xFF).\(address >> 8 & 0xFF).\(address & 0xFF)"
    }
}

/// A network interface's name as Linux allows it: 1 to 15 characters, none of them `/`, `:`
/// or white space.
package struct InterfaceName: SettingValue, Hashable {
    package let settingText: String

    package init?(settingText text: String) {
        guard (1...15).contains(text.utf8.count), text != ".", text != "..",
            text.allSatisfy({ $0.isASCII && !$0.isWhitespace && $0 != "/" && $0 != ":" })
        else { return nil }
        settingText = text
    }
}

extension WiFiJoin.Security: SettingValue {}

/// The hotspot's passphrase: its text is never repeated in a message.
package struct WiFiPassphrase: SettingValue, Hashable {
    package let settingText: String

    package init?(settingText text: String) {
        guard WiFiJoin.problem(name: "x", security: .wpa2, passphrase: text) == nil else { return nil }
        settingText = text
    }

    package static func shown(_ text: String) -> String { "(the passphrase, \(text.count) characters)" }
}
