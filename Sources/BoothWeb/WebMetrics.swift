import BoothCore
import Synchronization

/// The web gallery's own measurements, for `/metrics`: answers by status class (and how many
/// were kept answers), the live streams and connections open now, and the connections closed
/// for the limits.
final class WebMetrics: Sendable {
    /// The streams whose open connections are counted.
    enum Stream: String, CaseIterable, Sendable {
        case preview, screen, events
    }

    private struct Counts {
        /// Answers by the first digit of their status: index 1 is 1xx ... index 5 is 5xx.
        var answers = [Int](repeating: 0, count: 6)
        /// Those of them that the connection wrote from memory (``KeptAnswerHandler``).
        var keptAnswers = 0
        var openStreams: [Stream: Int] = [:]
        var openConnections = 0
        /// Idle connections closed to let a new one in, and new ones closed because none was idle.
        var evictedConnections = 0
        var refusedConnections = 0
    }

    private let counts = Mutex(Counts())

    /// Counts an answer with status `code`, as the connection writes it (``ConnectionRules``).
    func countAnswer(_ code: UInt) {
        let kind = Int(code / 100)
        guard (1...5).contains(kind) else { return }
        counts.withLock { $0.answers[kind] += 1 }
    }

    /// Counts an answer that the connection wrote from memory, without the router
    /// (``KeptAnswerHandler``); ``countAnswer(_:)`` counts it too.
    func countKeptAnswer() {
        counts.withLock { $0.keptAnswers += 1 }
    }

    /// Counts a stream as open until the returned closure is called.
    func openStream(_ stream: Stream) -> @Sendable () -> Void {
        counts.withLock { $0.openStreams[stream, default: 0] += 1 }
        return { [self] in counts.withLock { $0.openStreams[stream, default: 0] -= 1 } }
    }

    /// `count` connections are open now (``ConnectionTable``).
    func connectionsOpen(_ count: Int) {
        counts.withLock { $0.openConnections = count }
    }

    /// Counts a connection closed for the limits: an idle one closed to let a new one in
    /// (`evicted`), or a new one closed because none was idle.
    func countConnectionClosed(evicted: Bool) {
        counts.withLock { counts in
            if evicted {
                counts.evictedConnections += 1
            } else {
                counts.refusedConnections += 1
            }
        }
    }

    /// Adds the web's families to `/metrics`: answers by status class, open streams and
    /// connections, and the connections closed for the limits.
    func write(into text: inout PrometheusText) {
        let counts = counts.withLock { $0 }
        text.add(
            "photobooth_http_requests_total", .counter, help: "Requests the web gallery answered, by status class.",
            samples: (1...5).map { PrometheusText.Sample(labels: ["code": "\($0)xx"], value: counts.answers[$0]) })
        text.add(
            "photobooth_http_kept_answers_total", .counter,
            help: "Of those requests, the ones answered from memory by the connection itself, without the router.",
            samples: [PrometheusText.Sample(labels: [:], value: counts.keptAnswers)])
        text.add(
            "photobooth_web_streams", .gauge, help: "Live streams open now (camera preview, booth screen, new-photo events).",
            samples: Stream.allCases.map { PrometheusText.Sample(labels: ["stream": $0.rawValue], value: counts.openStreams[$0, default: 0]) })
        text.add(
            "photobooth_web_connections", .gauge, help: "Connections to the web gallery open now.",
            samples: [PrometheusText.Sample(labels: [:], value: counts.openConnections)])
        text.add(
            "photobooth_web_connections_closed_total", .counter,
            help: "Connections the web gallery closed for its limits: idle ones to let new ones in (evicted), new ones when none was idle (refused).",
            samples: [
                PrometheusText.Sample(labels: ["reason": "evicted"], value: counts.evictedConnections),
                PrometheusText.Sample(labels: ["reason": "refused"], value: counts.refusedConnections),
            ])
    }
}
