import BoothCore
import Foundation
import HTTPTypes
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing

@testable import BoothWeb

/// The rules every connection follows (``ConnectionRules``), on embedded channels whose event
/// loop's time the tests advance: no socket, no wall clock, closes at the very moment the
/// settings say.
@Suite("Connection rules")
struct ConnectionRulesTests {
    static let idleTimeout = TimeAmount.seconds(30)
    static let stallLimit = TimeAmount.seconds(5)

    /// Runs `body` with the gallery's own connection, set up and handled as the server does
    /// (``GalleryChannel``), on an embedded channel whose router answers nothing.
    static func withConnection(
        _ gallery: WebContext, _ body: (NIOAsyncTestingChannel, NIOAsyncTestingEventLoop) async throws -> Void
    ) async throws {
        let loop = NIOAsyncTestingEventLoop()
        let channel = NIOAsyncTestingChannel(loop: loop)
        let connection = GalleryChannel(responder: { _, _, _ in }, gallery: gallery)
        let value = try await loop.flatSubmit { connection.setup(channel: channel, logger: Logger(label: "test")) }.get()
        try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 80))
        let handling = Task { await connection.handle(value: value, logger: Logger(label: "test")) }
        do {
            try await body(channel, loop)
        } catch {
            _ = try? await channel.close()
            await handling.value
            throw error
        }
        _ = try? await channel.close()
        await handling.value
    }

    static func gallery(_ fixture: WebFixture) -> WebContext {
        var settings = WebSettings(boothName: "Test Booth", idleTimeout: .seconds(30))
        settings.stallLimit = .seconds(5)
        return WebContext(library: fixture.library, live: fixture.live, settings: settings, logger: Logger(label: "test"))
    }

    /// The rules alone on an embedded channel, as the connection's handlers further in would
    /// use them: requests in, answers' parts out.
    static func rules(metrics: WebMetrics = WebMetrics()) throws -> (EmbeddedChannel, EmbeddedEventLoop) {
        let loop = EmbeddedEventLoop()
        let rules = ConnectionRules(timing: .init(idleTimeout: idleTimeout, stallLimit: stallLimit), metrics: metrics, slot: nil)
        let channel = EmbeddedChannel(handler: rules, loop: loop)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 80)).wait()
        return (channel, loop)
    }

    static func request(_ method: HTTPMethod = .GET, _ uri: String = "/", headers: HTTPHeaders = ["Host": "localhost"]) -> HTTPServerRequestPart {
        .head(HTTPRequestHead(version: .http1_1, method: method, uri: uri, headers: headers))
    }

    /// ``expectClosed(_:_:after:_:sourceLocation:)`` on an embedded channel for async tests.
    static func expectClosed(
        _ channel: NIOAsyncTestingChannel, _ loop: NIOAsyncTestingEventLoop, after time: TimeAmount, _ what: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        await loop.advanceTime(by: time - .nanoseconds(1))
        #expect(channel.isActive, "\(what): open until the very end", sourceLocation: sourceLocation)
        await loop.advanceTime(by: .nanoseconds(1))
        #expect(!channel.isActive, "\(what): closed at the time", sourceLocation: sourceLocation)
    }

    /// Advances `loop` to just before `time` has passed since the last activity, checks that
    /// the connection is open, then to `time`, and checks that it is closed.
    static func expectClosed(
        _ channel: EmbeddedChannel, _ loop: EmbeddedEventLoop, after time: TimeAmount, _ what: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        loop.advanceTime(by: time - .nanoseconds(1))
        #expect(channel.isActive, "\(what): open until the very end", sourceLocation: sourceLocation)
        loop.advanceTime(by: .nanoseconds(1))
        #expect(!channel.isActive, "\(what): closed at the time", sourceLocation: sourceLocation)
    }

    @Test("A connection that sends nothing, or half a request's head, is closed at the idle timeout")
    func quietConnections() async throws {
        let fixture = try WebFixture()
        try await Self.withConnection(Self.gallery(fixture)) { quiet, loop in
            await Self.expectClosed(quiet, loop, after: Self.idleTimeout, "a connection that never sends a request")
        }
        try await Self.withConnection(Self.gallery(fixture)) { half, loop in
            await loop.advanceTime(by: .seconds(20))
            // Bytes that make no whole head are not a request: a client that trickles its head
            // holds the connection no longer than a silent one.
            try await half.writeInbound(ByteBuffer(string: "GET / HTTP/1.1\r\nHost: local"))
            await Self.expectClosed(half, loop, after: .seconds(10), "half a head")
        }
    }

    @Test("A request whose body stops coming is closed at the idle timeout after its last part, kept answer or not")
    func stalledBodies() async throws {
        let fixture = try WebFixture()
        let gallery = Self.gallery(fixture)
        let kept = gallery.kept
        let stalled = HTTPRequestHead(version: .http1_1, method: .GET, uri: "/", headers: ["Host": "localhost", "Content-Length": "10"])
        let answer = ServedAnswer(KeptAnswer(headers: [.contentType: "text/plain", .eTag: "\"1\""], body: ByteBuffer(string: "kept")))
        kept.served.keep(answer, for: RequestKey.of(stalled), generation: kept.generation.current, cost: answer.cost)
        for (request, isKept) in [
            ("GET / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 10\r\n\r\nkey=", true),
            ("POST /photos/x/delete HTTP/1.1\r\nHost: localhost\r\nContent-Length: 500\r\n\r\nkey=", false),
        ] {
            try await Self.withConnection(gallery) { channel, loop in
                await loop.advanceTime(by: .seconds(3))
                try await channel.writeInbound(ByteBuffer(string: request))
                let written = try await channel.readOutbound(as: ByteBuffer.self).map { String(buffer: $0) } ?? ""
                #expect(written.hasPrefix("HTTP/1.1 200 OK") == isKept, "answered by the connection, or passed on: \(written)")
                await Self.expectClosed(channel, loop, after: Self.idleTimeout, request)
            }
        }
    }

    @Test("An answer being made keeps its connection past the idle timeout; its end starts the timeout")
    func answerInProgress() throws {
        let (channel, loop) = try Self.rules()
        try channel.writeInbound(Self.request())
        try channel.writeInbound(HTTPServerRequestPart.end(nil))
        loop.advanceTime(by: .seconds(300))
        #expect(channel.isActive, "the answer is being made")
        try channel.writeOutbound(HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok)))
        try channel.writeOutbound(HTTPServerResponsePart.end(nil))
        Self.expectClosed(channel, loop, after: Self.idleTimeout, "quiet once answered")
    }

    /// Holds back what is flushed while ``stalled``, as a socket whose client reads nothing:
    /// the writes stay pending.
    final class StalledClient: ChannelOutboundHandler {
        typealias OutboundIn = Any
        var stalled = false

        func flush(context: ChannelHandlerContext) {
            if !stalled { context.flush() }
        }
    }

    @Test("A client that takes nothing of an answer is closed at the stall limit; one that keeps taking is not")
    func stalledClients() throws {
        let loop = EmbeddedEventLoop()
        let client = StalledClient()
        let rules = ConnectionRules(timing: .init(idleTimeout: Self.idleTimeout, stallLimit: Self.stallLimit), metrics: WebMetrics(), slot: nil)
        let channel = EmbeddedChannel(handlers: [client, rules], loop: loop)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 80)).wait()
        try channel.writeInbound(Self.request(.GET, "/preview.mjpg"))
        try channel.writeInbound(HTTPServerRequestPart.end(nil))
        try channel.writeOutbound(HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok)))
        // A picture every four seconds, each taken at once: the stream goes on however long.
        for _ in 0..<20 {
            loop.advanceTime(by: .seconds(4))
            try channel.writeOutbound(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(string: "picture"))))
        }
        #expect(channel.isActive, "a client that takes every picture")
        // A picture that the client never takes.
        loop.advanceTime(by: .seconds(2))
        client.stalled = true
        channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(string: "picture"))), promise: nil)
        Self.expectClosed(channel, loop, after: Self.stallLimit, "a client that stopped taking")
    }

    @Test("A graceful shutdown closes an idle connection at once, a busy one once its answer is written out")
    func gracefulShutdown() throws {
        let (idle, _) = try Self.rules()
        idle.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        #expect(!idle.isActive, "nothing in progress")

        let (busy, _) = try Self.rules()
        try busy.writeInbound(Self.request())
        try busy.writeInbound(HTTPServerRequestPart.end(nil))
        busy.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        #expect(busy.isActive, "an answer is being made")
        try busy.writeOutbound(HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok)))
        busy.write(HTTPServerResponsePart.end(nil), promise: nil)
        #expect(busy.isActive, "the answer's end is not out yet")
        busy.flush()
        #expect(!busy.isActive, "closed once the answer is out")
    }

    @Test("Every answer's head gets the Date, the security headers, and its count")
    func answerHeaders() throws {
        let metrics = WebMetrics()
        let (channel, _) = try Self.rules(metrics: metrics)
        for (type, status) in [("text/html; charset=utf-8", HTTPResponseStatus.ok), ("application/json", .notFound)] {
            try channel.writeInbound(Self.request())
            try channel.writeInbound(HTTPServerRequestPart.end(nil))
            try channel.writeOutbound(
                HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: status, headers: ["Content-Type": type])))
            try channel.writeOutbound(HTTPServerResponsePart.end(nil))
            guard case .head(let head) = try #require(try channel.readOutbound(as: HTTPServerResponsePart.self)) else {
                Issue.record("no head")
                continue
            }
            _ = try channel.readOutbound(as: HTTPServerResponsePart.self)
            let html = type.hasPrefix("text/html")
            #expect(head.headers["Date"].count == 1 && head.headers["Date"][0].hasSuffix(" GMT"))
            #expect(head.headers["X-Content-Type-Options"] == ["nosniff"])
            #expect(head.headers["Content-Security-Policy"] == (html ? ["frame-ancestors 'none'"] : []))
            #expect(head.headers["Referrer-Policy"] == (html ? ["no-referrer"] : []))
        }
        var text = PrometheusText()
        metrics.write(into: &text)
        #expect(text.description.contains("photobooth_http_requests_total{code=\"2xx\"} 1"))
        #expect(text.description.contains("photobooth_http_requests_total{code=\"4xx\"} 1"))
    }
}
