import BoothCore
import Foundation

/// What the booth's guest deletion keys (the web's `DeletionKeys`, which sign the links its QR
/// code gives) lend the sync, so that a guest who deletes a photo on another reader of the
/// bucket (`photobooth serve`, reached from mobile data) deletes it here, where it was taken.
///
/// The other readers never get the secret: a photo's record carries the SHA-256 of the photo's
/// key and its expiry (``published``), which tells a guest's key from any other without being
/// able to make one; and the booth deletes a photo only for a request whose key its own secret
/// accepts (``accepts``).
package struct GuestDeletions: Sendable {
    /// The SHA-256 in hex of the deletion key of a photo of this booth (its bytes), and when the
    /// key expires.
    package var published: @Sendable (Photo) -> (keySHA256: String, until: Date)
    /// Whether `key` is the deletion key of `photo`, valid at `time`.
    package var accepts: @Sendable (_ key: String, _ photo: Photo, _ time: Date) -> Bool

    /// The deletions the two functions allow.
    package init(
        published: @escaping @Sendable (Photo) -> (keySHA256: String, until: Date),
        accepts: @escaping @Sendable (_ key: String, _ photo: Photo, _ time: Date) -> Bool
    ) {
        self.published = published
        self.accepts = accepts
    }
}

/// A guest's deletion request as a reader puts it in the bucket (`<event>/<reader>/deletions/
/// <uuid>.json`).
struct DeletionRequestObject: Codable, Sendable {
    var photo: String
    var key: String
    /// ISO 8601 UTC with milliseconds: when the reader took the guest's key.
    var requestedAt: String
}
