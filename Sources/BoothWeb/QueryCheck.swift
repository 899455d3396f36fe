import Hummingbird

// The middleware stands apart from FormValues, which the fuzz targets compile without
// Hummingbird (fuzz/Shared/BoothWeb).

/// Answers 400 to a request whose query does not decode (``FormValues/check(query:)``),
/// whatever the route: a page or the API reads its parameters only once they are known to be
/// text.
struct QueryCheck<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            try FormValues.check(query: request.uri.query)
        } catch {
            throw WebError.badRequest(error.message)
        }
        return try await next(request, context)
    }
}
