import HTTPTypes
import Hummingbird

/// Answers 405 with `Allow` when a known path is asked with a method it does not answer,
/// whichever method that is (POST on a page, TRACE, QUERY, WebDAV's PROPFIND...). The router
/// alone knows only the methods it has routes for and answers any other one 404, as if the
/// address did not exist. Unknown paths go on to the router's 404.
struct MethodCheck<Context: RequestContext>: RouterMiddleware {
    /// One route path, split at its slashes, and the methods it answers.
    private struct Pattern {
        let segments: [Segment]
        let methods: [HTTPRequest.Method]

        func matches(_ path: [Substring]) -> Bool {
            path.count == segments.count && zip(segments, path).allSatisfy { $0.matches($1) }
        }
    }

    /// A segment as OpenAPI and Hummingbird write it: literal text, or `{name}` with optional
    /// literal text after it (`{id}.jpg`).
    private struct Segment {
        let literal: String?
        let suffix: String

        init(_ text: Substring) {
            if text.hasPrefix("{"), let close = text.firstIndex(of: "}") {
                literal = nil
                suffix = String(text[text.index(after: close)...])
            } else {
                literal = String(text)
                suffix = ""
            }
        }

        func matches(_ text: Substring) -> Bool {
            if let literal { return text == literal }
            return text.count > suffix.count && text.hasSuffix(suffix)
        }
    }

    private let patterns: [Pattern]

    /// A check for `allowed`: each route path with the methods it answers (see
    /// ``GalleryServer/allowedMethods(_:)``).
    init(_ allowed: [(path: String, methods: [HTTPRequest.Method])]) {
        patterns = allowed.map { Pattern(segments: Self.split($0.path).map(Segment.init), methods: $0.methods) }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = Self.split(request.uri.path[...])
        let matching = patterns.filter { $0.matches(path) }
        guard !matching.isEmpty, !matching.contains(where: { $0.methods.contains(request.method) }) else {
            return try await next(request, context)
        }
        let allow = GalleryServer.methodOrder.filter { method in matching.contains { $0.methods.contains(method) } }
            .map(\.rawValue).joined(separator: ", ")
        throw WebError(
            status: .methodNotAllowed, message: "This address does not answer \(request.method.rawValue); it answers \(allow).",
            headers: [.allow: allow])
    }

    private static func split<Path: StringProtocol>(_ path: Path) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { Substring($0) }
    }
}
