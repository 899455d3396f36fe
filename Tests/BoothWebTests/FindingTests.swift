import BoothCore
import BoothStore
import Foundation
import HTTPTypes
import NIOCore
import Testing

@testable import BoothWeb

@Suite("Search and albums on the web")
struct FindingTests {
    static let totalCount = HTTPField.Name("X-Total-Count")!
    static let link = HTTPField.Name("Link")!

    /// The captions of an API list, in order.
    static func captions(_ response: GalleryResponse) throws -> [String] {
        try APITests.items(response).compactMap { $0["caption"] as? String }
    }

    @Test("A search finds names whatever their case and accents, each word as the start of a word")
    func searchWords() async throws {
        let fixture = try WebFixture()
        try fixture.add(caption: "Zoë", secondsAgo: 50)
        try fixture.add(caption: "anna & ben", secondsAgo: 40)
        try fixture.add(caption: "Annabel", secondsAgo: 30)
        try fixture.add(caption: "Bob", secondsAgo: 20)
        try fixture.add(caption: "Hanna", secondsAgo: 10)
        try await fixture.server().test { client in
            let cases: [(String, [String])] = [
                // As a browser sends it: a request's line is ASCII, "ZOË" percent-encoded.
                ("zoe", ["Zoë"]), ("ZO%C3%8B", ["Zoë"]), ("Zo", ["Zoë"]),
                ("ANNA", ["Annabel", "anna & ben"]), ("ann%20ben", ["anna & ben"]), ("ben+anna", ["anna & ben"]),
                ("nobody", []), ("%21%21", []),
            ]
            for (query, expected) in cases {
                let response = try await client.execute(uri: "/api/photos?q=\(query)", method: .get)
                #expect(response.status == .ok, "\(query)")
                #expect(try Self.captions(response) == expected, "\(query)")
                #expect(response.headers[Self.totalCount] == "\(expected.count)", "\(query)")
            }
            let blank = try await client.execute(uri: "/api/photos?q=%20", method: .get)
            #expect(try Self.captions(blank).count == 5, "a blank search is no search")
        }
    }

    @Test("Search results page like the rest, and their links keep the search")
    func searchPaging() async throws {
        let fixture = try WebFixture()
        for index in 0..<35 { try fixture.add(caption: "Party \(index)", secondsAgo: Double(100 - index)) }
        try fixture.add(caption: "Other", secondsAgo: 1)
        try await fixture.server().test { client in
            let second = try await client.execute(uri: "/api/photos?q=party&page=2&limit=10", method: .get)
            #expect(try Self.captions(second) == (15...24).reversed().map { "Party \($0)" })
            #expect(second.headers[Self.totalCount] == "35")
            #expect(
                second.headers[Self.link]
                    == "<http://localhost/api/photos?q=party&page=1&limit=10>; rel=\"prev\", <http://localhost/api/photos?q=party&page=3&limit=10>; rel=\"next\""
            )
            var seen: [String] = []
            for page in 1...2 {
                let html = String(buffer: try await client.execute(uri: "/?q=party&page=\(page)", method: .get).body)
                seen += GalleryPageTests.photoLinks(html)
                #expect(html.contains("<h1>Photos named \u{201C}party\u{201D}</h1>"))
                #expect(html.contains("35 photos"))
                #expect(html.contains("value=\"party\""), "the box keeps what was typed")
                #expect(html.contains("<a class=\"older\" rel=\"next\" href=\"/?q=party&amp;page=2\">") == (page == 1))
                #expect(html.contains("<a class=\"newer\" rel=\"prev\" href=\"/?q=party\">") == (page == 2))
                #expect(html.contains("<main class=\"gallery\">"), "new photos are not inserted into a search")
            }
            #expect(seen.count == 35 && Set(seen).count == 35)
            #expect(seen.allSatisfy { $0.hasSuffix("?q=party") }, "a photo opened from a search stays in it")
        }
    }

    @Test("A search that finds nothing says so; a bad one is a 400 that says why")
    func searchStates() async throws {
        let fixture = try WebFixture()
        try fixture.add(caption: "Zoë")
        try await fixture.server().test { client in
            let none = try await client.execute(uri: "/?q=%3Cb%3Ebob", method: .get)
            #expect(none.status == .ok)
            let html = String(buffer: none.body)
            #expect(html.contains("<p class=\"empty\">No photo named \u{201C}&lt;b&gt;bob\u{201D}."))
            #expect(GalleryPageTests.photoLinks(html).isEmpty)
            let long = String(repeating: "a", count: 101)
            let cases = [
                (long, "at most 100 characters"), (long.dropLast() + "%20", "at most 100 characters"),
                ("a%0Ab", "control characters"), ("%C2%A4%09", "control characters"), ("%0Azoe", "control characters"),
            ]
            for (query, message) in cases {
                for uri in ["/?q=\(query)", "/api/photos?q=\(query)"] {
                    let response = try await client.execute(uri: uri, method: .get)
                    #expect(response.status == .badRequest, "\(uri)")
                    #expect(String(buffer: response.body).contains(message), "\(uri)")
                }
            }
            let fits = try await client.execute(uri: "/?q=\(String(repeating: "a", count: 100))", method: .get)
            #expect(fits.status == .ok)
            let spaced = try await client.execute(uri: "/?q=%20zo%C3%AB%20", method: .get)
            #expect(GalleryPageTests.photoLinks(String(buffer: spaced.body)).count == 1, "spaces around a search are not part of it")
        }
    }

    @Test("One album per name however it is written, one per day, one of favourites; counts in words")
    func albums() async throws {
        let fixture = try WebFixture()
        let first = try fixture.add(caption: "Alice", secondsAgo: 30)
        try fixture.add(caption: "alice", secondsAgo: 20)
        let newest = try fixture.add(caption: "ALICE ", secondsAgo: 10)
        let bob = try fixture.add(caption: "Bob", secondsAgo: 5)
        try fixture.add(secondsAgo: 1)
        try fixture.library.setFavourite(true, of: first.id)
        let day = Self.day(of: newest.createdAt)
        try await fixture.server().test { client in
            let response = try await client.execute(uri: "/api/albums", method: .get)
            #expect(response.status == .ok)
            let albums = try APITests.items(response)
            for album in albums {
                #expect(Set(album.keys) == ["kind", "title", "count", "cover_id", "url"])
            }
            let summary = albums.map { "\($0["kind"]!)|\($0["title"]!)|\($0["count"]!)" }
            #expect(summary.contains("favourites|Favourites|1"))
            #expect(summary.contains("name|ALICE|3"), "one album for Alice, alice and ALICE, titled as its newest photo spells it")
            #expect(summary.contains("name|Bob|1"))
            #expect(!summary.contains { $0.hasPrefix("name|Photo") }, "a photo nobody named is in no name's album")
            let alice = try #require(albums.first { $0["kind"] as? String == "name" && $0["count"] as? Int == 3 })
            #expect(alice["cover_id"] as? String == newest.id.lowercased)
            #expect(alice["url"] as? String == "http://localhost/albums/name/alice")
            let today = try #require(albums.first { $0["kind"] as? String == "day" })
            #expect(today["url"] as? String == "http://localhost/albums/day/\(day)")
            let parts = day.split(separator: "-")
            #expect(today["title"] as? String == "\(parts[2])/\(parts[1])/\(parts[0])", "a day in the reader's form")

            let page = String(buffer: try await client.execute(uri: "/albums", method: .get).body)
            #expect(page.contains("<a class=\"photo album\" href=\"/albums/name/alice\">"))
            #expect(page.contains("<span class=\"count\">3 photos</span>") && page.contains("<span class=\"count\">1 photo</span>"))
            #expect(page.contains("<img src=\"/thumbnails/\(bob.id.lowercased).jpg\""))

            for uri in ["/albums/name/alice", "/albums/name/ALICE%20", "/albums/name/Alic%C3%A9"] {
                let html = String(buffer: try await client.execute(uri: uri, method: .get).body)
                #expect(GalleryPageTests.photoLinks(html).count == 3, "\(uri): names compare as search compares them")
            }
            let album = String(buffer: try await client.execute(uri: "/albums/name/alice", method: .get).body)
            #expect(album.contains("<h1>ALICE</h1>") && album.contains("3 photos"))
            #expect(GalleryPageTests.photoLinks(album).first == "/photos/\(newest.id.lowercased)?album=name/alice")
            let favourites = String(buffer: try await client.execute(uri: "/albums/favourites", method: .get).body)
            #expect(GalleryPageTests.photoLinks(favourites) == ["/photos/\(first.id.lowercased)?album=favourites"])
            let byDay = String(buffer: try await client.execute(uri: "/albums/day/\(day)", method: .get).body)
            #expect(GalleryPageTests.photoLinks(byDay).count == 5)
        }
    }

    @Test("An empty album is a page that says so; a malformed one is a 400")
    func albumStates() async throws {
        let fixture = try WebFixture()
        try await fixture.server().test { client in
            let empty = try await client.execute(uri: "/albums", method: .get)
            #expect(String(buffer: empty.body).contains("<p class=\"empty\">No albums yet"))
            for uri in [
                "/albums/favourites", "/albums/name/nobody", "/albums/name/%20", "/albums/day/2026-11-23", "/?album=name/%F0%9F%8F%BB",
            ] {
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.status == .ok, "\(uri)")
                #expect(String(buffer: response.body).contains("<p class=\"empty\">No photos in this album yet.</p>"), "\(uri)")
            }
            for uri in [
                "/albums/day/yesterday", "/albums/name/a%0Ab", "/albums/name/\(String(repeating: "a", count: 101))", "/?album=holidays",
                "/api/photos?album=day/23-11-2026", "/?q=alice&album=name/a%0Ab",
            ] {
                #expect(try await client.execute(uri: uri, method: .get).status == .badRequest, "\(uri)")
            }
        }
    }

    @Test("A photo opened from an album or a search goes to its neighbours there, and back to its place")
    func neighboursInListing() async throws {
        let fixture = try WebFixture()
        let old = try fixture.add(caption: "Alice", secondsAgo: 30)
        try fixture.add(caption: "Bob", secondsAgo: 20)
        let middle = try fixture.add(caption: "alice", secondsAgo: 10)
        try fixture.add(caption: "Carol", secondsAgo: 5)
        let new = try fixture.add(caption: "Alice", secondsAgo: 1)
        try await fixture.server().test { client in
            let id = middle.id.lowercased
            let album = String(buffer: try await client.execute(uri: "/photos/\(id)?album=name/alice", method: .get).body)
            #expect(album.contains("<a class=\"newer\" rel=\"prev\" href=\"/photos/\(new.id.lowercased)?album=name/alice\">"))
            #expect(album.contains("<a class=\"older\" rel=\"next\" href=\"/photos/\(old.id.lowercased)?album=name/alice\">"))
            #expect(album.contains("<a class=\"back\" href=\"/albums/name/alice#p-\(id)\">"))
            let search = String(buffer: try await client.execute(uri: "/photos/\(id)?q=ali", method: .get).body)
            #expect(search.contains("<a class=\"back\" href=\"/?q=ali#p-\(id)\">"))
            #expect(search.contains("href=\"/photos/\(new.id.lowercased)?q=ali\""))
            let all = String(buffer: try await client.execute(uri: "/photos/\(id)", method: .get).body)
            #expect(!all.contains("?album=") && all.contains("<a class=\"back\" href=\"/#p-\(id)\">"))
            let newest = String(buffer: try await client.execute(uri: "/photos/\(new.id.lowercased)?album=name/alice", method: .get).body)
            #expect(!newest.contains("rel=\"prev\""), "the newest photo has no previous one")
            // A photo no longer in the album it was opened from is shown among all the photos.
            let elsewhere = String(buffer: try await client.execute(uri: "/photos/\(id)?album=name/bob", method: .get).body)
            #expect(elsewhere.contains("<a class=\"back\" href=\"/#p-\(id)\">"))
        }
    }

    /// The day of `date` in the booth's time zone, as albums key it.
    static func day(of date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = .current
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: date)
    }
}
