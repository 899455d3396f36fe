import BoothCore
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// A kept answer as the connection writes it, found by the request alone: the heads of its
/// 200 and of its 304 (the router's own, ``EntityTag``), and its body, in memory or as the
/// rest of a file. ``KeptAnswerHandler`` answers from these on the event loop, before the
/// request reaches the router; the router fills them in as it makes the answers. Their `Date`
/// and security headers are added as they are written, as to every answer
/// (``ConnectionRules``).
struct ServedAnswer: Sendable {
    /// The whole answer's head: status 200, its length among the headers.
    var head: HTTPResponseHead
    /// The head of the 304 for a client that has the answer.
    var notModified: HTTPResponseHead
    var etag: String
    /// The body, or its start when the rest is ``file``.
    var body: ByteBuffer
    /// Where the rest of the body is.
    var file: FilePart?

    /// The bytes of an original after its tagged start: sent by the kernel (`sendfile`).
    struct FilePart: Sendable {
        var path: String
        var offset: Int
        /// The file's size: a file of another size is not the one the answer was made from.
        var size: Int
    }

    /// `answer` (a 200 with an ETag) as served.
    init(_ answer: KeptAnswer) {
        self.init(headers: answer.headers, body: answer.body, length: answer.body.readableBytes)
    }

    /// An original's copy as served: its tagged start from memory, the rest from its file.
    init(_ parts: OriginalParts, headers: HTTPFields) {
        self.init(headers: headers, body: parts.head, length: parts.size)
        file = FilePart(path: parts.path, offset: parts.fileOffset, size: parts.fileSize)
    }

    private init(headers: HTTPFields, body: ByteBuffer, length: Int) {
        var whole = HTTPHeaders(headers)
        whole.add(name: "Content-Length", value: String(length))
        head = HTTPResponseHead(version: .http1_1, status: .ok, headers: whole)
        notModified = HTTPResponseHead(version: .http1_1, status: .notModified, headers: HTTPHeaders(EntityTag.notModifiedFields(headers)))
        etag = headers[.eTag] ?? ""
        self.body = body
    }

    /// What it costs to keep: its bytes in memory and its heads.
    var cost: Int { body.readableBytes + (file?.path.utf8.count ?? 0) + 512 }
}

/// What a kept answer may depend on in its request, as one string: the path with its query,
/// the `Host` (absolute URLs in the API), and the `Accept-Language` and `Cookie` lines (the
/// pages' language). Two requests with the same key get the same kept answer, so an answer
/// that reads anything else of its request must not be served from ``ResponseCache/served``.
///
/// Made from the raw HTTP/1 head on the event loop and from the router's request alike; the
/// separators are control characters, which no request line or header value can hold.
enum RequestKey {
    /// The longest key kept: a few cookies and languages, not a header list at the decoder's limit.
    static let longest = 4096

    static func of(path: String, host: String?, acceptLanguage: some Sequence<String>, cookies: some Sequence<String>) -> String {
        path + "\n" + (host ?? "") + "\n" + acceptLanguage.joined(separator: "\u{1}") + "\n" + cookies.joined(separator: "\u{1}")
    }

    /// The key of a request as the connection reads it.
    static func of(_ head: HTTPRequestHead) -> String {
        of(path: head.uri, host: head.headers.first(name: "host"), acceptLanguage: head.headers["accept-language"], cookies: head.headers["cookie"])
    }

    /// The key of a request as the router sees it (the first `Host` is its authority).
    static func of(_ request: Request) -> String {
        of(
            path: request.head.path ?? "", host: request.head.authority, acceptLanguage: request.headers[values: .acceptLanguage],
            cookies: request.headers[values: .cookie])
    }
}

extension WebContext {
    /// Makes `answer` to `request`, a 200 made from the catalog as it was in `generation`,
    /// the answer to every later request with the same ``RequestKey`` until the photos change.
    /// A request for part of the answer (`Range`) is not the whole answer's.
    /// A request with a key longer than ``RequestKey/longest`` (its cookies, mostly) is
    /// answered, but not kept.
    func serveAgain(_ answer: @autoclosure () -> ServedAnswer, to request: Request, generation: UInt64) {
        guard request.headers[.range] == nil else { return }
        let key = RequestKey.of(request)
        guard key.utf8.count <= RequestKey.longest else { return }
        let served = answer()
        kept.served.keep(served, for: key, generation: generation, cost: served.cost + key.utf8.count)
    }
}
