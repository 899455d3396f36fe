import BoothCore
import Crypto
import Foundation

/// The keys that let a guest delete the photo they just took, for a while: the "Saved as"
/// screen's QR code links to the photo's page with one (`?key=`), and that page then offers to
/// delete the photo.
///
/// A photo's key is an HMAC-SHA256 of its id under the library's secret
/// (``BoothStore/PhotoLibrary/guestLinkSecret()``), truncated to 128 bits, in base64url (22
/// characters); it is valid for ``validity`` from the moment the photo was taken. Nothing is
/// stored per photo, a key works after a restart, and one photo's key says nothing about
/// another's.
///
/// Being the same whenever it is made, a photo's key can be vouched for without being given
/// away: the photo's record in the event's bucket carries its SHA-256 and expiry
/// (``published(for:)``), against which another reader of the bucket (`photobooth serve`, where
/// the QR code may point) checks a guest's key (``check(_:digest:until:now:)``); the booth that
/// took the photo deletes it only for a key its own secret makes.
package struct DeletionKeys: Sendable {
    private let secret: SymmetricKey
    /// How long a photo's key stays valid after the photo was taken.
    package let validity: Duration

    /// The default time a guest has to delete their photo: a day, the length of an event.
    package static let defaultValidity = Duration.seconds(24 * 3600)

    /// Keys signed with `secret` (32 random bytes), each valid for `validity` after its photo
    /// was taken.
    package init(secret: Data, validity: Duration = Self.defaultValidity) {
        self.secret = SymmetricKey(data: secret)
        self.validity = validity
    }

    /// The key of photo `id`.
    package func key(for id: UUID) -> String {
        Self.base64url(mac(id))
    }

    /// When the key of `photo` stops deleting it.
    package func expiry(of photo: Photo) -> Date {
        photo.createdAt.addingTimeInterval(validity.inSeconds)
    }

    /// What a key allows.
    package enum Verdict: Sendable, Hashable {
        /// It is this photo's key, and still valid until then.
        case valid(until: Date)
        /// It was this photo's key, until then.
        case expired(at: Date)
        /// It is not this photo's key: another photo's, mistyped, or made up.
        case wrong
    }

    /// Whether `key` is photo `id`'s, expired or not. The signature is compared in a time that
    /// does not depend on where it differs.
    package func isKey(_ key: String, of id: UUID) -> Bool {
        guard let bytes = Self.bytes(base64url: key), bytes.count == Self.macSize else { return false }
        return Self.same(bytes, mac(id))
    }

    /// Whether `key` allows deleting `photo` at `now`.
    package func check(_ key: String, for photo: Photo, now: Date = Date()) -> Verdict {
        guard isKey(key, of: photo.id) else { return .wrong }
        let until = expiry(of: photo)
        return now < until ? .valid(until: until) : .expired(at: until)
    }

    /// What the record of `photo` publishes of its key: the key's SHA-256 (``digest(of:)``) and
    /// its expiry.
    package func published(for photo: Photo) -> (keySHA256: String, until: Date) {
        (Self.digest(of: mac(photo.id)), expiry(of: photo))
    }

    /// Whether `key` allows deleting a photo whose booth published `digest` (the SHA-256 in hex
    /// of its key) and `until`, at `now`: how a reader of the bucket that does not have the
    /// booth's secret checks a guest's key.
    package static func check(_ key: String, digest: String, until: Date, now: Date = Date()) -> Verdict {
        guard let bytes = Self.bytes(base64url: key), bytes.count == macSize,
            same(Array(Self.digest(of: bytes).utf8), Array(digest.utf8))
        else { return .wrong }
        return now < until ? .valid(until: until) : .expired(at: until)
    }

    /// Whether two keys given as text are the same key, compared in constant time.
    package static func same(_ key: String, _ other: String) -> Bool {
        guard let bytes = Self.bytes(base64url: key), let others = Self.bytes(base64url: other) else { return false }
        return same(bytes, others)
    }

    /// The signature's bytes kept in a key: 128 bits are far beyond guessing over HTTP.
    static let macSize = 16

    private func mac(_ id: UUID) -> [UInt8] {
        var message = Array("photobooth delete ".utf8)
        withUnsafeBytes(of: id.uuid) { message += $0 }
        return Array(HMAC<SHA256>.authenticationCode(for: message, using: secret).prefix(Self.macSize))
    }

    /// The SHA-256 in lowercase hex of a key's bytes.
    static func digest(of bytes: [UInt8]) -> String {
        SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
    }

    /// Equal lengths and bytes, in a time that depends on the length alone.
    private static func same(_ given: [UInt8], _ wanted: [UInt8]) -> Bool {
        guard given.count == wanted.count else { return false }
        var difference: UInt8 = 0
        for (one, other) in zip(given, wanted) { difference |= one ^ other }
        return difference == 0
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
