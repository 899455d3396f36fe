/// The booth's own Wi-Fi as a guest joins it: its name, how it is secured, its passphrase, and
/// the text of the QR code that joins a phone to it (``code``).
///
/// Phones' cameras read the form that ZXing introduced and Android and iOS both follow:
/// `WIFI:T:WPA;S:<name>;P:<passphrase>;;`, in which `\`, `;`, `,`, `:` and `"` are escaped
/// with a backslash. WPA stands for WPA2 and WPA3 in transition mode alike; a network that
/// takes WPA3 alone is `SAE`, which phones that read it also require; an open network is
/// `nopass` without a passphrase.
public struct WiFiJoin: Sendable, Hashable {
    /// How the booth's network is secured.
    public enum Security: String, Sendable, CaseIterable {
        /// WPA2-Personal (PSK): every phone of the last ten years.
        case wpa2
        /// WPA2 and WPA3 side by side (transition mode): WPA3 where the phone has it.
        case wpa2wpa3 = "wpa2-wpa3"
        /// WPA3-Personal (SAE) alone: phones from about 2019 on.
        case wpa3
        /// No passphrase: anyone in range joins.
        case open
    }

    /// The network's name (SSID): 1 to 32 bytes of UTF-8.
    public let name: String
    public let security: Security
    /// 8 to 63 printable ASCII characters; empty for an open network.
    public let passphrase: String

    /// A network called `name` secured by `security` with `passphrase`, or `nil` when they do
    /// not make one (``problem(name:security:passphrase:)`` says why).
    public init?(name: String, security: Security, passphrase: String) {
        guard Self.problem(name: name, security: security, passphrase: passphrase) == nil else { return nil }
        self.name = name
        self.security = security
        self.passphrase = security == .open ? "" : passphrase
    }

    /// Why `name`, `security` and `passphrase` make no network a phone can join, in words for
    /// the operator, or `nil` when they do.
    public static func problem(name: String, security: Security, passphrase: String) -> String? {
        let bytes = name.utf8.count
        if bytes == 0 || bytes > 32 {
            return "a Wi-Fi network's name (hotspot.ssid) is 1 to 32 bytes long; \"\(name)\" is \(bytes)"
        }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "a Wi-Fi network's name (hotspot.ssid) has no control characters"
        }
        guard security != .open else { return nil }
        if passphrase.isEmpty {
            return "a \(security.rawValue.uppercased()) network needs a passphrase (hotspot.passphrase), or hotspot.security: open"
        }
        if passphrase.count < 8 || passphrase.count > 63 {
            return "a Wi-Fi passphrase (hotspot.passphrase) is 8 to 63 characters long; this one is \(passphrase.count)"
        }
        if !passphrase.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) {
            return "a Wi-Fi passphrase (hotspot.passphrase) is printable ASCII: letters, digits, spaces and punctuation"
        }
        return nil
    }

    /// The join QR code's text: `WIFI:T:WPA;S:Booth;P:secret;;`.
    public var code: String {
        let type =
            switch security {
            case .wpa2, .wpa2wpa3: "WPA"
            case .wpa3: "SAE"
            case .open: "nopass"
            }
        var text = "WIFI:T:\(type);S:\(Self.escaped(name));"
        if security != .open { text += "P:\(Self.escaped(passphrase));" }
        return text + ";"
    }

    /// `text` with the join code's special characters escaped.
    static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            if "\\;,:\"".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }
}

extension WiFiJoin: CustomStringConvertible, CustomDebugStringConvertible {
    /// The name and the security, never the passphrase: a log line may carry it.
    public var description: String { "\"\(name)\" (\(security.rawValue))" }
    public var debugDescription: String { "WiFiJoin(\(description))" }
}
