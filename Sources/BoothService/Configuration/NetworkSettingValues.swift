import BoothSync
import Foundation

/// An IPv4 address in dotted decimal (`192.168.1.20`) or an IPv6 address (`::1`), as the web
/// server binds it. Host names are refused: they may resolve to nothing at boot, before the
/// network is up.
package struct IPAddress: SettingValue, Hashable {
    /// The address as written.
    package let settingText: String

    /// Whether `inet_pton`, which the server's socket uses too, reads `text` as an address.
    package init?(settingText text: String) {
        var address = in6_addr()
        guard inet_pton(AF_INET, text, &address) == 1 || inet_pton(AF_INET6, text, &address) == 1 else { return nil }
        settingText = text
    }
}

/// A TCP port, 1 to 65535.
package struct TCPPort: NumericSettingValue, Hashable, ExpressibleByIntegerLiteral {
    package let number: Int

    package init(integerLiteral number: Int) {
        precondition((1...65535).contains(number), "no TCP port \(number)")
        self.number = number
    }

    package init?(settingText text: String) {
        guard let number = Int(settingText: text), (1...65535).contains(number) else { return nil }
        self.number = number
    }

    package var settingText: String { number.settingText }

    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.number < rhs.number }

    package static func allowed(in range: ClosedRange<Self>) -> String {
        Int.allowed(in: range.lowerBound.number...range.upperBound.number)
    }
}

/// How guests' phones reach the booth: an `http://` or `https://` address with a host and
/// nothing after the path (`http://booth.local:8080`), or `auto` for the booth's own address on
/// its network.
package struct PublicURL: SettingValue, Hashable {
    /// The address, without a trailing slash; `nil` for `auto`.
    package let address: String?

    package init?(settingText text: String) {
        guard text != "auto" else {
            address = nil
            return
        }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty, url.query == nil, url.fragment == nil
        else { return nil }
        address = text.hasSuffix("/") ? String(text.dropLast()) : text
    }

    package var settingText: String { address ?? "auto" }
}

/// The secret that allows hiding and deleting photos over the web: at least 16 characters and
/// no spaces, or `none` to turn those actions off.
package struct AdminToken: SettingValue, Hashable {
    /// The secret; `nil` for none.
    package let secret: String?

    package init?(settingText text: String) {
        guard text != "none" else {
            secret = nil
            return
        }
        guard text.count >= 16, !text.contains(where: \.isWhitespace) else { return nil }
        secret = text
    }

    package var settingText: String { secret ?? "none" }
}

/// The address of the event's S3-compatible store: `http` or `https`, a host, nothing after the
/// path, no user or password (``SyncSettings/endpoint(_:)``).
package struct StoreEndpoint: SettingValue, Hashable {
    package let url: URL

    package init?(settingText text: String) {
        guard let url = SyncSettings.endpoint(text) else { return nil }
        self.url = url
    }

    package var settingText: String { url.absoluteString }

    /// An address refused for the user and password in it is never repeated with them.
    package static func shown(_ text: String) -> String { SyncSettings.redacted(text) }
}
