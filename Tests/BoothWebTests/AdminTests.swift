import BoothCore
import BoothStore
import Foundation
import HTTPTypes
import NIOCore
import Testing

@testable import BoothWeb

@Suite("Admin actions")
struct AdminTests {
    static let admin: HTTPFields = [.authorization: "Bearer secret"]

    @Test("Without a configured token, admin actions are off: 403 that says so")
    func off() async throws {
        let fixture = try WebFixture()
        let photo = try fixture.add()
        try await fixture.server(WebSettings(adminToken: nil)).test { client in
            for (method, suffix) in [(HTTPRequest.Method.post, "/hide"), (.post, "/unhide"), (.delete, "")] {
                let response = try await client.execute(
                    uri: "/api/photos/\(photo.id.lowercased)\(suffix)", method: method, headers: Self.admin)
                #expect(response.status == .forbidden)
                #expect(try APITests.error(response).contains("Admin actions are off"))
            }
        }
        try await fixture.server(WebSettings(adminToken: "")).test { client in
            let response = try await client.execute(uri: "/api/photos/\(photo.id.lowercased)", method: .delete, headers: [.authorization: "Bearer "])
            #expect(response.status == .forbidden, "an empty token is no token")
        }
        #expect(try fixture.library.gallery.photo(id: photo.id) == photo)
    }

    @Test("A missing or wrong token is 401 with WWW-Authenticate: Bearer, and changes nothing")
    func unauthorized() async throws {
        let fixture = try WebFixture()
        let photo = try fixture.add()
        try await fixture.server().test { client in
            let uri = "/api/photos/\(photo.id.lowercased)/hide"
            let missing = try await client.execute(uri: uri, method: .post)
            #expect(missing.status == .unauthorized)
            #expect(missing.headers[.wwwAuthenticate] == "Bearer realm=\"Photobooth\"")
            #expect(try APITests.error(missing).contains("Authorization: Bearer"))
            for header in ["Bearer secreT", "Bearer secret2", "Bearer", "Basic c2VjcmV0", "secret", "Bearer s"] {
                let wrong = try await client.execute(uri: uri, method: .post, headers: [.authorization: header])
                #expect(wrong.status == .unauthorized, "\(header)")
                #expect(wrong.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true, "\(header)")
            }
            let delete = try await client.execute(
                uri: "/api/photos/\(photo.id.lowercased)", method: .delete, headers: [.authorization: "Bearer nope"])
            #expect(delete.status == .unauthorized)
        }
        #expect(try fixture.library.gallery.photo(id: photo.id) == photo)
    }

    @Test("Hiding takes a photo out of every guest view; unhiding brings it back")
    func hide() async throws {
        let fixture = try WebFixture()
        let kept = try fixture.add(caption: "Kept", secondsAgo: 10)
        let photo = try fixture.add(caption: "Secret")
        let id = photo.id.lowercased
        try await fixture.server().test { client in
            let hide = try await client.execute(uri: "/api/photos/\(id)/hide", method: .post, headers: [.authorization: "bearer secret"])
            #expect(hide.status == .noContent)
            for uri in ["/photos/\(id)", "/photos/\(id).jpg", "/thumbnails/\(id).jpg", "/api/photos/\(id)"] {
                #expect(try await client.execute(uri: uri, method: .get).status == .notFound, "\(uri)")
            }
            let grid = String(buffer: try await client.execute(uri: "/", method: .get).body)
            #expect(GalleryPageTests.photoLinks(grid) == ["/photos/\(kept.id.lowercased)"])
            let list = try await client.execute(uri: "/api/photos", method: .get)
            #expect(try APITests.items(list).map { $0["id"] as? String } == [kept.id.lowercased])
            #expect(list.headers[HTTPField.Name("X-Total-Count")!] == "1")

            let unhide = try await client.execute(uri: "/api/photos/\(id)/unhide", method: .post, headers: Self.admin)
            #expect(unhide.status == .noContent)
            #expect(try await client.execute(uri: "/photos/\(id)", method: .get).status == .ok)
        }
    }

    @Test("Deleting moves the original to the recycle folder; the photo is gone from the web")
    func delete() async throws {
        let fixture = try WebFixture()
        let photo = try fixture.add()
        let id = photo.id.lowercased
        let original = try Data(contentsOf: fixture.library.url(of: photo))
        try await fixture.server().test { client in
            let delete = try await client.execute(uri: "/api/photos/\(id)", method: .delete, headers: Self.admin)
            #expect(delete.status == .noContent)
            let recycled = fixture.directory.appendingPathComponent("recycle/\(id).jpg")
            #expect(try Data(contentsOf: recycled) == original)
            #expect(FileManager.default.fileExists(atPath: fixture.directory.appendingPathComponent("recycle/\(id).json").path))
            #expect(!FileManager.default.fileExists(atPath: fixture.library.url(of: photo).path))
            #expect(try await client.execute(uri: "/photos/\(id).jpg", method: .get).status == .notFound)
            let again = try await client.execute(uri: "/api/photos/\(id)", method: .delete, headers: Self.admin)
            #expect(again.status == .notFound)
            #expect(try APITests.error(again).contains(id))
        }
        #expect(try fixture.library.gallery.count(includingHidden: true) == 0)
    }

    @Test("A hidden photo can still be deleted and unhidden by the admin")
    func hiddenStaysManageable() async throws {
        let fixture = try WebFixture()
        let photo = try fixture.add()
        let other = try fixture.add()
        try fixture.library.setHidden(true, of: photo.id)
        try fixture.library.setHidden(true, of: other.id)
        try await fixture.server().test { client in
            let cases: [(HTTPRequest.Method, String, HTTPResponse.Status)] = [
                (.post, "/api/photos/\(other.id.lowercased)/unhide", .noContent),
                (.delete, "/api/photos/\(photo.id.lowercased)", .noContent),
                (.post, "/api/photos/\(UUID().lowercased)/hide", .notFound),
                (.post, "/api/photos/xyz/hide", .badRequest),
            ]
            for (method, uri, status) in cases {
                let response = try await client.execute(uri: uri, method: method, headers: Self.admin)
                #expect(response.status == status, "\(method) \(uri)")
            }
        }
        #expect(try fixture.library.gallery.photos().map(\.id) == [other.id])
    }

    @Test("Favourites: marked and unmarked with the token, shown in the JSON API")
    func favourites() async throws {
        let fixture = try WebFixture()
        let photo = try fixture.add(caption: "Best")
        let id = photo.id.lowercased
        try await fixture.server().test { client in
            func favourite() async throws -> Bool? {
                let response = try await client.execute(uri: "/api/photos/\(id)", method: .get)
                return try OpenAPITests.object(response.body)["favourite"] as? Bool
            }
            #expect(try await favourite() == false)
            #expect(try await client.execute(uri: "/api/photos/\(id)/favourite", method: .post).status == .unauthorized)
            #expect(try await favourite() == false)
            #expect(try await client.execute(uri: "/api/photos/\(id)/favourite", method: .post, headers: Self.admin).status == .noContent)
            #expect(try await favourite() == true)
            let list = try APITests.items(try await client.execute(uri: "/api/photos", method: .get))
            #expect(list.first?["favourite"] as? Bool == true)
            let grid = String(buffer: try await client.execute(uri: "/", method: .get).body)
            #expect(grid.contains("<span class=\"caption\">★ Best</span>"))
            #expect(try await client.execute(uri: "/api/photos/\(id)/unfavourite", method: .post, headers: Self.admin).status == .noContent)
            #expect(try await favourite() == false)
            let unknown = try await client.execute(uri: "/api/photos/\(UUID().lowercased)/favourite", method: .post, headers: Self.admin)
            #expect(unknown.status == .notFound)
        }
    }

    @Test("Near-duplicates come in groups by perceptual hash, within the configured distance, with the token only")
    func duplicates() async throws {
        let fixture = try WebFixture()
        let first = try fixture.add(caption: "Burst 1", secondsAgo: 30)
        let second = try fixture.add(caption: "Burst 2", secondsAgo: 20)
        let third = try fixture.add(caption: "Burst 3", secondsAgo: 10)
        let different = try fixture.add(caption: "Elsewhere", secondsAgo: 5)
        try fixture.add(caption: "No hash yet")
        try fixture.library.maintenance.setPerceptualHash(0x0F0F_0F0F_0F0F_0F0F, of: first.id)
        try fixture.library.maintenance.setPerceptualHash(0x0F0F_0F0F_0F0F_0F0E, of: second.id)
        try fixture.library.maintenance.setPerceptualHash(0x0F0F_0F0F_0F0F_00FF, of: third.id)
        try fixture.library.maintenance.setPerceptualHash(0xF0F0_F0F0_F0F0_F0F0, of: different.id)
        try await fixture.server().test { client in
            #expect(try await client.execute(uri: "/api/duplicates", method: .get).status == .unauthorized)
            let response = try await client.execute(uri: "/api/duplicates", method: .get, headers: Self.admin)
            #expect(response.status == .ok)
            let groups = try #require(try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [[[String: Any]]])
            #expect(groups.map { $0.map { $0["caption"] as? String } } == [["Burst 3", "Burst 2", "Burst 1"]])
            #expect(Set(groups[0][0].keys) == APITests.photoKeys)
        }
        var strict = WebSettings(boothName: "Test Booth", adminToken: "secret")
        strict.duplicateDistance = 1
        try await fixture.server(strict).test { client in
            let response = try await client.execute(uri: "/api/duplicates", method: .get, headers: Self.admin)
            let groups = try #require(try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [[[String: Any]]])
            #expect(groups.map { $0.map { $0["caption"] as? String } } == [["Burst 2", "Burst 1"]], "the distance is the setting's")
        }
    }

    @Test("The admin page holds no secret, and has the words its script needs")
    func adminPage() async throws {
        let fixture = try WebFixture()
        try await fixture.server().test { client in
            let response = try await client.execute(uri: "/admin", method: .get)
            #expect(response.status == .ok)
            let html = String(buffer: response.body)
            #expect(!html.contains("secret"))
            #expect(html.contains("<h1>Manage the photos</h1>"))
            #expect(html.contains("data-hide-others=\"Hide all but the first\""))
            #expect(html.contains("\"/api/duplicates\"") && html.contains("/hide\""))
        }
    }

    @Test("Tokens are compared whole, whatever their lengths")
    func tokenComparison() {
        #expect(WebContext.sameToken("secret", "secret"))
        #expect(!WebContext.sameToken("secreT", "secret"))
        #expect(!WebContext.sameToken("secre", "secret"))
        #expect(!WebContext.sameToken("secretsecret", "secret"))
        #expect(!WebContext.sameToken("", "secret"))
        #expect(!WebContext.sameToken("s", "ss"))
    }
}

@Suite("Printing from the admin API")
struct AdminPrintTests {
    @Test("An operator's print is queued (202 with its number), canceled and tried again; 404 for none, 409 on a booth without a printer")
    func print() async throws {
        let fixture = try WebFixture()
        let photo = try fixture.add()
        var settings = WebSettings(adminToken: "secret")
        settings.printCopies = 2
        try await fixture.server(settings).test { client in
            let uri = "/api/photos/\(photo.id.lowercased)/print"
            let missing = try await client.execute(uri: uri, method: .post)
            #expect(missing.status == .unauthorized)
            let queued = try await client.execute(uri: uri, method: .post, headers: AdminTests.admin)
            #expect(queued.status == .accepted)
            let body = try JSONSerialization.jsonObject(with: Data(buffer: queued.body)) as? [String: Any]
            #expect(body?["number"] as? Int == 1 && body?["state"] as? String == "pending" && body?["copies"] as? Int == 2)
            let unknown = try await client.execute(uri: "/api/photos/\(UUID().lowercased)/print", method: .post, headers: AdminTests.admin)
            #expect(unknown.status == .notFound)
        }
        let requests = try fixture.library.prints.requests(in: [.pending])
        #expect(requests.map(\.photo) == [photo.id] && requests.first?.reason == .admin && requests.first?.copies == 2)
        try await fixture.server(settings).test { client in
            func post(_ uri: String) async throws -> (HTTPResponse.Status, [String: Any]?) {
                let response = try await client.execute(uri: uri, method: .post, headers: AdminTests.admin)
                return (response.status, try? JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
            }
            let (retriedTooSoon, _) = try await post("/api/prints/1/retry")
            #expect(retriedTooSoon == .conflict, "a pending print is not tried again")
            let (canceled, cancel) = try await post("/api/prints/1/cancel")
            #expect(canceled == .ok && cancel?["state"] as? String == "canceled")
            let (retried, retry) = try await post("/api/prints/1/retry")
            #expect(retried == .accepted && retry?["number"] as? Int == 2 && retry?["state"] as? String == "pending")
            #expect(try await post("/api/prints/99/cancel").0 == .notFound)
            #expect(try await post("/api/prints/99999999999999999999999/retry").0 == .notFound)
            #expect(try await post("/api/prints/one/cancel").0 == .badRequest)
        }
        #expect(try fixture.library.prints.requests(in: [.pending]).map(\.number) == [2])
        try await fixture.server(settings).test { client in
            let listed = try await client.execute(uri: "/api/prints", method: .get, headers: AdminTests.admin)
            let entries = try #require(try JSONSerialization.jsonObject(with: Data(buffer: listed.body)) as? [[String: Any]])
            #expect(entries.map { $0["number"] as? Int } == [2, 1], "newest first")
            #expect(entries.map { $0["state"] as? String } == ["pending", "canceled"])
            #expect(entries.first?["photo_id"] as? String == photo.id.lowercased && entries.first?["reason"] as? String == "admin")
            for entry in entries { try OpenAPITests.expectKeys(of: entry, match: "PrintRequest") }
            #expect(try await client.execute(uri: "/api/prints", method: .get).status == .unauthorized)
        }
        try await fixture.server(WebSettings(adminToken: "secret")).test { client in
            let off = try await client.execute(uri: "/api/photos/\(photo.id.lowercased)/print", method: .post, headers: AdminTests.admin)
            #expect(off.status == .conflict)
            #expect(try APITests.error(off).contains("does not print"))
        }
    }
}
