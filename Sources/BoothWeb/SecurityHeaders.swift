import HTTPTypes
import Hummingbird

/// The headers every answer of the gallery carries, kept answers as the router's:
/// `X-Content-Type-Options: nosniff` on all (a browser takes an answer for what its
/// `Content-Type` says, never for what its bytes look like), and on HTML pages
/// `Content-Security-Policy: frame-ancestors 'none'` (no other site frames a page to trick a
/// guest into a click; none of the gallery's own pages frames another) and
/// `Referrer-Policy: no-referrer` (a photo page's address may carry a guest's deletion key,
/// which must not leave in a `Referer` to whatever the page links to).
enum SecurityHeaders {
    static let contentSecurityPolicy = "frame-ancestors 'none'"
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!

    /// Adds the headers to `fields`, an answer's: those of HTML pages when its
    /// `Content-Type` says HTML.
    static func add(to fields: inout HTTPFields) {
        fields[.xContentTypeOptions] = "nosniff"
        guard let type = fields[.contentType], type.lowercased().hasPrefix("text/html") else { return }
        fields[.contentSecurityPolicy] = contentSecurityPolicy
        fields[referrerPolicy] = "no-referrer"
    }
}

/// Gives every answer of the router the ``SecurityHeaders``, error pages included: it runs
/// outside every other middleware.
struct SecurityHeaderMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        SecurityHeaders.add(to: &response.headers)
        return response
    }
}
