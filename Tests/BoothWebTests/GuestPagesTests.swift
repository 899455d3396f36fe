import BoothCore
import BoothStore
import Foundation
import HTTPTypes
import NIOCore
import Testing

@testable import BoothWeb

@Suite("The guests' pages: masonry, photo page, slideshow, welcome, languages")
struct GuestPagesTests {
    @Test("The grid keeps every photo's own shape: its size in the markup, lazy loading, nothing cropped")
    func masonry() async throws {
        let fixture = try WebFixture()
        let portrait = try fixture.add(caption: "Tall", secondsAgo: 2, width: 240, height: 320)
        let wide = try fixture.add(caption: "Wide", secondsAgo: 1, width: 320, height: 180)
        try await fixture.server().test { client in
            let html = String(buffer: try await client.execute(uri: "/", method: .get).body)
            for photo in [portrait, wide] {
                let id = photo.id.lowercased
                #expect(
                    html.contains(
                        "<a class=\"photo\" id=\"p-\(id)\" href=\"/photos/\(id)\" data-id=\"\(id)\" aria-labelledby=\"p-\(id)-caption\"><figure><img src=\"/thumbnails/\(id).jpg\" alt=\"\(photo.caption.text)\" width=\"\(photo.width)\" height=\"\(photo.height)\" loading=\"lazy\">"
                    ))
            }
            #expect(!html.contains("object-fit: cover;\n") && !html.contains("a.photo img { width: 100%; aspect-ratio"), "no grid photo is cropped")
            #expect(html.contains(".grid { column-count: 2;"), "two columns on a phone, without JavaScript too")
            #expect(html.contains("IntersectionObserver") && html.contains("<p class=\"more\" hidden><span>Loading more photos…</span></p>"))
            #expect(html.contains("<form class=\"search\" action=\"/\" method=\"get\" role=\"search\">"))
        }
    }

    @Test("The photo page: name, time, author, share, and its neighbours")
    func photoPage() async throws {
        let fixture = try WebFixture()
        let older = try fixture.add(caption: "Older", secondsAgo: 3)
        let photo = try fixture.add(caption: "Middle", secondsAgo: 2)
        let newer = try fixture.add(caption: "Newer", secondsAgo: 1)
        try await fixture.server().test { client in
            let html = String(buffer: try await client.execute(uri: "/photos/\(photo.id.lowercased)", method: .get).body)
            #expect(html.contains("<span class=\"author\">By Test Booth</span>"))
            #expect(html.contains("<a class=\"newer\" rel=\"prev\" href=\"/photos/\(newer.id.lowercased)\">← Previous</a>"))
            #expect(html.contains("<a class=\"older\" rel=\"next\" href=\"/photos/\(older.id.lowercased)\">Next →</a>"))
            #expect(html.contains("<button type=\"button\" class=\"share\" hidden data-file=\"/photos/\(photo.id.lowercased).jpg\""))
            #expect(html.contains("navigator.canShare({ files: [file] })") && html.contains("ArrowLeft") && html.contains("touchend"))
        }
    }

    @Test("The slideshow shows favourites first, then the others newest first")
    func slideshow() async throws {
        let fixture = try WebFixture()
        let favourite = try fixture.add(caption: "Best", secondsAgo: 30)
        let old = try fixture.add(caption: "Old", secondsAgo: 20)
        let new = try fixture.add(caption: "New", secondsAgo: 10)
        let hidden = try fixture.add(caption: "Hidden", secondsAgo: 5)
        try fixture.library.setFavourite(true, of: favourite.id)
        try fixture.library.setHidden(true, of: hidden.id)
        try await fixture.server().test { client in
            let response = try await client.execute(uri: "/slideshow", method: .get)
            #expect(response.status == .ok)
            let html = String(buffer: response.body)
            let order = html.matches(of: /<li data-id="([0-9a-f-]+)"/).map { String($0.output.1) }
            #expect(order == [favourite, new, old].map(\.id.lowercased))
            #expect(
                html.contains(
                    "<li data-id=\"\(favourite.id.lowercased)\" data-src=\"/photos/\(favourite.id.lowercased).jpg\" data-caption=\"Best\" data-favourite>"
                ))
            #expect(html.contains("new EventSource(\"/api/events\")"), "a new photo is shown as soon as it is saved")
        }
        let empty = try WebFixture()
        try await empty.server().test { client in
            let html = String(buffer: try await client.execute(uri: "/slideshow", method: .get).body)
            #expect(html.contains("<p class=\"empty\">Photos appear here as soon as they are taken.</p>"))
        }
    }

    @Test("The welcome is the operator's text, on the whole gallery only, closable")
    func welcome() async throws {
        let fixture = try WebFixture()
        try fixture.add(caption: "Alice")
        var settings = WebSettings(boothName: "Anna & Ben", adminToken: "secret")
        settings.welcome = "Welcome <friends>!"
        try await fixture.server(settings).test { client in
            let html = String(buffer: try await client.execute(uri: "/", method: .get).body)
            #expect(html.contains("<title>Anna &amp; Ben</title>"), "the event's name is the title")
            #expect(html.contains("<aside class=\"welcome\" data-welcome=\"Welcome &lt;friends&gt;!\"><p>Welcome &lt;friends&gt;!</p>"))
            #expect(html.contains("aria-label=\"Close\"") && html.contains("localStorage.setItem(\"photobooth.welcome\""))
            let search = String(buffer: try await client.execute(uri: "/?q=alice", method: .get).body)
            #expect(!search.contains("class=\"welcome\""))
        }
        try await fixture.server().test { client in
            let html = String(buffer: try await client.execute(uri: "/", method: .get).body)
            #expect(!html.contains("class=\"welcome\""))
        }
    }

    @Test("Pages say their language: Content-Language, <html lang>, and ?lang= kept in a cookie")
    func language() async throws {
        let fixture = try WebFixture()
        let photo = try fixture.add(caption: "Alice")
        try await fixture.server().test { client in
            for uri in ["/", "/albums", "/photos/\(photo.id.lowercased)", "/slideshow", "/admin", "/albums/favourites"] {
                let response = try await client.execute(uri: uri, method: .get, headers: [.acceptLanguage: "de-DE;q=0.8, en;q=0.5"])
                #expect(response.status == .ok, "\(uri)")
                #expect(response.headers[.contentLanguage] == "de", "\(uri)")
                #expect(response.headers[.vary] == "Accept-Language, Cookie", "\(uri)")
                #expect(String(buffer: response.body).contains("<html lang=\"de\">"), "\(uri)")
            }
            let chosen = try await client.execute(uri: "/?lang=fr", method: .get, headers: [.acceptLanguage: "de"])
            #expect(chosen.headers[.setCookie] == "lang=fr; Path=/; Max-Age=31536000; SameSite=Lax")
            #expect(chosen.headers[.contentLanguage] == "fr")
            let kept = try await client.execute(uri: "/albums", method: .get, headers: [.acceptLanguage: "de", .cookie: "other=1; lang=fr"])
            #expect(kept.headers[.contentLanguage] == "fr", "the cookie wins over the browser's languages")
            #expect(kept.headers[.setCookie] == nil)
            let bad = try await client.execute(uri: "/?lang=xx", method: .get)
            #expect(bad.status == .badRequest)
            #expect(String(buffer: bad.body).contains("The lang parameter must be one of en, fr, de"))
            let switcher = String(buffer: try await client.execute(uri: "/?q=alice&page=1", method: .get).body)
            #expect(switcher.contains("<a href=\"/?q=alice&amp;page=1&amp;lang=en\" hreflang=\"en\" lang=\"en\" aria-current=\"true\">English</a>"))
            #expect(switcher.contains("<a href=\"/?q=alice&amp;page=1&amp;lang=fr\" hreflang=\"fr\" lang=\"fr\">Français</a>"))
            #expect(switcher.contains("<a href=\"/?q=alice&amp;page=1&amp;lang=de\" hreflang=\"de\" lang=\"de\">Deutsch</a>"))
        }
        var french = WebSettings(boothName: "Test Booth")
        french.language = .french
        try await fixture.server(french).test { client in
            let response = try await client.execute(uri: "/", method: .get, headers: [.acceptLanguage: "ja, zh;q=0.5"])
            #expect(response.headers[.contentLanguage] == "fr", "a browser that asks for none of the booth's languages gets the booth's")
        }
    }

    @Test("Every page in each language: its words, its dates, its plurals, and no word of another language's")
    func everyLanguage() async throws {
        let fixture = try WebFixture()
        let photo = try fixture.add(caption: "Alice", secondsAgo: 10)
        try fixture.add(caption: "alice", secondsAgo: 5)
        try fixture.add(caption: "Bob")
        try fixture.library.setFavourite(true, of: photo.id)
        let key = GuestDeletionTests.keys.key(for: photo.id)
        let uris = [
            "/", "/?q=alice", "/?q=nobody", "/albums", "/albums/favourites", "/albums/name/nobody", "/photos/\(photo.id.lowercased)?key=\(key)",
            "/photos/\(photo.id.lowercased)/delete?key=\(key)", "/slideshow", "/admin", "/nothing/here",
        ]
        try await fixture.server(GuestDeletionTests.settings).test { client in
            for language in BoothLanguage.all {
                let texts = language.texts
                var seen = ""
                for uri in uris {
                    let response = try await client.execute(uri: uri, method: .get, headers: [.acceptLanguage: language.code])
                    #expect(response.headers[.contentLanguage] == language.code, "\(language) \(uri)")
                    seen += String(buffer: response.body)
                }
                // Every text a page shows, escaped as pages write it.
                for text: BoothText in [.webSearchButton, .webAlbums, .webSlideshow, .webDeleteOffer, .webDeleteConfirm, .webAdminTitle] {
                    #expect(seen.contains(Self.escaped(texts(text))), "\(language): \(text)")
                }
                #expect(seen.contains(Self.escaped(texts(.webSearchEmpty, ["query": "nobody"]))), "\(language)")
                #expect(seen.contains(Self.escaped(language.photoCount(1))) && seen.contains(Self.escaped(language.photoCount(2))), "\(language)")
                #expect(seen.contains(language.dateFormat.string(from: photo.createdAt)), "\(language): the time in the language's form")
                // No text of another language that differs from this one's.
                for other in BoothLanguage.all where other != language {
                    for text in BoothText.allCases where text.rawValue.hasPrefix("web") {
                        let foreign = Self.escaped(other.texts(text))
                        guard foreign != Self.escaped(texts(text)), foreign.count > 4, !foreign.contains("{") else { continue }
                        #expect(!seen.contains(">" + foreign + "<"), "\(language) pages show \(other)'s \(text)")
                    }
                }
            }
            let german = try await client.execute(uri: "/photos/\(photo.id.lowercased)", method: .get, headers: [.acceptLanguage: "de"])
            #expect(String(buffer: german.body).contains(">Aufgenommen am "))
            let api = try await client.execute(uri: "/api/albums", method: .get, headers: [.acceptLanguage: "de"])
            #expect(try APITests.items(api).first?["title"] as? String == "Favoriten")
            #expect(api.headers[.contentLanguage] == "de")
        }
    }

    @Test("Accept-Language: quality values rank, the header's order breaks ties, unknown languages fall to the booth's")
    func acceptLanguage() {
        func best(_ header: String?, _ fallback: BoothLanguage = .english) -> String {
            BoothLanguage.best(for: header, fallback: fallback).code
        }
        #expect(best(nil) == "en" && best(nil, .german) == "de")
        #expect(best("de-DE,de;q=0.9,en;q=0.8") == "de")
        #expect(best("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7") == "fr")
        #expect(best("en;q=0.5, de;q=0.8") == "de", "quality, not order")
        #expect(best("de;q=0.8, fr;q=0.8") == "de", "order breaks a tie")
        #expect(best("FR") == "fr")
        #expect(best("xx, yy;q=0.5", .french) == "fr")
        #expect(best("fr;q=0, de;q=abc") == "en", "q=0 and a malformed quality refuse")
        #expect(best("*", .german) == "de")
        #expect(best("ja, *;q=0.1, fr;q=0.5") == "fr")
    }

    /// `text` as Mustache writes it into a page.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "'", with: "&#39;")
    }
}
