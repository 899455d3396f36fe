import BoothCore
import BoothStore
import Foundation
import HTTPTypes
import NIOCore
import Testing

@testable import BoothWeb

@Suite("Gallery pages")
struct GalleryPageTests {
    @Test("An empty library is a friendly page with the grid's hook and nothing external")
    func emptyLibrary() async throws {
        let fixture = try WebFixture()
        try await fixture.server().test { client in
            let response = try await client.execute(uri: "/", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/html; charset=utf-8")
            let html = String(buffer: response.body)
            #expect(html.contains("<main class=\"gallery\""))
            #expect(html.contains("<p class=\"empty\">No photos yet."))
            #expect(!html.contains("class=\"photo\""))
            #expect(html.contains("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"))
            #expect(html.contains("<title>Test Booth</title>"))
            // The booth's network has no internet: nothing may load from elsewhere.
            #expect(!html.contains("http://") && !html.contains("https://") && !html.contains("//cdn"))
            #expect(!html.contains("<nav class=\"pages\">"), "one page needs no page links")
        }
    }

    @Test("The grid lists thumbnails newest first, each with its caption and time")
    func grid() async throws {
        let fixture = try WebFixture()
        let old = try fixture.add(caption: "Old", secondsAgo: 120)
        let new = try fixture.add(caption: "New", secondsAgo: 5)
        try await fixture.server().test { client in
            let html = String(buffer: try await client.execute(uri: "/", method: .get).body)
            #expect(Self.photoLinks(html) == ["/photos/\(new.id.lowercased)", "/photos/\(old.id.lowercased)"])
            for photo in [old, new] {
                let id = photo.id.lowercased
                let time = PhotoDateFormat.standard.string(from: photo.createdAt)
                #expect(html.contains("<img src=\"/thumbnails/\(id).jpg\" alt=\"\(photo.caption.text)\""))
                #expect(
                    html.contains(
                        "<figcaption id=\"p-\(id)-caption\"><span class=\"caption\">\(photo.caption.text)</span><time datetime=\"\(photo.createdAt.utcTimestamp)\">\(time)</time></figcaption>"
                    ))
                #expect(time.hasPrefix("Taken on "))
            }
            #expect(!html.contains("class=\"empty\""))
            #expect(html.contains("<main class=\"gallery\" data-live>"), "page 1 shows new photos as they come")
            #expect(html.contains("new EventSource(\"/api/events\")"))
            #expect(html.contains("if (connected) location.reload();"), "a reconnected stream may have missed photos: the page reloads")
        }
    }

    @Test("Pages of 30: no photo twice, none left out, links to newer and older pages")
    func paging() async throws {
        let fixture = try WebFixture()
        let photos = try fixture.add(count: 61)
        try await fixture.server().test { client in
            var seen: [String] = []
            for page in 1...3 {
                let response = try await client.execute(uri: page == 1 ? "/" : "/?page=\(page)", method: .get)
                #expect(response.status == .ok)
                let html = String(buffer: response.body)
                seen += Self.photoLinks(html)
                #expect(html.contains("<span>Page \(page) of 3</span>"))
                #expect(html.contains("<a class=\"newer\" rel=\"prev\" href=\"\(page == 2 ? "/" : "/?page=\(page - 1)")\">") == (page > 1))
                #expect(html.contains("<a class=\"older\" rel=\"next\" href=\"/?page=\(page + 1)\">") == (page < 3))
                #expect(html.contains("<main class=\"gallery\" data-live>") == (page == 1), "only page 1 inserts new photos")
            }
            #expect(seen == photos.map { "/photos/\($0.id.lowercased)" })

            let past = try await client.execute(uri: "/?page=4", method: .get)
            #expect(past.status == .notFound)
            #expect(String(buffer: past.body).contains("there is no page 4"))
            for bad in ["0", "-1", "two", "", "1.5", "99999999999999999999999"] {
                let response = try await client.execute(uri: "/?page=\(bad)", method: .get)
                #expect(response.status == .badRequest, "page=\(bad)")
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                #expect(String(buffer: response.body).contains("The page parameter must be a whole number from 1"))
            }
        }
    }

    @Test("A caption is text, never markup: on the grid, the photo page and its title")
    func escaping() async throws {
        let fixture = try WebFixture()
        let photo = try fixture.add(caption: "<script>alert(\"x\")</script> & 'Bob'")
        let escaped = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;Bob&#39;"
        try await fixture.server().test { client in
            for uri in ["/", "/photos/\(photo.id.lowercased)"] {
                let html = String(buffer: try await client.execute(uri: uri, method: .get).body)
                #expect(html.contains("alt=\"\(escaped)\""), "\(uri)")
                #expect(html.contains("<span class=\"caption\">\(escaped)</span>"), "\(uri)")
                #expect(!html.contains("<script>alert"), "\(uri)")
            }
            let page = String(buffer: try await client.execute(uri: "/photos/\(photo.id.lowercased)", method: .get).body)
            #expect(page.contains("<title>\(escaped) · Test Booth</title>"))
        }
    }

    @Test("The photo page shows the original, its name and time, a download link and the way back")
    func photoPage() async throws {
        let fixture = try WebFixture()
        let photo = try fixture.add(caption: "Alice", width: 640, height: 480)
        try await fixture.server().test { client in
            let response = try await client.execute(uri: GalleryServer.pagePath(of: photo.id), method: .get)
            #expect(response.status == .ok)
            let html = String(buffer: response.body)
            let id = photo.id.lowercased
            #expect(html.contains("<img class=\"original\" src=\"/photos/\(id).jpg\" alt=\"Alice\" width=\"640\" height=\"480\">"))
            #expect(html.contains("<a class=\"download\" download href=\"/photos/\(id).jpg?download=1\">"))
            #expect(html.contains("<a class=\"back\" href=\"/#p-\(id)\">"), "back to the photo's place in the grid")
            #expect(html.contains("<span class=\"caption\">Alice</span>"))
            #expect(
                html.contains("<time datetime=\"\(photo.createdAt.utcTimestamp)\">\(PhotoDateFormat.standard.string(from: photo.createdAt))</time>"))
            #expect(html.contains("<meta name=\"viewport\""))
            #expect(html.contains("img { display: block; max-width: 100%; height: auto; }"), "no image overflows a phone's screen")
        }
    }

    @Test("The back link leads to the grid page the photo is on")
    func backToItsPage() async throws {
        let fixture = try WebFixture()
        let photos = try fixture.add(count: 35)
        try await fixture.server().test { client in
            let onPage2 = photos[32]
            let html = String(buffer: try await client.execute(uri: "/photos/\(onPage2.id.lowercased)", method: .get).body)
            #expect(html.contains("<a class=\"back\" href=\"/?page=2#p-\(onPage2.id.lowercased)\">"))
            #expect(html.contains("<a class=\"newer\" rel=\"prev\" href=\"/photos/\(photos[31].id.lowercased)\">"))
            #expect(html.contains("<a class=\"older\" rel=\"next\" href=\"/photos/\(photos[33].id.lowercased)\">"))
            let grid = String(buffer: try await client.execute(uri: "/?page=2", method: .get).body)
            #expect(Self.photoLinks(grid).contains("/photos/\(onPage2.id.lowercased)"))
        }
    }

    @Test("Pages of unknown, hidden and malformed photos are error pages")
    func missingPhotos() async throws {
        let fixture = try WebFixture()
        let hidden = try fixture.add(caption: "Hidden")
        try fixture.library.setHidden(true, of: hidden.id)
        try await fixture.server().test { client in
            for uri in ["/photos/\(UUID().lowercased)", "/photos/\(hidden.id.lowercased)"] {
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.status == .notFound, "\(uri)")
                let html = String(buffer: response.body)
                #expect(html.contains("<main class=\"error\">") && html.contains("Back to the gallery"))
                #expect(!html.contains("Hidden"))
                // It may be a photo on its way (from another booth of the event): the page looks again.
                #expect(html.contains("not in the gallery yet") && response.headers[HTTPField.Name("Refresh")!] == "5")
            }
            let malformed = try await client.execute(uri: "/photos/not-a-photo", method: .get)
            #expect(malformed.status == .badRequest)
            #expect(String(buffer: malformed.body).contains("is not a photo id"))
            let grid = String(buffer: try await client.execute(uri: "/", method: .get).body)
            #expect(Self.photoLinks(grid).isEmpty && grid.contains("class=\"empty\""))
        }
    }

    @Test("A page that does not exist is a small HTML page, not a stack trace")
    func unknownPage() async throws {
        let fixture = try WebFixture()
        try await fixture.server().test { client in
            let response = try await client.execute(uri: "/nothing/here", method: .get)
            #expect(response.status == .notFound)
            #expect(response.headers[.contentType] == "text/html; charset=utf-8")
            #expect(String(buffer: response.body).contains("There is nothing at this address"))
        }
    }

    /// The photo links of a grid page, in order.
    static func photoLinks(_ html: String) -> [String] {
        html.matches(of: /<a class="photo" id="p-[0-9a-f-]+" href="([^"]+)"/).map { String($0.output.1) }
    }
}
