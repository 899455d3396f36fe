import BoothCore
import BoothStore
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// The web gallery as a service of the booth: pages, images, the JSON API, live streams,
/// health and metrics over HTTP/1.1, until the service group shuts down. On graceful shutdown
/// it stops accepting connections, ends the live streams and lets answers in progress finish.
public struct GalleryServer: Service {
    private let application: Application<RouterResponder<GalleryRequestContext>>
    private let settings: WebSettings

    /// A server for `library` and `live` as `settings` say. Nothing is bound before ``run()``.
    public init(library: PhotoLibrary, live: LiveBooth, settings: WebSettings, logger: Logger) {
        self.application = Self.buildApplication(library: library, live: live, settings: settings, logger: logger)
        self.settings = settings
    }

    /// Serves until graceful shutdown. Logs "Web gallery on http://ADDR:PORT" once listening.
    public func run() async throws {
        do {
            // Every task of the server (connections, requests, streams) inherits the
            // preference, so none of them runs on the cooperative pool the booth works on.
            try await withTaskExecutorPreference(WebThreads.handlers) {
                try await application.run()
            }
        } catch {
            throw GalleryServerError(
                description: """
                    The web gallery cannot serve on \(settings.address):\(settings.port): \(error). \
                    If another program uses the port, stop it or set another web port in the booth's configuration.
                    """)
        }
    }

    /// The path of a photo's page, `/photos/<lowercased uuid>`: the QR code on the booth's
    /// screen links to it.
    public static func pagePath(of id: UUID) -> String {
        GalleryPaths.page(of: id)
    }

    /// The application, ready to run or to test (`app.test(.router)` needs no socket).
    static func buildApplication(
        library: PhotoLibrary, live: LiveBooth, settings: WebSettings, logger: Logger,
        eventKeepAlive: Duration = .seconds(15)
    ) -> Application<RouterResponder<GalleryRequestContext>> {
        let gallery = Gallery(library: library, live: live, settings: settings, logger: logger, eventKeepAlive: eventKeepAlive)
        return Application(
            router: buildRouter(gallery),
            server: .http1(configuration: .init(idleTimeout: TimeAmount(settings.idleTimeout))),
            configuration: ApplicationConfiguration(address: .hostname(settings.address, port: settings.port)),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? settings.port
                logger.info("Web gallery on http://\(settings.address):\(port)")
            },
            eventLoopGroupProvider: .shared(WebThreads.eventLoops),
            logger: logger)
    }

    /// Every route of the gallery, in the order of `docs/openapi.yaml`.
    static func routes(_ gallery: Gallery) -> [Route] {
        gallery.pageRoutes + gallery.imageRoutes + gallery.apiRoutes + gallery.adminRoutes + gallery.liveRoutes
            + gallery.operationRoutes
    }

    /// The router: the routes, HEAD for each GET, and 405 with `Allow` for the other common
    /// methods on a known path (unknown methods and paths are 404).
    static func buildRouter(_ gallery: Gallery) -> Router<GalleryRequestContext> {
        let router = Router(context: GalleryRequestContext.self, options: [.autoGenerateHeadEndpoints])
        router.add(middleware: AnswerCounting(metrics: gallery.metrics))
        router.add(middleware: ErrorPresentation(pages: gallery.pages))
        let routes = routes(gallery)
        for route in routes {
            router.on(RouterPath(route.path), method: route.method) { request, context in
                try await route.handler(request, context)
            }
        }
        for (path, methods) in allowedMethods(routes) {
            let allow = methods.map(\.rawValue).joined(separator: ", ")
            for method in commonMethods where !methods.contains(method) {
                router.on(RouterPath(path), method: method) { _, _ -> Response in
                    throw WebError(
                        status: .methodNotAllowed, message: "This address does not answer \(method.rawValue); it answers \(allow).",
                        headers: [.allow: allow])
                }
            }
        }
        return router
    }

    /// The methods that get a 405 on a path that does not answer them.
    static let commonMethods: [HTTPRequest.Method] = [.get, .head, .post, .put, .patch, .delete, .options]

    /// Each path with the methods it answers, HEAD included wherever GET is, in a stable order.
    static func allowedMethods(_ routes: [Route]) -> [(path: String, methods: [HTTPRequest.Method])] {
        var byPath: [String: Set<HTTPRequest.Method>] = [:]
        var order: [String] = []
        for route in routes {
            if byPath[route.path] == nil { order.append(route.path) }
            byPath[route.path, default: []].insert(route.method)
            if route.method == .get { byPath[route.path, default: []].insert(.head) }
        }
        return order.map { path in (path, commonMethods.filter { byPath[path]!.contains($0) }) }
    }
}

/// Why the web gallery stopped serving, in words for the booth's log.
public struct GalleryServerError: Error, CustomStringConvertible {
    public let description: String
}

extension TimeAmount {
    /// A NIO time amount of `duration`, to the nanosecond.
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
