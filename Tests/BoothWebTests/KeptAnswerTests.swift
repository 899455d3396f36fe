import BoothCore
import BoothImaging
import BoothStore
import Foundation
import HTTPTypes
import NIOCore
import Testing

@testable import BoothWeb

/// The answers the gallery keeps in memory (``ResponseCache``): served again without the
/// catalog, never older than it.
@Suite("Kept answers")
struct KeptAnswerTests {
    /// GETs `uri` twice; the second must be the kept answer: the same bytes and ETag.
    static func twice(_ client: GalleryClient, _ uri: String, headers: HTTPFields = [:]) async throws -> (String, String) {
        let first = try await client.execute(uri: uri, method: .get, headers: headers)
        let again = try await client.execute(uri: uri, method: .get, headers: headers)
        #expect(first.status == .ok, "\(uri)")
        #expect(again.status == .ok, "\(uri)")
        let etag = try #require(first.headers[.eTag], "\(uri) has an ETag")
        #expect(again.headers[.eTag] == etag, "\(uri)")
        #expect(again.body == first.body, "\(uri)")
        return (String(buffer: first.body), etag)
    }

    @Test("The gallery's page and the API change with every save, rename, favourite, hide and deletion")
    func neverStale() async throws {
        let fixture = try WebFixture()
        let first = try fixture.add(caption: "Alice", secondsAgo: 10)
        let generation = fixture.library.changes.current
        try await fixture.server().test { client in
            var (page, etag) = try await Self.twice(client, "/")
            #expect(page.contains("Alice"))
            var (api, _) = try await Self.twice(client, "/api/photos")
            #expect(api.contains("Alice"))

            let second = try fixture.add(caption: "Bruno")
            (page, etag) = try await Self.changed(client, "/", from: etag)
            #expect(page.contains("Bruno"), "a save")
            (api, _) = try await Self.twice(client, "/api/photos")
            #expect(api.contains("Bruno"), "a save")

            try fixture.library.setCaption(Caption(sanitizing: "Charlotte")!, of: first.id)
            (page, etag) = try await Self.changed(client, "/", from: etag)
            #expect(page.contains("Charlotte") && !page.contains("Alice"), "a rename")
            (api, _) = try await Self.twice(client, "/api/photos/\(first.id.lowercased)")
            #expect(api.contains("Charlotte"), "a rename")

            var (favourites, _) = try await Self.twice(client, "/albums/favourites")
            #expect(!favourites.contains("Bruno"))
            try fixture.library.setFavourite(true, of: second.id)
            (favourites, _) = try await Self.twice(client, "/albums/favourites")
            #expect(favourites.contains("Bruno"), "a favourite")

            try fixture.library.setHidden(true, of: second.id)
            (page, etag) = try await Self.changed(client, "/", from: etag)
            #expect(!page.contains("Bruno"), "a hide")
            let hidden = try await client.execute(uri: "/photos/\(second.id.lowercased)", method: .get)
            #expect(hidden.status == .notFound, "a hidden photo's page")

            _ = try fixture.library.recycle(first.id)
            (page, _) = try await Self.changed(client, "/", from: etag)
            #expect(!page.contains("Charlotte"), "a deletion")
            (api, _) = try await Self.twice(client, "/api/photos")
            #expect(api == "[]")
        }
        #expect(fixture.library.changes.current == generation + 5, "one change per save, rename, favourite, hide, deletion")
    }

    /// GETs `uri` with the ETag of an earlier answer: it must have changed.
    static func changed(_ client: GalleryClient, _ uri: String, from etag: String) async throws -> (String, String) {
        let response = try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: etag])
        #expect(response.status == .ok, "\(uri) changed")
        #expect(response.headers[.eTag] != etag, "\(uri) changed")
        return try await twice(client, uri)
    }

    @Test("A change made by another process (photobooth hide, favourite) reaches the kept answers too")
    func otherProcess() async throws {
        let fixture = try WebFixture()
        let photo = try fixture.add(caption: "Alice")
        // Another connection to the catalog, as `photobooth hide` opens: its commits are seen
        // through the catalog's files.
        let other = try PhotoLibrary(directory: fixture.directory, thumbnailer: JPEGThumbnailer(), logger: .init(label: "other"), create: false)
        try await fixture.server().test { client in
            let (page, etag) = try await Self.twice(client, "/")
            #expect(page.contains("Alice"))
            _ = try await Self.twice(client, "/thumbnails/\(photo.id.lowercased).jpg")
            let generation = fixture.library.changes.current
            try other.setHidden(true, of: photo.id)
            #expect(fixture.library.changes.current == generation + 1, "seen by this library's signal")
            let (hidden, _) = try await Self.changed(client, "/", from: etag)
            #expect(!hidden.contains("Alice"))
            let thumbnail = try await client.execute(uri: "/thumbnails/\(photo.id.lowercased).jpg", method: .get)
            #expect(thumbnail.status == .notFound)
        }
        other.close()
    }

    @Test("A kept page is answered 304 to a client that has it, and the API too")
    func notModified() async throws {
        let fixture = try WebFixture()
        let photo = try fixture.add(caption: "Alice")
        try await fixture.server().test { client in
            for uri in ["/", "/albums", "/photos/\(photo.id.lowercased)", "/slideshow", "/api/photos", "/api/albums"] {
                let (_, etag) = try await Self.twice(client, uri)
                for condition in [etag, "W/\(etag)"] {
                    let cached = try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: condition])
                    #expect(cached.status == .notModified, "\(uri) with \(condition)")
                    #expect(cached.body.readableBytes == 0, "\(uri)")
                    #expect(cached.headers[.eTag] == etag, "\(uri)")
                }
            }
        }
    }

    @Test("Each language has its own kept page, chosen by Accept-Language, cookie or ?lang=")
    func languages() async throws {
        let fixture = try WebFixture()
        try fixture.add(caption: "Alice")
        try await fixture.server().test { client in
            let (english, englishTag) = try await Self.twice(client, "/", headers: [.acceptLanguage: "en"])
            let (french, frenchTag) = try await Self.twice(client, "/", headers: [.acceptLanguage: "fr-CH, en;q=0.5"])
            let (german, _) = try await Self.twice(client, "/", headers: [.cookie: "lang=de"])
            #expect(english.contains("lang=\"en\""))
            #expect(french.contains("lang=\"fr\""))
            #expect(german.contains("lang=\"de\""))
            #expect(englishTag != frenchTag)
            let again = try await client.execute(uri: "/", method: .get, headers: [.acceptLanguage: "en"])
            #expect(String(buffer: again.body) == english, "the English page is still kept beside the others")
            let chosen = try await client.execute(uri: "/?lang=fr", method: .get, headers: [.acceptLanguage: "en"])
            #expect(chosen.headers[.setCookie]?.hasPrefix("lang=fr") == true)
            let (albums, _) = try await Self.twice(client, "/api/albums", headers: [.acceptLanguage: "de"])
            #expect(albums.contains("\"title\""))
        }
    }

    @Test("A kept thumbnail or original is 404 once its photo is hidden or deleted")
    func hiddenImages() async throws {
        let fixture = try WebFixture()
        let hidden = try fixture.add(caption: "Hidden")
        let deleted = try fixture.add(caption: "Deleted")
        try await fixture.server().test { client in
            for photo in [hidden, deleted] {
                _ = try await Self.twice(client, "/thumbnails/\(photo.id.lowercased).jpg")
                _ = try await Self.twice(client, "/photos/\(photo.id.lowercased).jpg")
            }
            try fixture.library.setHidden(true, of: hidden.id)
            _ = try fixture.library.recycle(deleted.id)
            for photo in [hidden, deleted] {
                for uri in ["/thumbnails/\(photo.id.lowercased).jpg", "/photos/\(photo.id.lowercased).jpg"] {
                    let response = try await client.execute(uri: uri, method: .get)
                    #expect(response.status == .notFound, "\(uri) of \(photo.caption.text)")
                }
            }
            try fixture.library.setHidden(false, of: hidden.id)
            _ = try await Self.twice(client, "/thumbnails/\(hidden.id.lowercased).jpg")
        }
    }

    @Test("An original larger than a chunk, whole and in ranges across its kept start and its file, is the tagged copy")
    func originalParts() async throws {
        let fixture = try WebFixture()
        let photo = try fixture.add(caption: "Large", width: 1920, height: 1440)
        let file = try ImageTests.outgoing(photo, in: fixture)
        #expect(file.count > 2 * OriginalParts.chunkSize, "the file is read in several chunks")
        let uri = "/photos/\(photo.id.lowercased).jpg"
        let parts = try await Self.parts(of: photo, in: fixture)
        let head = parts.head.readableBytes
        #expect(head > 0 && head < 64 * 1024, "the metadata is kept, the image data is not")
        #expect(parts.size == file.count)
        try await fixture.server().test { client in
            _ = try await Self.twice(client, uri)
            let response = try await client.execute(uri: uri, method: .get)
            #expect(Data(response.body.readableBytesView) == file)
            let size = file.count
            let chunk = OriginalParts.chunkSize
            let ranges: [ClosedRange<Int>] = [
                0...(head - 1), 0...head, (head - 1)...(head + 10), head...(head + chunk), (head - 5)...(head + chunk + 5),
                (size - chunk - 1)...(size - 1), (size - 1)...(size - 1), 1...(size - 2),
            ]
            for range in ranges {
                let part = try await client.execute(
                    uri: uri, method: .get, headers: [.range: "bytes=\(range.lowerBound)-\(range.upperBound)"])
                #expect(part.status == .partialContent, "\(range)")
                #expect(part.headers[.contentLength] == String(range.count), "\(range)")
                #expect(Data(part.body.readableBytesView) == file[range], "\(range)")
            }
            try fixture.library.setCaption(Caption(sanitizing: "Larger")!, of: photo.id)
            let renamed = try #require(try fixture.library.gallery.photo(id: photo.id))
            let answer = try await client.execute(uri: uri, method: .get)
            #expect(Data(answer.body.readableBytesView) == (try ImageTests.outgoing(renamed, in: fixture)), "the new name, at once")
            #expect(Data(answer.body.readableBytesView) != file)
        }
    }

    /// The parts the gallery makes of `photo`'s original.
    static func parts(of photo: Photo, in fixture: WebFixture) async throws -> OriginalParts {
        let gallery = WebContext(
            library: fixture.library, live: fixture.live, settings: WebSettings(boothName: "Test Booth"), logger: .init(label: "test"))
        return try await gallery.originalParts(photo.id, generation: gallery.kept.generation.current)
    }

    @Test("The cache keeps within its bounds, dropping the least recently used, and nothing of an older generation")
    func bounds() {
        let cache = GenerationCache<Int>(maximumCount: 3, maximumBytes: 100)
        for key in ["a", "b", "c"] { cache.keep(1, for: key, generation: 1, cost: 10) }
        #expect(cache.value(for: "a", generation: 1) == 1)
        cache.keep(1, for: "d", generation: 1, cost: 10)
        #expect(cache.value(for: "b", generation: 1) == nil, "the least recently used went")
        #expect(cache.value(for: "a", generation: 1) == 1)
        cache.keep(2, for: "e", generation: 1, cost: 85)
        #expect(cache.size.bytes <= 100)
        #expect(cache.value(for: "e", generation: 1) == 2)
        cache.keep(3, for: "f", generation: 1, cost: 101)
        #expect(cache.value(for: "f", generation: 1) == nil, "larger than the whole bound")
        cache.keep(4, for: "old", generation: 0, cost: 1)
        #expect(cache.value(for: "old", generation: 0) == nil, "made before a change")
        #expect(cache.value(for: "a", generation: 2) == nil)
        #expect(cache.size.count == 0, "a newer generation drops the older")
    }
}
