import BoothCore
import BoothStore
import Foundation
import HTTPTypes
import NIOCore
import Testing

@testable import BoothWeb

/// The kept answers served by the connection itself (``KeptAnswerHandler``), on a real socket:
/// the same answers as the router's, never older than the catalog, in the order asked.
@Suite("Kept answers on the connection")
struct KeptAnswerHandlerTests {
    /// How many answers the connection wrote from memory, as `/metrics` says.
    static func keptCount(_ client: GalleryClient) async throws -> Int {
        let metrics = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
        let line = try #require(metrics.split(separator: "\n").first { $0.hasPrefix("photobooth_http_kept_answers_total ") })
        return try #require(Int(line.split(separator: " ")[1]))
    }

    /// The headers an answer's client reads, beside its body.
    static let compared: [HTTPField.Name] = [.contentType, .contentLength, .eTag, .cacheControl, .contentDisposition, .contentLanguage, .vary]

    @Test(
        "Pages, the API, thumbnails and originals come again from the connection: the router's bytes and headers",
        arguments: [
            "/", "/albums", "/api/photos", "/api/albums", "/api/photos/{id}", "/thumbnails/{id}.jpg", "/photos/{id}.jpg",
            "/photos/{id}.jpg?download=1",
        ])
    func servedAgain(_ template: String) async throws {
        let fixture = try WebFixture()
        // Larger than a socket's buffer: the original's file goes out in several writes.
        let photo = try fixture.add(caption: "Zoë", width: 1600, height: 1200)
        let uri = template.replacingOccurrences(of: "{id}", with: photo.id.lowercased)
        try await fixture.server().test { client in
            let first = try await client.execute(uri: uri, method: .get)
            #expect(first.status == .ok)
            let before = try await Self.keptCount(client)
            let again = try await client.execute(uri: uri, method: .get)
            #expect(try await Self.keptCount(client) == before + 1, "the second answer came from memory")
            #expect(again.status == .ok)
            #expect(again.body == first.body)
            for name in Self.compared { #expect(again.headers[name] == first.headers[name], "\(name)") }
            #expect(again.headers[.date] != nil)
            if template.hasPrefix("/photos/") {
                #expect(Data(again.body.readableBytesView) == (try ImageTests.outgoing(photo, in: fixture)), "the tagged copy, whole")
                #expect(again.body.readableBytes > 256 * 1024)
            }

            let head = try await client.execute(uri: uri, method: .head)
            #expect(head.status == .ok)
            #expect(head.headers[.contentLength] == String(first.body.readableBytes))
            #expect(head.body.readableBytes == 0)

            let etag = try #require(first.headers[.eTag])
            let unchanged = try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: "\"other\", W/\(etag)"])
            #expect(unchanged.status == .notModified)
            #expect(unchanged.headers[.eTag] == etag)
            #expect(unchanged.headers[.contentType] == nil)
            #expect(unchanged.body.readableBytes == 0)
            #expect(try await Self.keptCount(client) == before + 3, "HEAD and the 304 too")
        }
    }

    @Test("What the connection serves follows every change of the photos, and a range is the router's")
    func neverStale() async throws {
        let fixture = try WebFixture()
        let alice = try fixture.add(caption: "Alice", secondsAgo: 10)
        let original = "/photos/\(alice.id.lowercased).jpg"
        try await fixture.server().test { client in
            for _ in 0..<2 {
                #expect(String(buffer: try await client.execute(uri: "/", method: .get).body).contains("Alice"))
                #expect(try await client.execute(uri: original, method: .get).status == .ok)
            }
            try fixture.add(caption: "Bruno")
            #expect(String(buffer: try await client.execute(uri: "/", method: .get).body).contains("Bruno"), "a save")

            try fixture.library.setCaption(Caption(sanitizing: "Charlotte")!, of: alice.id)
            let renamed = try #require(try fixture.library.gallery.photo(id: alice.id))
            let copy = try await client.execute(uri: original, method: .get)
            #expect(Data(copy.body.readableBytesView) == (try ImageTests.outgoing(renamed, in: fixture)), "the new name in the original")

            let before = try await Self.keptCount(client)
            let part = try await client.execute(uri: original, method: .get, headers: [.range: "bytes=0-99"])
            #expect(part.status == .partialContent)
            #expect(part.body.readableBytes == 100)
            #expect(try await Self.keptCount(client) == before, "a range is answered by the router")

            try fixture.library.setHidden(true, of: alice.id)
            #expect(try await client.execute(uri: original, method: .get).status == .notFound, "a hidden photo's original")
            #expect(!String(buffer: try await client.execute(uri: "/", method: .get).body).contains("Charlotte"), "a hide")
        }
    }

    @Test("An upload's progress and the sync's state leave what the connection keeps; a change guests see empties it")
    func syncKeepsAnswers() async throws {
        let fixture = try WebFixture()
        let photo = try fixture.add(caption: "Alice")
        try await fixture.server().test { client in
            _ = try await client.execute(uri: "/", method: .get)
            let before = try await Self.keptCount(client)
            #expect(String(buffer: try await client.execute(uri: "/", method: .get).body).contains("Alice"))
            #expect(try await Self.keptCount(client) == before + 1)

            // The sync at work, in the same catalog: an upload that fails, is retried and done.
            let outbox = fixture.library.outbox
            let entry = try #require(try outbox.nextUpload())
            try outbox.uploadFailed(entry, error: "slow down", retryAt: Date(timeIntervalSinceNow: 60))
            try outbox.retryNow()
            try outbox.uploaded(entry)
            try outbox.updateState { state in
                state.lastUpload = Date()
                state.failure = nil
            }
            #expect(String(buffer: try await client.execute(uri: "/", method: .get).body).contains("Alice"))
            #expect(try await Self.keptCount(client) == before + 2, "served from memory still")

            try fixture.library.setHidden(true, of: photo.id)
            #expect(!String(buffer: try await client.execute(uri: "/", method: .get).body).contains("Alice"), "made again")
            #expect(try await Self.keptCount(client) == before + 2)
        }
    }

    @Test("Pipelined requests are answered in their order, kept answers behind the router's")
    func pipelined() async throws {
        let fixture = try WebFixture()
        let photo = try fixture.add(caption: "Alice")
        try await fixture.server().test { client in
            let port = try #require(client.port)
            let api = "/api/photos/\(photo.id.lowercased)"
            _ = try await client.execute(uri: api, method: .get)
            try await RawConnection.with(port: port) { session in
                let get = { (path: String) in "GET \(path) HTTP/1.1\r\nHost: localhost\r\n\r\n" }
                // The router's /healthz first: the kept answer after it must wait for it.
                try await session.send(get("/healthz") + get(api) + get("/healthz") + get(api))
                try await session.read { RawResponse.all($0.received).count == 4 }
                let bodies = RawResponse.all(session.received).map(\.bodyText)
                #expect(bodies[0] == "ok\n" && bodies[2] == "ok\n")
                #expect(bodies[1].contains("\"caption\":\"Alice\"") && bodies[3] == bodies[1])
            }
        }
    }

    @Test("The language of a page served again is the reader's: Accept-Language, then the lang cookie")
    func languages() async throws {
        let fixture = try WebFixture()
        try fixture.add(caption: "Alice")
        try await fixture.server().test { client in
            for (headers, language) in [
                ([.acceptLanguage: "de-DE,de;q=0.9"], "de"), ([.acceptLanguage: "fr"], "fr"),
                ([.acceptLanguage: "fr", .cookie: "lang=de"], "de"), ([:], "en"),
            ] as [(HTTPFields, String)] {
                for _ in 0..<2 {
                    let page = try await client.execute(uri: "/", method: .get, headers: headers)
                    #expect(page.headers[.contentLanguage] == language, "\(headers)")
                }
            }
        }
    }

    @Test("Twenty pipelined requests for a kept original all come back whole, and so does one the client half-closes after")
    func manyAndHalfClosed() async throws {
        let fixture = try WebFixture()
        let photo = try fixture.add(caption: "Alice", width: 1600, height: 1200)
        let copy = try ImageTests.outgoing(photo, in: fixture)
        let original = "/photos/\(photo.id.lowercased).jpg"
        try await fixture.server().test { client in
            let port = try #require(client.port)
            _ = try await client.execute(uri: original, method: .get)
            try await RawConnection.with(port: port) { session in
                try await session.send(String(repeating: "GET \(original) HTTP/1.1\r\nHost: localhost\r\n\r\n", count: 20))
                try await session.read { RawResponse.all($0.received).count == 20 }
                for response in RawResponse.all(session.received) { #expect(Data(response.body) == copy) }
            }
            try await RawConnection.with(port: port, halfClosing: true) { session in
                try await session.send("GET \(original) HTTP/1.1\r\nHost: localhost\r\n\r\n")
                session.closeOutput()
                try await session.readUntilClosed()
                let responses = RawResponse.all(session.received)
                #expect(responses.count == 1)
                #expect(Data(responses.first?.body ?? []) == copy)
            }
        }
    }
}
