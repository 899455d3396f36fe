import BoothCore
import BoothStore
import Foundation
import HTTPTypes
import Hummingbird

/// The live streams: the camera's preview and the booth's screen as Motion JPEG
/// (`multipart/x-mixed-replace`, which every browser shows in an `<img>`), and new photos as
/// Server-Sent Events for the gallery's first page.
extension WebContext {
    var liveRoutes: [Route] {
        [
            Route(.get, "/preview.mjpg") { request, context in motionJPEG(live.preview, .preview, request, context) },
            Route(.get, "/screen.mjpg") { request, context in motionJPEG(live.screen, .screen, request, context) },
            Route(.get, "/api/events") { request, context in photoEvents(request, context) },
        ]
    }

    /// The boundary between the JPEGs of a Motion JPEG stream.
    static let frameBoundary = "photobooth-frame"

    /// A Motion JPEG stream of `feed`, starting with its latest picture. While it is open the
    /// feed counts a watcher, so the booth encodes frames only while someone looks.
    ///
    /// Each part ends with the boundary, so that a reader who waits for it knows at once that
    /// the picture is whole. A browser shows a part only once the next one's headers arrive:
    /// the screen, which can stay still for minutes, sends its first picture twice (the booth
    /// publishes each still picture twice as well); the camera's next frame is never far.
    func motionJPEG(
        _ feed: LatestValue<Data>, _ stream: WebMetrics.Stream, _ request: Request, _ context: GalleryRequestContext
    ) -> Response {
        let logger = context.logger
        let relay = ClientFeed(source: .newest(feed), name: "the \(stream.rawValue) stream", logger: logger)
        let metrics = self.metrics
        return Response(
            status: .ok,
            headers: [.contentType: "multipart/x-mixed-replace; boundary=\(Self.frameBoundary)", .cacheControl: "no-store"],
            body: ResponseBody { writer in
                let watch = feed.watch()
                let closeStream = metrics.openStream(stream)
                defer {
                    watch.end()
                    closeStream()
                }
                var sendsTwice = stream == .screen
                do {
                    try await relay.run(for: request, on: context.channel) { item in
                        switch item {
                        case .opened:
                            try await writer.write(ByteBuffer(string: "--\(Self.frameBoundary)\r\n"))
                        case .value(let jpeg):
                            let part = Self.part(jpeg)
                            try await writer.write(part)
                            if sendsTwice { try await writer.write(part) }
                            sendsTwice = false
                        case .keepAlive:
                            break
                        }
                    }
                    try await writer.finish(nil)
                } catch {
                    logger.debug("The \(stream.rawValue) stream to a client ended: \(error)")
                }
            })
    }

    /// One JPEG of a Motion JPEG stream, with its own headers, and the boundary that ends it
    /// (the stream's opening boundary comes before the first).
    static func part(_ jpeg: Data) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(jpeg.count + 128)
        buffer.writeString("Content-Type: image/jpeg\r\nContent-Length: \(jpeg.count)\r\n\r\n")
        buffer.writeBytes(jpeg)
        buffer.writeString("\r\n--\(frameBoundary)\r\n")
        return buffer
    }

    /// `/api/events`: an event `photo` for each photo the booth stores from now on, in order
    /// (its data is a ``PhotoCard`` as JSON, its time in the reader's language), and a comment line as keep-alive every
    /// `eventKeepAlive`. A client that lets more than ``WebSettings/eventBacklog`` events wait
    /// is disconnected rather than skipped: its browser reconnects, and the gallery page reloads
    /// to show what it missed.
    func photoEvents(_ request: Request, _ context: GalleryRequestContext) -> Response {
        // Each photo's time in the reader's language, as the page that listens writes it.
        let language = (try? BoothLanguage.of(request, fallback: settings.language))?.language ?? settings.language
        let metrics = self.metrics
        let logger = context.logger
        let relay = ClientFeed(
            source: .every(live.photoAdded, backlog: settings.eventBacklog), keepAlive: eventKeepAlive, name: "the event stream",
            logger: logger)
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody { writer in
                let closeStream = metrics.openStream(.events)
                defer { closeStream() }
                do {
                    // Only photos stored after the client connected: the page shows the others.
                    try await relay.run(for: request, on: context.channel) { item in
                        switch item {
                        case .opened:
                            // A browser reconnects after 3 s when the booth restarts.
                            try await writer.write(ByteBuffer(string: "retry: 3000\n\n"))
                        case .keepAlive:
                            try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                        case .value(let id):
                            // A photo deleted or hidden since is not announced.
                            guard let photo = try await library.offloaded({ library throws(LibraryError) in try library.gallery.photo(id: id) })
                            else {
                                return
                            }
                            try await writer.write(Self.event("photo", card(for: photo, in: language)))
                        }
                    }
                    try await writer.finish(nil)
                } catch {
                    logger.debug("The event stream to a client ended: \(error)")
                }
            })
    }

    /// One Server-Sent Event whose data is `value` as JSON (one line: JSON escapes line breaks).
    static func event(_ name: String, _ value: some Encodable) -> ByteBuffer {
        // Cards hold strings and integers, which always encode.
        let json = String(decoding: try! JSONEncoder.booth().encode(value), as: UTF8.self)
        return ByteBuffer(string: "event: \(name)\ndata: \(json)\n\n")
    }
}
