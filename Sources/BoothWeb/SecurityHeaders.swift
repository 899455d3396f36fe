import NIOHTTP1

/// The headers every answer of the gallery carries, whichever path made it (``ConnectionRules``
/// adds them to every head the connection writes): `X-Content-Type-Options: nosniff` on all (a
/// browser takes an answer for what its `Content-Type` says, never for what its bytes look
/// like), and on HTML pages `Content-Security-Policy: frame-ancestors 'none'` (no other site
/// frames a page to trick a guest into a click; none of the gallery's own pages frames
/// another) and `Referrer-Policy: no-referrer` (a photo page's address may carry a guest's
/// deletion key, which must not leave in a `Referer` to whatever the page links to).
enum SecurityHeaders {
    static let contentSecurityPolicy = "frame-ancestors 'none'"

    /// Adds the headers to `headers`, an answer's: those of HTML pages when its `Content-Type`
    /// says HTML.
    static func add(to headers: inout HTTPHeaders) {
        headers.add(name: "X-Content-Type-Options", value: "nosniff")
        guard let type = headers.first(name: "content-type"), isHTML(type) else { return }
        headers.add(name: "Content-Security-Policy", value: contentSecurityPolicy)
        headers.add(name: "Referrer-Policy", value: "no-referrer")
    }

    /// Whether a `Content-Type` is HTML, in any case: one comparison of bytes per answer.
    private static func isHTML(_ type: String) -> Bool {
        let html = "text/html".utf8
        // Or-ing 0x20 lowers ASCII letters and leaves the slash as it is.
        return type.utf8.count >= html.count && zip(type.utf8, html).allSatisfy { $0 | 0x20 == $1 }
    }
}
