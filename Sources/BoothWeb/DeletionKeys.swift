import BoothCore
import Crypto
import Foundation

/// The keys that let a guest delete the photo they just took, for a while: the "Saved as"
/// screen's QR code links to the photo's page with one (`?key=`), and that page then offers to
/// delete the photo.
///
/// A key is stateless: its expiry and an HMAC-SHA256 of the photo's id and that expiry under
/// the library's secret (``BoothStore/PhotoLibrary/guestLinkSecret()``), truncated to 128 bits,
/// in base64url (27 characters). Nothing is stored per photo, a key works after a restart, and
/// one photo's key says nothing about another's.
public struct DeletionKeys: Sendable {
    private let secret: SymmetricKey
    /// How long a key stays valid after it is given.
    public let validity: Duration

    /// The default time a guest has to delete their photo: a day, the length of an event.
    public static let defaultValidity = Duration.seconds(24 * 3600)

    /// Keys signed with `secret` (32 random bytes), each valid for `validity` after it is given.
    public init(secret: Data, validity: Duration = Self.defaultValidity) {
        self.secret = SymmetricKey(data: secret)
        self.validity = validity
    }

    /// A key for photo `id`, valid for ``validity`` from `now`.
    public func key(for id: UUID, now: Date = Date()) -> String {
        let expiry = UInt32(clamping: Int64((now.timeIntervalSince1970 + validity.inSeconds).rounded(.up)))
        return Self.base64url(Self.bytes(of: expiry) + mac(id, expiry))
    }

    /// What a key allows.
    public enum Verdict: Sendable, Hashable {
        /// It is this photo's key, and still valid until then.
        case valid(until: Date)
        /// It was this photo's key, until then.
        case expired(at: Date)
        /// It is not this photo's key: another photo's, mistyped, or made up.
        case wrong
    }

    /// Whether `key` allows deleting photo `id` at `now`. The signature is compared in a time that
    /// does not depend on where it differs.
    public func check(_ key: String, for id: UUID, now: Date = Date()) -> Verdict {
        guard let bytes = Self.bytes(base64url: key), bytes.count == 4 + Self.macSize else { return .wrong }
        let expiry = bytes.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let expected = mac(id, expiry)
        var difference: UInt8 = 0
        for (given, wanted) in zip(bytes.dropFirst(4), expected) { difference |= given ^ wanted }
        guard difference == 0 else { return .wrong }
        let until = Date(timeIntervalSince1970: TimeInterval(expiry))
        return now < until ? .valid(until: until) : .expired(at: until)
    }

    /// The signature's bytes kept in a key: 128 bits are far beyond guessing over HTTP.
    static let macSize = 16

    private func mac(_ id: UUID, _ expiry: UInt32) -> [UInt8] {
        var message = Array("photobooth delete ".utf8)
        withUnsafeBytes(of: id.uuid) { message += $0 }
        message += Self.bytes(of: expiry)
        return Array(HMAC<SHA256>.authenticationCode(for: message, using: secret).prefix(Self.macSize))
    }

    private static func bytes(of expiry: UInt32) -> [UInt8] {
        [UInt8(expiry >> 24), UInt8(expiry >> 16 & 0xFF), UInt8(expiry >> 8 & 0xFF), UInt8(expiry & 0xFF)]
    }

    static func base64url(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func bytes(base64url text: String) -> [UInt8]? {
        guard text.utf8.count <= 64, text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
            return nil
        }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64).map(Array.init)
    }
}
