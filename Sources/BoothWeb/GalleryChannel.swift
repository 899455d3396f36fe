import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypesHTTP1

/// A connection to the gallery: Hummingbird's HTTP/1.1 channel (``HummingbirdCore/HTTP1Channel``,
/// set up by itself, without an idle timeout of its own) with two handlers of the gallery in
/// front of its conversion to Swift's HTTP types: ``ConnectionRules``, next to the socket,
/// which every answer follows, and ``KeptAnswerHandler``, which answers kept answers on the
/// event loop. Both need to be there: they see the requests the other answers, and a body
/// written there can still be a file region, which `sendfile` sends (the conversion carries
/// only bytes in memory, and `additionalChannelHandlers`, Hummingbird's own place for
/// handlers, is after it).
///
/// Each connection is first let in by the ``ConnectionTable`` (or closed at once, before it is
/// registered with the event loop), and ``ConnectionRules`` tells the table whether a request
/// is in progress on it. HummingbirdCore gives no place for a handler of the listening
/// socket's own, so the limits are kept here, where every accepted connection passes first.
struct GalleryChannel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let http1: HTTP1Channel
    let kept: ResponseCache
    let metrics: WebMetrics
    let connections: ConnectionTable
    let timing: ConnectionRules.Timing

    init(responder: @escaping HTTPChannelHandler.Responder, gallery: WebContext) {
        http1 = HTTP1Channel(responder: responder)
        kept = gallery.kept
        metrics = gallery.metrics
        connections = gallery.connections
        let idleTimeout = TimeAmount(gallery.settings.idleTimeout)
        timing = ConnectionRules.Timing(idleTimeout: idleTimeout, stallLimit: gallery.settings.stallLimit.map(TimeAmount.init) ?? idleTimeout)
    }

    /// A server of `gallery`'s answers.
    static func builder(_ gallery: WebContext) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in GalleryChannel(responder: responder, gallery: gallery) }
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        guard let slot = connections.admit(channel) else {
            // Not registered yet: closing it is closing its socket, at once.
            channel.close(promise: nil)
            return channel.eventLoop.makeFailedFuture(ConnectionRefused())
        }
        let (connections, kept, metrics, timing) = (connections, kept, metrics, timing)
        channel.closeFuture.whenComplete { _ in connections.remove(slot) }
        let setUp = http1.setup(channel: channel, logger: logger).assumeIsolated().flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let codec = try pipeline.handler(type: HTTP1ToHTTPServerCodec.self)
            try pipeline.addHandler(ConnectionRules(timing: timing, metrics: metrics, slot: slot), position: .before(codec))
            try pipeline.addHandler(KeptAnswerHandler(kept: kept, metrics: metrics), position: .before(codec))
            return value
        }.nonisolated()
        // A connection that cannot be set up is nobody's: NIO leaves closing it to us.
        setUp.whenFailure { _ in channel.close(promise: nil) }
        return setUp
    }

    func handle(value: Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}

/// A connection the ``ConnectionTable`` did not let in: closed as soon as accepted.
struct ConnectionRefused: Error {}
