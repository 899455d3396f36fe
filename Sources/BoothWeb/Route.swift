import HTTPTypes
import Hummingbird

/// One route of the gallery: method, path and handler. The router is built from the list of
/// routes, and so are the 405 answers and the test that holds `docs/openapi.yaml` to the
/// routes. Paths are written as OpenAPI writes them (`/photos/{id}.jpg`), which is also how
/// Hummingbird reads them.
struct Route: Sendable {
    typealias Handler = @Sendable (Request, GalleryRequestContext) async throws -> Response

    let method: HTTPRequest.Method
    let path: String
    let handler: Handler

    init(_ method: HTTPRequest.Method, _ path: String, _ handler: @escaping Handler) {
        self.method = method
        self.path = path
        self.handler = handler
    }
}
