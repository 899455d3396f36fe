import Foundation

/// Where and how the booth replicates its photos: an S3-compatible bucket shared by every booth
/// of an event. Off until an endpoint, a bucket and an event are set.
package struct SyncSettings: Sendable, Hashable {
    /// The store's address, such as `https://s3.eu-central-1.amazonaws.com` or
    /// `http://127.0.0.1:8333`.
    package var endpoint: URL?
    package var bucket: String?
    /// The region the signature names; `us-east-1` for stores that have none.
    package var region = "us-east-1"
    /// The event's name: the top folder of its photos in the bucket.
    package var event: String?
    /// Path-style addressing (`https://host/bucket/key`), as self-hosted stores need; otherwise
    /// the bucket is part of the host name (`https://bucket.host/key`).
    package var pathStyle = false
    /// A file in the AWS shared-credentials format; `nil`: the environment, then the systemd
    /// credential `sync-credentials`.
    package var credentialsFile: String?
    /// The most bytes a second the uploads may send, so that a Pi's preview and capture never
    /// wait for the network; `nil` for no limit.
    package var maxBytesPerSecond: Int?
    /// How often the event's other booths are looked for.
    package var listInterval: Duration = .seconds(30)

    package init() {}

    /// Whether the booth syncs at all: an endpoint, a bucket and an event are set.
    package var isEnabled: Bool { endpoint != nil && bucket != nil && event != nil }

    /// `value` as a store's address: `http` or `https`, a host, nothing after the path, and no
    /// user or password (the credentials come from the environment or their own file, never
    /// from an address that logs and messages repeat).
    package static func endpoint(_ value: String) -> URL? {
        guard let url = URL(string: value), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty, url.query == nil, url.fragment == nil, url.user == nil, url.password == nil,
            !Self.hasUserInfo(value)
        else { return nil }
        return url
    }

    /// `value` as a message may repeat it: what stands between `//` and `@` (a user and a
    /// password) replaced by `…`. "https://KEY:SECRET@s3.example.com" is "https://…@s3.example.com".
    package static func redacted(_ value: String) -> String {
        guard let scheme = value.range(of: "://"), let at = value[scheme.upperBound...].firstIndex(of: "@") else { return value }
        let authorityEnd = value[scheme.upperBound...].firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? value.endIndex
        guard at < authorityEnd else { return value }
        return String(value[..<scheme.upperBound]) + "…" + String(value[at...])
    }

    /// Whether `value`'s authority (after `//`, before the path) holds an `@`: a user, a
    /// password, or both.
    private static func hasUserInfo(_ value: String) -> Bool {
        redacted(value) != value
    }

    /// Whether `value` is a bucket name that S3's rules allow: 3 to 63 lowercase letters, digits,
    /// dots and hyphens, starting and ending with a letter or digit.
    package static func isBucketName(_ value: String) -> Bool {
        value.wholeMatch(of: /[a-z0-9][a-z0-9.\-]{1,61}[a-z0-9]/) != nil && !value.contains("..")
    }
}
