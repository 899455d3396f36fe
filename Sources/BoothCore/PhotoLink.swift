/// The link the saved screen gives to a photo's web page: the page's address, which anyone may
/// see (the gallery shows every page), and apart from it the key that lets the guest who took
/// the photo delete it for a while, which only the guest's own screens show
/// (``address(for:)``).
///
/// Its text, wherever it is interpolated (a log line, a screen's content in an error
/// message), is the page alone: a key never reaches the logs.
public struct PhotoLink: Sendable, Hashable {
    /// The photo page's address, without a key.
    package let page: String
    /// The guest's deletion key, for the page's `key` parameter; `nil` when guests cannot delete
    /// their photos.
    package let deletionKey: String?
    /// The booth's own Wi-Fi, which the guest joins first to reach the page (`hotspot:`);
    /// `nil` when the booth runs none.
    package let join: WiFiJoin?

    package init(page: String, deletionKey: String? = nil, join: WiFiJoin? = nil) {
        self.page = page
        self.deletionKey = deletionKey
        self.join = join
    }

    /// The address `audience` is given: the page with the deletion key (`?key=`) for the guest
    /// at the booth, the page alone for anyone else.
    package func address(for audience: ScreenAudience) -> String {
        guard audience == .guest, let deletionKey else { return page }
        return page + "?key=" + deletionKey
    }
}

extension PhotoLink: CustomStringConvertible, CustomDebugStringConvertible {
    /// The page alone, never the key.
    public var description: String { page }

    /// The page, and whether a key goes with it, never the key itself.
    public var debugDescription: String { "PhotoLink(\(page)\(deletionKey == nil ? "" : ", with a deletion key"))" }
}

/// A link without a key, written as its address: a booth whose guests cannot delete, a test.
extension PhotoLink: ExpressibleByStringInterpolation {
    public init(stringLiteral page: String) {
        self.init(page: page)
    }
}
