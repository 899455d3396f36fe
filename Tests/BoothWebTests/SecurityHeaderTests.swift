import BoothCore
import Foundation
import HTTPTypes
import NIOCore
import Testing

@testable import BoothWeb

/// Issue 25: no answer said `X-Content-Type-Options: nosniff`, and no page forbade other sites
/// to frame it or kept a deletion key out of the `Referer` it sends. Every answer now carries
/// nosniff, and every HTML page `frame-ancestors 'none'` and `no-referrer`: the router's, the
/// error pages, and the answers the connection serves from memory alike.
@Suite("Security headers")
struct SecurityHeaderTests {
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!

    /// Whether `headers` are those of an answer of `kind`: HTML pages with all three, anything
    /// else with nosniff only.
    static func expectHeaders(_ headers: HTTPFields, html: Bool, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(headers[.xContentTypeOptions] == "nosniff", "\(what)", sourceLocation: sourceLocation)
        #expect(headers[.contentSecurityPolicy] == (html ? "frame-ancestors 'none'" : nil), "\(what)", sourceLocation: sourceLocation)
        #expect(headers[Self.referrerPolicy] == (html ? "no-referrer" : nil), "\(what)", sourceLocation: sourceLocation)
    }

    @Test("Pages and error pages forbid framing and referrers; every answer says nosniff")
    func routerAnswers() async throws {
        let fixture = try WebFixture()
        let photo = try fixture.add(caption: "Zoë")
        let id = photo.id.lowercased
        let keys = DeletionKeys(secret: Data(repeating: 7, count: 32))
        var settings = WebSettings(boothName: "Test Booth", adminToken: "secret")
        settings.deletionKeys = keys
        try await fixture.server(settings).test { client in
            let pages = [
                "/", "/albums", "/albums/favourites", "/photos/\(id)", "/photos/\(id)?key=\(keys.key(for: photo.id))", "/slideshow",
                "/admin", "/nowhere", "/photos/\(UUID().lowercased)", "/photos/nope", "/?page=0", "/?q=%FF",
            ]
            for uri in pages {
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.headers[.contentType]?.hasPrefix("text/html") == true, "\(uri)")
                Self.expectHeaders(response.headers, html: true, "\(uri) \(response.status)")
            }
            let others: [(String, HTTPRequest.Method, HTTPFields)] = [
                ("/api/photos", .get, [:]), ("/api/photos/\(id)", .get, [:]), ("/api/photos?q=%FF", .get, [:]),
                ("/api/photos/\(UUID().lowercased)", .get, [:]), ("/thumbnails/\(id).jpg", .get, [:]), ("/photos/\(id).jpg", .get, [:]),
                ("/photos/\(id).jpg", .get, [.range: "bytes=0-9"]), ("/healthz", .get, [:]), ("/metrics", .get, [:]),
                ("/api/status", .get, [:]), ("/api/photos/\(id)/hide", .post, [:]), ("/api/photos/\(id)/hide", .post, [.authorization: "Bearer no"]),
                ("/", .head, [:]), ("/", .post, [:]), ("/api/photos", .delete, [:]),
            ]
            for (uri, method, headers) in others {
                let response = try await client.execute(uri: uri, method: method, headers: headers)
                let html = response.headers[.contentType]?.hasPrefix("text/html") == true
                Self.expectHeaders(response.headers, html: html, "\(method) \(uri) \(response.status)")
            }
            let page = try await client.execute(uri: "/", method: .get)
            let unchanged = try await client.execute(uri: "/", method: .get, headers: [.ifNoneMatch: try #require(page.headers[.eTag])])
            #expect(unchanged.status == .notModified)
            Self.expectHeaders(unchanged.headers, html: false, "a 304 has no type of its own: nosniff only")
        }
    }

    @Test("Answers the connection serves from memory carry the same headers as the router's, 304s included")
    func keptAnswers() async throws {
        let fixture = try WebFixture()
        let photo = try fixture.add(caption: "Zoë", width: 640, height: 480)
        try await fixture.server().test { client in
            for uri in [
                "/", "/albums", "/photos/\(photo.id.lowercased)", "/api/photos", "/thumbnails/\(photo.id.lowercased).jpg",
                "/photos/\(photo.id.lowercased).jpg",
            ] {
                let first = try await client.execute(uri: uri, method: .get)
                let before = try await KeptAnswerHandlerTests.keptCount(client)
                let again = try await client.execute(uri: uri, method: .get)
                let etag = try #require(first.headers[.eTag], "\(uri)")
                let unchanged = try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: etag])
                #expect(try await KeptAnswerHandlerTests.keptCount(client) == before + 2, "\(uri): both from memory")
                let html = first.headers[.contentType]?.hasPrefix("text/html") == true
                Self.expectHeaders(first.headers, html: html, "\(uri), the router's")
                Self.expectHeaders(again.headers, html: html, "\(uri), kept")
                #expect(unchanged.status == .notModified)
                Self.expectHeaders(unchanged.headers, html: false, "\(uri), kept 304")
            }
        }
    }

    @Test("A live stream says nosniff too")
    func streams() async throws {
        let fixture = try WebFixture()
        try await fixture.server().test { client in
            let port = try #require(client.port)
            let head = try await RawConnection.with(port: port) { session in
                try await session.send("GET /api/events HTTP/1.1\r\nHost: localhost\r\n\r\n")
                try await session.read { $0.response != nil }
                return session.response
            }
            #expect(head?.status == 200)
            #expect(head?.header("x-content-type-options") == "nosniff")
        }
    }
}
