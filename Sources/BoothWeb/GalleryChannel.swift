import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// A connection to the gallery: Hummingbird's HTTP/1.1 channel with ``KeptAnswerHandler`` in
/// front of the conversion to Swift's HTTP types, where a body can still be a file region
/// (the conversion carries only bytes in memory). The idle timeout moves to that handler,
/// which sees every request; the rest is as ``HummingbirdCore/HTTP1Channel`` sets it up.
///
/// Each connection is first let in by the ``ConnectionTable`` (or closed at once, before it is
/// registered with the event loop), and ``ConnectionActivity`` tells the table whether a
/// request is in progress on it. HummingbirdCore gives no place for a handler of the listening
/// socket's own, so the limits are kept here, where every accepted connection passes first.
struct GalleryChannel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

    let responder: HTTPChannelHandler.Responder
    let kept: KeptAnswers
    let metrics: WebMetrics
    let connections: ConnectionTable
    let idleTimeout: TimeAmount

    /// A server of `gallery`'s answers as `settings` say.
    static func builder(_ gallery: Gallery) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            GalleryChannel(
                responder: responder, kept: gallery.kept, metrics: gallery.metrics, connections: gallery.connections,
                idleTimeout: TimeAmount(gallery.settings.idleTimeout))
        }
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        guard let slot = connections.admit(channel) else {
            // Not registered yet: closing it is closing its socket, at once.
            channel.close(promise: nil)
            return channel.eventLoop.makeFailedFuture(ConnectionRefused())
        }
        let connections = connections
        channel.closeFuture.whenComplete { _ in connections.remove(slot) }
        let setUp = channel.eventLoop.makeCompletedFuture { () throws -> Value in
            let decoder = HTTP1Channel.Configuration().httpDecoder
            var limits = NIOHTTPDecoderLimitConfiguration()
            limits.maxHeaderFieldSize = decoder.maxHeaderFieldSize
            limits.maxHeaderListSize = decoder.maxHeaderListSize
            limits.maxHeaderFieldCount = decoder.maxHeaderFieldCount
            let pipeline = channel.pipeline.syncOperations
            // Pipelined requests reach the handler, which keeps their answers in order.
            try pipeline.configureHTTPServerPipeline(
                withPipeliningAssistance: false, withErrorHandling: false, withOutboundHeaderValidation: false,
                withEncoderConfiguration: .init(), withDecoderLimitConfiguration: limits)
            try pipeline.addHandler(ConnectionActivity(slot: slot))
            try pipeline.addHandler(KeptAnswerHandler(kept: kept, metrics: metrics, idleTimeout: idleTimeout))
            try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            try pipeline.addHandler(HTTPConnectionStateHandler(idleTimeout: nil, logger: logger))
            return try NIOAsyncChannel(wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
        }
        // A connection that cannot be set up is nobody's: NIO leaves closing it to us.
        setUp.whenFailure { _ in channel.close(promise: nil) }
        return setUp
    }

    func handle(value: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: value, logger: logger)
    }
}

/// A connection the ``ConnectionTable`` did not let in: closed as soon as accepted.
struct ConnectionRefused: Error {}
