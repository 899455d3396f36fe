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
struct GalleryChannel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

    let responder: HTTPChannelHandler.Responder
    let kept: KeptAnswers
    let metrics: WebMetrics
    let idleTimeout: TimeAmount

    /// A server of `gallery`'s answers as `settings` say.
    static func builder(_ gallery: Gallery) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            GalleryChannel(responder: responder, kept: gallery.kept, metrics: gallery.metrics, idleTimeout: TimeAmount(gallery.settings.idleTimeout))
        }
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
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
            try pipeline.addHandler(KeptAnswerHandler(kept: kept, metrics: metrics, idleTimeout: idleTimeout))
            try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            try pipeline.addHandler(HTTPConnectionStateHandler(idleTimeout: nil, logger: logger))
            return try NIOAsyncChannel(wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
        }
    }

    func handle(value: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: value, logger: logger)
    }
}
