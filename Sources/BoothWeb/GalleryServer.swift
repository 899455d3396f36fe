import BoothCore
import BoothStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

/// The web gallery as a service of the booth: pages, images, the JSON API, live streams,
/// health and metrics over HTTP/1.1, until the service group shuts down. On graceful shutdown
/// it stops accepting connections, ends the live streams and lets answers in progress finish.
///
/// It runs HummingbirdCore's server itself rather than Hummingbird's `Application.run()`.
/// That method starts a service group of its own with a date-header timer made with
/// `cancelOnGracefulShutdown()`, that is swift-async-algorithms' `merge`. In version 1.1.4 (the
/// newest we have) `merge` holds its lock while it registers a continuation, so a cancellation
/// in between deadlocks both threads (swift-async-algorithms #430, fixed by #444): a web port
/// that cannot be bound cancels that timer at once, and about one start in five hung forever,
/// deaf to SIGTERM. Here nothing of the web builds a `merge`: the server shuts down by its
/// graceful-shutdown handler and ``HTTPDate`` writes the date.
///
/// The tests run this type too, each on a port of its own.
package struct GalleryServer: Service {
    let gallery: WebContext
    private let responder: RouterResponder<GalleryRequestContext>
    private let server: HTTPServerBuilder
    private let address: (host: String, port: Int)
    private let onListening: (@Sendable (Int) async -> Void)?

    /// A server for `library` and `live` as `settings` say. Nothing is bound before ``run()``.
    package init(library: PhotoLibrary, live: BoothFeeds, settings: WebSettings, logger: Logger) {
        self.init(library: library, live: live, settings: settings, logger: logger, eventKeepAlive: .seconds(15))
    }

    /// A server whose event stream sends a keep-alive every `eventKeepAlive`, which listens on
    /// `listeningOn` rather than where `settings` say, and tells `onListening` its port once it
    /// listens.
    init(
        library: PhotoLibrary, live: BoothFeeds, settings: WebSettings, logger: Logger, eventKeepAlive: Duration,
        listeningOn: (host: String, port: Int)? = nil, onListening: (@Sendable (Int) async -> Void)? = nil
    ) {
        gallery = WebContext(library: library, live: live, settings: settings, logger: logger, eventKeepAlive: eventKeepAlive)
        responder = Self.buildRouter(gallery).buildResponder()
        server = GalleryChannel.builder(gallery)
        address = listeningOn ?? (settings.address, settings.port)
        self.onListening = onListening
    }

    private var logger: Logger { gallery.logger }

    /// Serves until graceful shutdown. Logs "Web gallery on http://ADDR:PORT" once listening.
    package func run() async throws {
        let (logger, responder, server, address, onListening) = (logger, responder, server, address, onListening)
        do {
            // Every task of the server (connections, requests, streams) inherits the
            // preference, so none of them runs on the cooperative pool the booth works on.
            try await withTaskExecutorPreference(WebThreads.handlers) {
                let service = try server.buildServer(
                    configuration: ServerConfiguration(address: .hostname(address.host, port: address.port)),
                    eventLoopGroup: WebThreads.eventLoops, logger: logger,
                    responder: { request, writer, channel in
                        let response = await Self.answer(request, on: channel, with: responder, logger: logger)
                        try await writer.write(response: response.head, body: response.body)
                    },
                    onServerRunning: { channel in
                        let port = channel.localAddress?.port ?? address.port
                        logger.info("Web gallery on http://\(address.host):\(port)")
                        await onListening?(port)
                    })
                try await service.run()
            }
        } catch {
            throw GalleryServerError(description: "The web gallery cannot serve on \(address.host):\(address.port): \(Self.explain(error))")
        }
    }

    /// Why the server could not listen, in words, and what to do.
    private static func explain(_ error: any Error) -> String {
        switch (error as? IOError)?.errnoCode {
        case EADDRINUSE?:
            "another program uses the port: stop it, or set another web port (http.port) in the booth's configuration"
        case EADDRNOTAVAIL?:
            "the address is not one of this machine's: use 0.0.0.0 (all) or one that `ip -brief address` lists (http.address)"
        case EACCES?:
            "ports below 1024 need the capability the packaged service has (CAP_NET_BIND_SERVICE): use a port of 1024 or more (http.port)"
        case let code?:
            "\(String(cString: strerror(code))) (\(error))"
        case nil:
            "\(error)"
        }
    }

    /// The router's answer to `request`; a failure that got past the error pages is a bare 500.
    private static func answer(
        _ request: Request, on channel: any Channel, with responder: RouterResponder<GalleryRequestContext>, logger: Logger
    ) async -> Response {
        let context = GalleryRequestContext(source: ApplicationRequestContextSource(channel: channel, logger: logger))
        do {
            return try await responder.respond(to: request, context: context)
        } catch {
            logger.debug("Web request \(request.method) \(request.uri.path) failed: \(error)")
            return Response(status: .internalServerError)
        }
    }

    /// The path of a photo's page, `/photos/<lowercased uuid>`: the QR code on the booth's
    /// screen links to it.
    package static func pagePath(of id: UUID) -> String {
        GalleryPaths.page(of: id)
    }

    /// Every route of the gallery, in the order of `docs/openapi.yaml`.
    static func routes(_ gallery: WebContext) -> [Route] {
        gallery.pageRoutes + gallery.guestRoutes + gallery.guestPrintRoutes + gallery.imageRoutes + gallery.apiRoutes + gallery.adminRoutes
            + gallery.liveRoutes + gallery.operationRoutes + gallery.portalRoutes
    }

    /// The router: the routes, HEAD for each GET, and 405 with `Allow` for any other method on a
    /// known path (``MethodCheck``); unknown paths are 404, a query that does not decode 400
    /// (``QueryCheck``); a 304 to a client that has the answer (``ConditionalGet``). What every
    /// answer carries beside (`Date`, the security headers) the connection adds
    /// (``ConnectionRules``), to the router's answers as to its own.
    static func buildRouter(_ gallery: WebContext) -> Router<GalleryRequestContext> {
        let router = Router(context: GalleryRequestContext.self, options: [.autoGenerateHeadEndpoints])
        let routes = routes(gallery)
        router.add(middleware: ConditionalGet())
        router.add(middleware: ErrorPresentation(pages: gallery.pages, boothName: gallery.settings.boothName, fallback: gallery.settings.language))
        if let guests = gallery.settings.hotspot {
            router.add(middleware: CaptivePortal(guests, clock: gallery.settings.clock))
        }
        router.add(middleware: MethodCheck(allowedMethods(routes)))
        router.add(middleware: QueryCheck())
        let operatorPaths = gallery.operatorPaths
        for route in routes {
            let forOperator = operatorPaths.contains(route.path)
            router.on(RouterPath(route.path), method: route.method) { request, context in
                if forOperator { try gallery.refuseHotspotGuests(context) }
                return try await route.handler(request, context)
            }
        }
        return router
    }

    /// The order methods are listed in `Allow`.
    static let methodOrder: [HTTPRequest.Method] = [.get, .head, .post, .put, .patch, .delete]

    /// Each path with the methods it answers, HEAD included wherever GET is, in a stable order.
    static func allowedMethods(_ routes: [Route]) -> [(path: String, methods: [HTTPRequest.Method])] {
        var byPath: [String: Set<HTTPRequest.Method>] = [:]
        var order: [String] = []
        for route in routes {
            if byPath[route.path] == nil { order.append(route.path) }
            byPath[route.path, default: []].insert(route.method)
            if route.method == .get { byPath[route.path, default: []].insert(.head) }
        }
        return order.map { path in (path, methodOrder.filter { byPath[path]!.contains($0) }) }
    }
}

/// Why the web gallery stopped serving, in words for the booth's log.
package struct GalleryServerError: Error, CustomStringConvertible {
    package let description: String
}

extension TimeAmount {
    /// A NIO time amount of `duration`, to the nanosecond.
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
