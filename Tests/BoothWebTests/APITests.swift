import BoothCore
import BoothStore
import Foundation
import HTTPTypes
import NIOCore
import Testing

@testable import BoothWeb

@Suite("JSON API")
struct APITests {
    static let photoKeys: Set<String> = [
        "id", "author", "width", "height", "url", "download_url", "caption", "created_at", "thumbnail_url", "favourite",
    ]

    @Test("/api/photos is a bare array of picsum-style items, newest first")
    func list() async throws {
        let fixture = try WebFixture()
        let old = try fixture.add(caption: "Old", secondsAgo: 60, width: 640, height: 480)
        let new = try fixture.add(caption: "New <b>")
        try await fixture.server().test { client in
            let response = try await client.execute(uri: "/api/photos", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json; charset=utf-8")
            #expect(response.headers[HTTPField.Name("X-Total-Count")!] == "2")
            #expect(response.headers[HTTPField.Name("Link")!] == nil, "one page has no neighbours")
            let items = try #require(try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [[String: Any]])
            #expect(items.count == 2)
            #expect(items.map { $0["id"] as? String } == [new.id.lowercased, old.id.lowercased])
            for item in items { #expect(Set(item.keys) == Self.photoKeys) }
            let first = items[1]
            let id = old.id.lowercased
            #expect(first["author"] as? String == "Test Booth")
            #expect(first["width"] as? Int == 640 && first["height"] as? Int == 480)
            #expect(first["url"] as? String == "http://localhost/photos/\(id)")
            #expect(first["download_url"] as? String == "http://localhost/photos/\(id).jpg")
            #expect(first["thumbnail_url"] as? String == "http://localhost/thumbnails/\(id).jpg")
            #expect(first["caption"] as? String == "Old")
            #expect(first["created_at"] as? String == old.createdAt.utcTimestamp)
            let createdAt = try #require(first["created_at"] as? String)
            #expect(createdAt.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil)
            #expect(items[0]["caption"] as? String == "New <b>", "JSON carries the caption as it is")
        }
    }

    @Test("Pages of the API: limit, Link rel=prev/next, X-Total-Count, an empty page past the end")
    func paging() async throws {
        let fixture = try WebFixture()
        let photos = try fixture.add(count: 5)
        try await fixture.server().test { client in
            var seen: [String] = []
            for page in 1...3 {
                let response = try await client.execute(uri: "/api/photos?page=\(page)&limit=2", method: .get)
                #expect(response.status == .ok)
                #expect(response.headers[HTTPField.Name("X-Total-Count")!] == "5")
                let items = try Self.items(response)
                seen += items.compactMap { $0["id"] as? String }
                var links: [String] = []
                if page > 1 { links.append("<http://localhost/api/photos?page=\(page - 1)&limit=2>; rel=\"prev\"") }
                if page < 3 { links.append("<http://localhost/api/photos?page=\(page + 1)&limit=2>; rel=\"next\"") }
                #expect(response.headers[HTTPField.Name("Link")!] == links.joined(separator: ", "))
            }
            #expect(seen == photos.map(\.id.lowercased))
            let past = try await client.execute(uri: "/api/photos?page=9&limit=2", method: .get)
            #expect(past.status == .ok)
            #expect(try Self.items(past).isEmpty)
            #expect(past.headers[HTTPField.Name("Link")!] == "<http://localhost/api/photos?page=8&limit=2>; rel=\"prev\"")
            let most = try await client.execute(uri: "/api/photos?limit=100", method: .get)
            #expect(try Self.items(most).count == 5)
        }
    }

    @Test("Bad page and limit values are 400 with a JSON error that says what is expected")
    func badParameters() async throws {
        let fixture = try WebFixture()
        try await fixture.server().test { client in
            let cases = [
                ("page=0", "page"), ("page=-2", "page"), ("page=x", "page"), ("limit=0", "limit"), ("limit=101", "limit"),
                ("limit=ten", "limit"), ("page=1&limit=", "limit"),
            ]
            for (query, name) in cases {
                let response = try await client.execute(uri: "/api/photos?\(query)", method: .get)
                #expect(response.status == .badRequest, "\(query)")
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                let message = try Self.error(response)
                #expect(message.hasPrefix("The \(name) parameter must be a whole number from 1"), "\(query): \(message)")
            }
            let limit = try Self.error(try await client.execute(uri: "/api/photos?limit=500", method: .get))
            #expect(limit.contains("from 1 to 100"))
        }
    }

    @Test("/api/photos/{id} is one photo; unknown, hidden and malformed ids are JSON errors")
    func onePhoto() async throws {
        let fixture = try WebFixture()
        let photo = try fixture.add(caption: "Alice")
        let hidden = try fixture.add()
        try fixture.library.setHidden(true, of: hidden.id)
        try await fixture.server().test { client in
            let response = try await client.execute(uri: "/api/photos/\(photo.id.lowercased)", method: .get)
            #expect(response.status == .ok)
            let item = try #require(try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any])
            #expect(Set(item.keys) == Self.photoKeys)
            #expect(item["caption"] as? String == "Alice")
            // Ids are case-insensitive; the API always answers the lowercase form.
            let upper = try await client.execute(uri: "/api/photos/\(photo.id.uuidString)", method: .get)
            #expect(upper.status == .ok)

            for (uri, status) in [
                ("/api/photos/\(UUID().lowercased)", HTTPResponse.Status.notFound), ("/api/photos/\(hidden.id.lowercased)", .notFound),
                ("/api/photos/12345", .badRequest), ("/api/photos/..%2F..%2Fetc%2Fpasswd", .badRequest), ("/api/nothing", .notFound),
            ] {
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.status == status, "\(uri)")
                #expect(response.headers[.contentType] == "application/json; charset=utf-8", "\(uri)")
                #expect(!(try Self.error(response)).isEmpty, "\(uri)")
            }
        }
    }

    @Test("/api/status is the booth's state and the number of photos")
    func status() async throws {
        let fixture = try WebFixture()
        try fixture.add()
        try await fixture.server().test { client in
            let response = try await client.execute(uri: "/api/status", method: .get)
            #expect(response.status == .ok)
            let status = try #require(try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any])
            #expect(status["state"] as? String == "idle")
            #expect(status["camera_connected"] as? Bool == true)
            #expect(status["since"] as? String == "2026-09-21T14:13:20.500Z")
            #expect(status["photo_count"] as? Int == 1)
            #expect(status["storage_ok"] as? Bool == true)
            #expect(Set(status.keys) == ["state", "camera_connected", "storage_ok", "since", "photo_count"])
        }
    }

    static func items(_ response: GalleryResponse) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [[String: Any]])
    }

    /// The `error` of a JSON error answer; fails the test for any other shape.
    static func error(_ response: GalleryResponse) throws -> String {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any])
        #expect(Set(object.keys) == ["error"])
        return try #require(object["error"] as? String)
    }
}
