import BoothCore
import Foundation
import HTTPTypes
import NIOCore
import Testing

@testable import BoothWeb

/// Issue 29: phones on the booth's own Wi-Fi. The tests' client connects from 127.0.0.1, so a
/// hotspot on 127.0.0.0/8 makes it a phone on the hotspot, and one on 10.42.0.0/24 a client of
/// the venue's network.
@Suite("Captive portal")
struct CaptivePortalTests {
    static func settings(guestsHere: Bool = true, admin: Bool = false, requestsPerSecond: Int = 1000, clock: ManualClock? = nil) -> WebSettings {
        var settings = WebSettings(boothName: "Test Booth", adminToken: "secret")
        settings.hotspot = HotspotGuests(
            boothAddress: guestsHere ? 0x7F00_0001 : 0x0A2A_0001, prefixLength: guestsHere ? 8 : 24, admin: admin,
            requestsPerSecond: requestsPerSecond, connectionsPerClient: 16)
        if let clock { settings.clock = { clock.now } }
        return settings
    }

    /// The connectivity checks of Android, Apple, Windows and Firefox, at the hosts they ask.
    static let probes = [
        ("connectivitycheck.gstatic.com", "/generate_204"), ("www.google.com", "/gen_204"), ("captive.apple.com", "/hotspot-detect.html"),
        ("www.msftconnecttest.com", "/connecttest.txt"), ("www.msftconnecttest.com", "/redirect"), ("detectportal.firefox.com", "/canonical.html"),
        ("detectportal.firefox.com", "/success.txt"),
    ]

    @Test("Every phone's connectivity check is sent to \"Just taken\" at the booth's address: a redirect, never the 204 or page it expects")
    func probesRedirect() async throws {
        let fixture = try WebFixture()
        try await fixture.server(Self.settings()).test { client in
            for (host, path) in Self.probes {
                let response = try await client.execute(uri: path, method: .get, authority: host)
                #expect(response.status == .found, "\(host)\(path)")
                #expect(response.headers[.location] == "http://127.0.0.1/just-taken", "\(host)\(path)")
                #expect(response.headers[.cacheControl] == "no-store")
            }
            // The booth's own address: an address it does not have is a 404, as anywhere.
            let answer1 = try await client.execute(uri: "/generate_204", method: .get, authority: "127.0.0.1")
            #expect(answer1.status == .notFound)
            let answer2 = try await client.execute(uri: "/generate_204", method: .get, authority: "127.0.0.1:8080")
            #expect(answer2.status == .notFound)
        }
    }

    @Test("A photo's address on another host (the event's public gallery, which resolves to the booth) is the photo's page itself")
    func samePathElsewhere() async throws {
        let fixture = try WebFixture()
        let photo = try fixture.add(caption: "Zoé")
        try await fixture.server(Self.settings()).test { client in
            let page = try await client.execute(uri: "/photos/\(photo.id.lowercased)", method: .get, authority: "photos.example.com")
            #expect(page.status == .ok && String(buffer: page.body).contains("Zoé"))
            // A photo that is not there yet (taken at another booth) is not turned into the portal.
            let missing = try await client.execute(uri: "/photos/\(UUID().lowercased)", method: .get, authority: "photos.example.com")
            #expect(missing.status != .found)
        }
    }

    @Test("Clients of the venue's network meet no portal: checks are 404 and the admin answers")
    func notOnTheHotspot() async throws {
        let fixture = try WebFixture()
        try await fixture.server(Self.settings(guestsHere: false)).test { client in
            let answer3 = try await client.execute(uri: "/generate_204", method: .get, authority: "connectivitycheck.gstatic.com")
            #expect(answer3.status == .notFound)
            let answer4 = try await client.execute(uri: "/admin", method: .get, headers: AdminTests.admin)
            #expect(answer4.status == .ok)
            let answer5 = try await client.execute(uri: "/metrics", method: .get)
            #expect(answer5.status == .ok)
        }
    }

    @Test("The RFC 8908 API says the network is captive and where its portal is")
    func api() async throws {
        let fixture = try WebFixture()
        try await fixture.server(Self.settings()).test { client in
            let response = try await client.execute(
                uri: "/captive-portal/api", method: .get, headers: [.accept: "application/captive+json"], authority: "127.0.0.1")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/captive+json")
            #expect(response.headers[.cacheControl] == "private, no-store")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
            #expect(json["captive"] as? Bool == true)
            #expect(json["user-portal-url"] as? String == "http://127.0.0.1/just-taken")
        }
        try await fixture.server().test { client in
            let answer6 = try await client.execute(uri: "/captive-portal/api", method: .get)
            #expect(answer6.status == .notFound, "no hotspot, no portal")
        }
    }

    @Test("The admin page, its API and the metrics are not there for phones on the hotspot, token or not, unless hotspot.admin")
    func adminHidden() async throws {
        let fixture = try WebFixture()
        let photo = try fixture.add()
        try await fixture.server(Self.settings()).test { client in
            for (uri, method) in [
                ("/admin", HTTPRequest.Method.get), ("/api/duplicates", .get), ("/api/photos/\(photo.id.lowercased)/hide", .post),
                ("/api/photos/\(photo.id.lowercased)", .delete), ("/api/prints", .get), ("/metrics", .get),
            ] {
                let response = try await client.execute(uri: uri, method: method, headers: AdminTests.admin, authority: "127.0.0.1")
                #expect(response.status == .notFound, "\(method) \(uri)")
            }
            #expect(try fixture.library.gallery.photo(id: photo.id) != nil, "nothing was deleted")
            let answer7 = try await client.execute(uri: "/healthz", method: .get, authority: "127.0.0.1")
            #expect(answer7.status == .ok, "health stays")
        }
        try await fixture.server(Self.settings(admin: true)).test { client in
            let page = try await client.execute(uri: "/admin", method: .get, authority: "127.0.0.1")
            #expect(page.status == .ok)
            let withToken = try await client.execute(uri: "/api/duplicates", method: .get, headers: AdminTests.admin, authority: "127.0.0.1")
            #expect(withToken.status == .ok)
            let withoutToken = try await client.execute(uri: "/api/duplicates", method: .get, authority: "127.0.0.1")
            #expect(withoutToken.status == .unauthorized, "the token is still asked for")
        }
    }

    @Test("A phone gets a burst of twice its rate, then 429 with Retry-After until its tokens come back")
    func rate() async throws {
        let fixture = try WebFixture()
        let clock = ManualClock()
        try await fixture.server(Self.settings(requestsPerSecond: 3, clock: clock)).test { client in
            for number in 1...6 {
                let answer10 = try await client.execute(uri: "/healthz", method: .get, authority: "127.0.0.1")
                #expect(answer10.status == .ok, "request \(number)")
            }
            let refused = try await client.execute(uri: "/healthz", method: .get, authority: "127.0.0.1")
            #expect(refused.status == .tooManyRequests && refused.headers[.retryAfter] == "1")
            clock.advance(by: .milliseconds(340))
            let answer11 = try await client.execute(uri: "/healthz", method: .get, authority: "127.0.0.1")
            #expect(answer11.status == .ok, "a token a third of a second")
            let answer12 = try await client.execute(uri: "/healthz", method: .get, authority: "127.0.0.1")
            #expect(answer12.status == .tooManyRequests)
        }
    }

    @Test("\"Just taken\" shows the last 8 pictures, newest first, in the reader's language, and adds new ones live")
    func justTaken() async throws {
        let fixture = try WebFixture()
        let photos = try fixture.add(count: 10)
        try await fixture.server(Self.settings()).test { client in
            let response = try await client.execute(uri: "/just-taken", method: .get, headers: [.acceptLanguage: "fr"], authority: "127.0.0.1")
            #expect(response.status == .ok)
            let html = String(buffer: response.body)
            #expect(html.contains("<h1>À l’instant</h1>") && html.contains("data-live"))
            let shown = photos.map { html.range(of: "id=\"p-\($0.id.lowercased)\"")?.lowerBound }
            #expect(shown.prefix(8).allSatisfy { $0 != nil } && shown.suffix(2).allSatisfy { $0 == nil })
            let order = shown.prefix(8).compactMap { $0 }
            #expect(order == order.sorted(), "newest first")
        }
    }

    @Test("A phone on the hotspot holds its own, smaller number of connections; others keep the usual limit")
    func connections() throws {
        var limits = ConnectionLimits(total: 100, perClient: 64)
        limits.hotspot = HotspotGuests(boothAddress: 0x0A2A_0001, prefixLength: 24, admin: false, requestsPerSecond: 20, connectionsPerClient: 8)
        let phone = ClientAddress(try SocketAddress(ipAddress: "10.42.0.57", port: 40000))
        let venue = ClientAddress(try SocketAddress(ipAddress: "192.168.1.9", port: 40000))
        #expect(limits.perClient(for: phone) == 8 && limits.perClient(for: venue) == 64)
    }
}
