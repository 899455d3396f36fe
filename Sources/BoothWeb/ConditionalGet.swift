import HTTPTypes
import Hummingbird

/// Entity tags, as the gallery compares them and answers a client that has the answer
/// already: the one reading of `If-None-Match` and the one 304, which the router's answers
/// (``ConditionalGet``) and the connection's kept answers (``ServedAnswer``) share.
enum EntityTag {
    /// Whether the `If-None-Match` lines `conditions` name `etag` (or `*`): the weak
    /// comparison of RFC 9110 section 13.1.2, where a `W/` prefix does not matter.
    static func matches(_ conditions: [String], _ etag: String) -> Bool {
        for condition in conditions {
            for tag in condition.split(separator: ",") {
                let trimmed = tag.trimmingCharacters(in: .whitespaces)
                if trimmed == "*" || (trimmed.hasPrefix("W/") ? trimmed.dropFirst(2) : trimmed[...]) == etag { return true }
            }
        }
        return false
    }

    /// The headers of a 304 for an answer with `headers`: its validator and caching headers,
    /// without those that describe a body.
    static func notModifiedFields(_ headers: HTTPFields) -> HTTPFields {
        var fields = headers
        fields[.contentType] = nil
        fields[.contentDisposition] = nil
        fields[.contentLength] = nil
        fields[.contentRange] = nil
        return fields
    }
}

/// Answers 304 Not Modified, for every route, when the request's `If-None-Match` names the
/// ETag of the answer: the route makes its answer as for anyone, and its body is never
/// written. (A request for a range is answered 304 too: the condition comes before the range,
/// RFC 9110 section 13.2.2.)
struct ConditionalGet<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let response = try await next(request, context)
        guard let etag = response.headers[.eTag], EntityTag.matches(request.headers[values: .ifNoneMatch], etag) else { return response }
        var unchanged = Response(status: .notModified, headers: EntityTag.notModifiedFields(response.headers))
        // The empty body's length is not the answer's.
        unchanged.headers[.contentLength] = nil
        return unchanged
    }
}
