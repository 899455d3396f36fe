import BoothCore
import Foundation
import HTTPTypes
import NIOCore
import Testing

@testable import BoothWeb

/// Issue 25: `?q=%FF`, `?q=%C3`, `?q=%` and `?album=name/%FF` were taken as no filter, and
/// answered every photo. A query parameter that does not decode is a 400 that says so, on every
/// route.
@Suite("Query parameters that do not decode")
struct QueryCheckTests {
    static let malformed = [
        "/?q=%FF", "/?q=%C3", "/?q=%", "/?q=%zz", "/?album=name/%FF", "/?q=ok&page=%", "/?lang=%C3%28", "/?%FF=1",
        "/albums?q=%E0%80", "/albums/day/2026-11-23?page=%F0%9F", "/slideshow?x=%", "/photos/{id}?album=name/%FF", "/photos/{id}.jpg?download=%",
        "/thumbnails/{id}.jpg?q=%FF",
    ]
    static let malformedAPI = ["/api/photos?q=%FF", "/api/photos?album=name/%FF", "/api/photos?page=%C3", "/api/albums?q=%", "/api/photos/{id}?%C3"]

    @Test("Every route answers 400 to a query whose percent-encoding is broken or not UTF-8, naming the parameter")
    func badRequest() async throws {
        let fixture = try WebFixture()
        let photo = try fixture.add(caption: "Zoë")
        try await fixture.server().test { client in
            for template in Self.malformed + Self.malformedAPI {
                let uri = template.replacingOccurrences(of: "{id}", with: photo.id.lowercased)
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.status == .badRequest, "\(uri)")
                let text =
                    ErrorPresentation<GalleryRequestContext>.isAPI(String(uri.prefix { $0 != "?" }))
                    ? try APITests.error(response) : String(buffer: response.body)
                #expect(text.contains("is not well-formed") && text.contains("UTF-8"), "\(uri): \(text.prefix(300))")
            }
            let named = try await client.execute(uri: "/api/photos?q=%FF", method: .get)
            #expect(try APITests.error(named).hasPrefix("The value of the query parameter q, \"%FF\", is not well-formed"))
            let name = try await client.execute(uri: "/api/photos?%FF=1", method: .get)
            #expect(try APITests.error(name).hasPrefix("A query parameter's name, \"%FF\", is not well-formed"))
        }
    }

    @Test("What a browser encodes still reads: UTF-8 escapes, `+` for a space, an empty value")
    func wellFormed() async throws {
        let fixture = try WebFixture()
        try fixture.add(caption: "Zoë", secondsAgo: 2)
        try fixture.add(caption: "anna & ben", secondsAgo: 1)
        try await fixture.server().test { client in
            for (query, expected) in [("Zo%C3%AB", ["Zoë"]), ("anna+%26+ben", ["anna & ben"]), ("", ["anna & ben", "Zoë"])] {
                let response = try await client.execute(uri: "/api/photos?q=\(query)", method: .get)
                #expect(response.status == .ok, "\(query)")
                #expect(try FindingTests.captions(response) == expected, "\(query)")
            }
            #expect(try await client.execute(uri: "/?q=Zo%C3%AB&flag", method: .get).status == .ok)
        }
    }

    @Test("The connection never serves a malformed query from memory")
    func notKept() async throws {
        let fixture = try WebFixture()
        try fixture.add(caption: "Zoë")
        try await fixture.server().test { client in
            for _ in 0..<3 {
                let page = try await client.execute(uri: "/?q=%FF", method: .get)
                #expect(page.status == .badRequest)
                let api = try await client.execute(uri: "/api/photos?album=name/%FF", method: .get)
                #expect(api.status == .badRequest)
            }
        }
    }
}
