import Hummingbird
import Synchronization

/// The web gallery's own measurements, for `/metrics`: answers by status class, and the live
/// streams open now.
final class WebMetrics: Sendable {
    /// The streams whose open connections are counted.
    enum Stream: String, CaseIterable, Sendable {
        case preview, screen, events
    }

    private struct Counts {
        /// Answers by the first digit of their status: index 1 is 1xx ... index 5 is 5xx.
        var answers = [Int](repeating: 0, count: 6)
        var openStreams: [Stream: Int] = [:]
    }

    private let counts = Mutex(Counts())

    func countAnswer(_ status: HTTPResponse.Status) {
        let kind = status.code / 100
        guard (1...5).contains(kind) else { return }
        counts.withLock { $0.answers[kind] += 1 }
    }

    /// Counts a stream as open until the returned closure is called.
    func openStream(_ stream: Stream) -> @Sendable () -> Void {
        counts.withLock { $0.openStreams[stream, default: 0] += 1 }
        return { [self] in counts.withLock { $0.openStreams[stream, default: 0] -= 1 } }
    }

    /// The web's part of `/metrics`, in Prometheus' text format.
    func exposition() -> String {
        let counts = counts.withLock { $0 }
        var text = """
            # HELP photobooth_http_requests_total Requests the web gallery answered, by status class.
            # TYPE photobooth_http_requests_total counter

            """
        for kind in 1...5 {
            text += "photobooth_http_requests_total{code=\"\(kind)xx\"} \(counts.answers[kind])\n"
        }
        text += """
            # HELP photobooth_web_streams Live streams open now (camera preview, booth screen, new-photo events).
            # TYPE photobooth_web_streams gauge

            """
        for stream in Stream.allCases {
            text += "photobooth_web_streams{stream=\"\(stream.rawValue)\"} \(counts.openStreams[stream, default: 0])\n"
        }
        return text
    }
}

/// Counts every answer of the gallery by status class. It runs outside ``ErrorPresentation``,
/// which turns every error into an answer, so errors are counted with their status.
struct AnswerCounting<Context: RequestContext>: RouterMiddleware {
    let metrics: WebMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let response = try await next(request, context)
        metrics.countAnswer(response.status)
        return response
    }
}
