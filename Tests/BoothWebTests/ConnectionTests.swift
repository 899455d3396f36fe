import BoothCore
import Foundation
import Logging
import NIOCore
import ServiceLifecycle
import StoreFixture
import Synchronization
import Testing

@testable import BoothWeb

@Suite("Connections")
struct ConnectionTests {
    @Test("A request with 100 KB of headers is refused with 400, and the server goes on")
    func hugeHeaders() async throws {
        let fixture = try WebFixture()
        try await fixture.server().test { client in
            let port = try #require(client.port)
            try await RawConnection.with(port: port) { session in
                let big = String(repeating: "x", count: 100 * 1024)
                try? await session.send("GET / HTTP/1.1\r\nHost: localhost\r\nX-Big: \(big)\r\n\r\n")
                try await session.readUntilClosed()
                // The answer may be lost to the reset of a connection closed with unread input;
                // what matters is that no page came back and the connection ended.
                if let response = session.response { #expect(response.status == 400) }
            }
            let after = try await client.execute(uri: "/healthz", method: .get)
            #expect(after.status == .ok)
        }
    }

    @Test("Absolute URLs follow the Host the client used, and ignore a Host that is not one")
    func hostHeader() async throws {
        let fixture = try WebFixture()
        let photo = try fixture.add()
        let settings = WebSettings(address: "127.0.0.1", port: 8080)
        try await fixture.server(settings).test { client in
            let port = try #require(client.port)
            for (host, origin) in [
                ("booth.local:8080", "http://booth.local:8080"), ("192.168.4.1", "http://192.168.4.1"),
                ("[fe80::1]:80", "http://[fe80::1]:80"), ("evil.example/x?", "http://127.0.0.1:8080"),
            ] {
                try await RawConnection.with(port: port) { session in
                    try await session.send("GET /api/photos/\(photo.id.lowercased) HTTP/1.1\r\nHost: \(host)\r\n\r\n")
                    try await session.read { $0.response?.isComplete == true }
                    let text = try #require(session.response?.bodyText)
                    #expect(text.contains("\"url\":\"\(origin)/photos/\(photo.id.lowercased)\""), "Host: \(host): \(text)")
                }
            }
        }
    }

    @Test("GalleryServer serves until graceful shutdown, which ends the live streams")
    func serverLifecycle() async throws {
        let fixture = try WebFixture()
        let feed = fixture.live.preview
        let log = RecordedLog()
        var logger = log.logger
        logger.logLevel = .info
        let server = GalleryServer(
            library: fixture.library, live: fixture.live, settings: WebSettings(address: "127.0.0.1", port: 0), logger: logger)
        let group = ServiceGroup(configuration: .init(services: [server], logger: logger))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            // The web's event loop runs at nice 10: under the full lane's load it may bind late.
            try await waitUntil(timeout: .seconds(180)) { log.galleryPort != nil }
            let port = try #require(log.galleryPort)
            try await RawConnection.with(port: port) { session in
                try await session.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                try await session.readUntilClosed()
                // The booth's server writes the date itself (no timer service, see GalleryServer).
                let date = try #require(session.response?.header("Date"))
                let parser = DateFormatter()
                parser.locale = Locale(identifier: "en_US_POSIX")
                parser.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
                parser.timeZone = TimeZone(identifier: "GMT")
                let sent = try #require(parser.date(from: date), "Date: \(date)")
                #expect(abs(sent.timeIntervalSinceNow) < 60)
            }
            try await RawConnection.with(port: port) { session in
                try await RawConnection.with(port: port) { events in
                    try await session.send("GET /preview.mjpg HTTP/1.1\r\nHost: localhost\r\n\r\n")
                    try await events.send("GET /api/events HTTP/1.1\r\nHost: localhost\r\n\r\n")
                    try await waitUntil { feed.isWatched && fixture.live.photoAdded.subscriberCount == 1 }
                    feed.publish(try WebFixture.jpeg())
                    try await session.read { LiveStreamTests.parts($0.response?.body ?? []).count == 1 }
                    try await events.read { $0.response?.bodyText.hasPrefix("retry: 3000\n\n") == true }
                    await group.triggerGracefulShutdown()
                    try await session.readUntilClosed()
                    #expect(session.response?.isComplete == true, "the stream ends properly, with its last chunk")
                    try await events.readUntilClosed()
                    #expect(events.response?.isComplete == true, "the event stream too")
                }
            }
            try await tasks.next()
        }
        #expect(!feed.isWatched && fixture.live.photoAdded.subscriberCount == 0)
        #expect(
            GalleryServer.pagePath(of: UUID(uuidString: "3F2C9A4E-0B1D-4C6E-9F8A-2D4B6C8E0A1F")!) == "/photos/3f2c9a4e-0b1d-4c6e-9f8a-2d4b6c8e0a1f")
    }
}

extension RecordedLog {
    /// The port the gallery said it listens on.
    var galleryPort: Int? {
        messages().lazy.compactMap { line in
            line.firstMatch(of: /^Web gallery on http:\/\/127\.0\.0\.1:(\d+)$/).flatMap { Int($0.output.1) }
        }.first
    }
}
