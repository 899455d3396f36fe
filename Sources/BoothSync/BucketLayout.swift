import BoothCore
import Foundation

/// Where an event's photos are in the bucket:
///
/// ```
/// <event>/<booth>/photos/<uuid>.jpg       the original, with its name and time inside (.gif: an animation's)
/// <event>/<booth>/thumbnails/<uuid>.jpg   its thumbnail
/// <event>/<booth>/parts/<uuid>.jpg        a shot a composed picture is made of, as the record's Parts name them
/// <event>/<booth>/records/<uuid>.xmp      what the booth knows of it (its sidecar), or that it was deleted
/// <event>/<reader>/deletions/<uuid>.json  a guest's wish to delete it, taken by another reader
/// ```
///
/// Event and booth names are made safe for keys (``keyName(_:)``). A booth writes only under its
/// own `<event>/<booth>/` prefix; `photobooth serve`, which has no booth, writes its deletion
/// requests under `<event>/_gallery/`, a folder no booth's name can make.
package struct BucketLayout: Sendable, Hashable {
    /// The event's folder and this booth's, as they appear in keys.
    package let event: String
    package let booth: String

    /// - Parameter booth: this booth's name; `nil` for a gallery that takes no photos of its own
    ///   (`photobooth serve`), which owns no folder and imports every booth's photos.
    package init(event: String, booth: String?) {
        self.event = Self.keyName(event)
        // No booth's folder is empty: keyName never returns "".
        self.booth = booth.map(Self.keyName) ?? ""
    }

    /// What one kind of object is.
    package enum Kind: String, Sendable, CaseIterable {
        case photo = "photos"
        case thumbnail = "thumbnails"
        case record = "records"
        case part = "parts"

        var suffix: String { self == .record ? ".xmp" : ".jpg" }
        /// Every suffix a key of this kind may have: an original is an animation's GIF too.
        var suffixes: [String] { self == .photo ? [".jpg", ".gif"] : [suffix] }
    }

    /// The largest record the booth reads, checked against the listing's size before it asks
    /// for one and while it reads: a record is a few KB of XMP (its caption at most
    /// ``BoothCore/Caption/maximumBytes``).
    package static let recordLimit = 64 << 10
    /// The largest original the booth reads: a camera's JPEG, 16 megapixels at the highest
    /// quality being about 10 MB. (Thumbnails are never read: a reader makes its own from the
    /// original, which it decodes anyway to check it.)
    package static let photoLimit = 50 << 20
    /// The largest deletion request read: a photo's id, a key and a time.
    package static let requestLimit = 4 << 10

    /// The folder of the event this reader writes its guests' deletion requests in: its own
    /// booth's, or `_gallery` for `photobooth serve`.
    package var requestFolder: String { booth.isEmpty ? "_gallery" : booth }

    /// The key of this reader's request to delete photo `id`.
    package func requestKey(of id: UUID) -> String {
        "\(event)/\(requestFolder)/deletions/\(id.lowercased).json"
    }

    /// Whose request a key is, and for which photo; `nil` for any other key.
    package func parseRequest(_ key: String) -> (folder: String, id: UUID)? {
        let parts = key.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == event, parts[2] == "deletions", parts[3].hasSuffix(".json"),
            let id = UUID(uuidString: String(parts[3].dropLast(".json".count)))
        else { return nil }
        return (String(parts[1]), id)
    }

    /// Every booth's objects: `<event>/`.
    package var eventPrefix: String { "\(event)/" }
    /// This booth's: `<event>/<booth>/`.
    package var ownPrefix: String { "\(event)/\(booth)/" }

    /// The key of `kind` for photo `id` of this booth.
    package func key(_ kind: Kind, of id: UUID) -> String {
        key(kind, of: id, booth: booth)
    }

    /// The key of `kind` for photo `id` of `booth` (as it appears in keys).
    package func key(_ kind: Kind, of id: UUID, booth: String) -> String {
        "\(event)/\(booth)/\(kind.rawValue)/\(id.lowercased)\(kind.suffix)"
    }

    /// The key of the original of this booth's photo `id`, an animation's (a GIF) when
    /// `animated`.
    package func originalKey(of id: UUID, animated: Bool) -> String {
        "\(event)/\(booth)/\(Kind.photo.rawValue)/\(id.lowercased).\(animated ? "gif" : "jpg")"
    }

    /// The keys the original of photo `id` of `booth` may have, a JPEG's first.
    package func originalKeys(of id: UUID, booth: String) -> [String] {
        Kind.photo.suffixes.map { "\(event)/\(booth)/\(Kind.photo.rawValue)/\(id.lowercased)\($0)" }
    }

    /// What a key under the event's prefix is: whose, which kind, which photo; `nil` for a key
    /// the booth does not write (a file someone put there by hand).
    package func parse(_ key: String) -> (booth: String, kind: Kind, id: UUID)? {
        let parts = key.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == event, let kind = Kind(rawValue: String(parts[2])),
            let suffix = kind.suffixes.first(where: { parts[3].hasSuffix($0) }),
            let id = UUID(uuidString: String(parts[3].dropLast(suffix.count)))
        else { return nil }
        return (String(parts[1]), kind, id)
    }

    /// A name as a folder of keys: letters and digits of any script lose their accents and are
    /// written in Latin letters, lowercased; every other run of characters becomes one `-`;
    /// at most 63 characters. "Anna & Ben's Wedding" is `anna-ben-s-wedding`, "Booth 2" is
    /// `booth-2`. A name with nothing left is `booth`.
    package static func keyName(_ name: String) -> String {
        let latin = name.applyingTransform(StringTransform("Any-Latin; Latin-ASCII; Lower"), reverse: false) ?? name.lowercased()
        var result = ""
        for scalar in latin.unicodeScalars {
            if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
                result.unicodeScalars.append(scalar)
            } else if !result.isEmpty && !result.hasSuffix("-") {
                result += "-"
            }
        }
        while result.hasSuffix("-") { result.removeLast() }
        result = String(result.prefix(63))
        while result.hasSuffix("-") { result.removeLast() }
        return result.isEmpty ? "booth" : result
    }
}
