import BoothCore
import BoothImaging
import BoothPictures
import BoothStore
import Foundation
import HTTPTypes
import NIOCore
import Testing

@testable import BoothWeb

@Suite("Thumbnails and originals")
struct ImageTests {
    @Test("A thumbnail is the catalog's JPEG, cached forever and revalidated by its ETag")
    func thumbnail() async throws {
        let fixture = try WebFixture()
        let photo = try fixture.add()
        let jpeg = try #require(try fixture.library.gallery.thumbnail(of: photo.id))
        try await fixture.server().test { client in
            let response = try await client.execute(uri: "/thumbnails/\(photo.id.lowercased).jpg", method: .get)
            #expect(response.status == .ok)
            #expect(Data(response.body.readableBytesView) == jpeg)
            #expect(response.headers[.contentType] == "image/jpeg")
            #expect(response.headers[.contentLength] == String(jpeg.count))
            #expect(response.headers[.cacheControl] == "public, max-age=31536000, immutable")
            let etag = try #require(response.headers[.eTag])
            #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""), "a strong ETag")

            for condition in [etag, "W/\(etag)", "\"other\", \(etag)", "*"] {
                let cached = try await client.execute(
                    uri: "/thumbnails/\(photo.id.lowercased).jpg", method: .get, headers: [.ifNoneMatch: condition])
                #expect(cached.status == .notModified, "If-None-Match: \(condition)")
                #expect(cached.body.readableBytes == 0)
                #expect(cached.headers[.eTag] == etag)
                #expect(cached.headers[.cacheControl] == "public, max-age=31536000, immutable")
            }
            let changed = try await client.execute(
                uri: "/thumbnails/\(photo.id.lowercased).jpg", method: .get, headers: [.ifNoneMatch: "\"something-else\""])
            #expect(changed.status == .ok)
        }
    }

    /// What the gallery hands out for `photo`: its original with its name and time spliced in.
    static func outgoing(_ photo: Photo, in fixture: WebFixture) throws -> Data {
        try PictureTagger().tagged(Data(contentsOf: fixture.library.url(of: photo)), with: fixture.library.metadata(of: photo, event: ""))
    }

    @Test("An original is the file's bytes with its name and time spliced in, with its ETag, size and byte ranges")
    func original() async throws {
        let fixture = try WebFixture()
        let photo = try fixture.add(caption: "Alice")
        let original = try Data(contentsOf: fixture.library.url(of: photo))
        let file = try Self.outgoing(photo, in: fixture)
        #expect(file != original)
        #expect(try JPEGSegments(file).imageData == JPEGSegments(original).imageData)
        try await fixture.server().test { client in
            let response = try await client.execute(uri: "/photos/\(photo.id.lowercased).jpg", method: .get)
            #expect(response.status == .ok)
            #expect(Data(response.body.readableBytesView) == file)
            #expect(response.headers[.contentType] == "image/jpeg")
            #expect(response.headers[.contentLength] == String(file.count))
            #expect(response.headers[.acceptRanges] == "bytes")
            // Renaming changes the bytes: the browser asks again each time, and a 304 is cheap.
            #expect(response.headers[.cacheControl] == "no-cache")
            #expect(response.headers[.contentDisposition] == nil, "shown in the browser, not downloaded")
            let etag = try #require(response.headers[.eTag])
            let cached = try await client.execute(
                uri: "/photos/\(photo.id.lowercased).jpg", method: .get, headers: [.ifNoneMatch: etag])
            #expect(cached.status == .notModified)
            #expect(cached.body.readableBytes == 0)
            try fixture.library.setCaption(Caption(sanitizing: "Alicia")!, of: photo.id)
            let renamed = try await client.execute(
                uri: "/photos/\(photo.id.lowercased).jpg", method: .get, headers: [.ifNoneMatch: etag])
            #expect(renamed.status == .ok, "a renamed photo is another copy, with another ETag")
            #expect(renamed.headers[.eTag] != etag)
        }
    }

    @Test("An animation is its GIF at .gif, with its name inside; a composed picture's shots download one by one")
    func animationAndShots() async throws {
        let fixture = try WebFixture()
        let picture = UUID()
        let number = fixture.library.reservePhotoNumber()
        let parts = try (0..<3).map { index in
            try fixture.library.addPart(
                try WebFixture.jpeg(frame: UInt64(index + 1)), id: UUID(), of: picture, index: index, number: number, width: 320,
                height: 240, createdAt: Date(timeIntervalSinceNow: Double(index) * 0.2))
        }
        let frames = try parts.map {
            try JPEGDecoder().decode(Data(contentsOf: fixture.library.directory.appendingPathComponent($0.file)), format: .bgrx)
        }
        let gif = AnimatedGIF.encode(frames, delay: 20)
        let (photo, _) = try fixture.library.add(
            gif, thumbnail: try JPEGThumbnailer().thumbnail(of: gif), id: picture, number: number, caption: Caption(sanitizing: "Zoë & Max")!,
            createdAt: Date(), kind: .animation, parts: parts)
        #expect(photo.file.hasSuffix(".gif") && photo.width == 320)
        try await fixture.server().test { client in
            let path = "/photos/\(picture.lowercased)"
            let response = try await client.execute(uri: path + ".gif?download=1", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "image/gif")
            #expect(response.headers[.contentDisposition]?.contains(".gif") == true)
            let copy = Data(response.body.readableBytesView)
            #expect(try GIFFile(copy).frameCount == 3)
            #expect(String(decoding: copy, as: UTF8.self).contains("Zoë &amp; Max"), "the XMP packet names it")
            #expect(try await client.execute(uri: path + ".jpg", method: .get).status == .notFound)

            let page = String(buffer: try await client.execute(uri: path, method: .get).body)
            #expect(page.contains("src=\"\(path).gif\""))
            for number in 1...3 { #expect(page.contains("href=\"\(path)/shots/\(number).jpg\""), "\(number)") }
            #expect(page.contains(">Photo 2 of 3</a>"))
            let shot = try await client.execute(uri: path + "/shots/2.jpg", method: .get)
            #expect(shot.status == .ok && shot.headers[.contentType] == "image/jpeg")
            #expect(shot.headers[.contentDisposition]?.contains("shot 2 of 3.jpg") == true, "\(shot.headers)")
            let original = try Data(contentsOf: fixture.library.directory.appendingPathComponent(parts[1].file))
            #expect(try JPEGSegments(Data(shot.body.readableBytesView)).imageData == JPEGSegments(original).imageData)
            #expect(try await client.execute(uri: path + "/shots/4.jpg", method: .get).status == .notFound)
            // The documented path takes any digits: a shot this picture has not is 404, words 400.
            for number in ["0", "99999999999999999999"] {
                #expect(try await client.execute(uri: path + "/shots/\(number).jpg", method: .get).status == .notFound, "\(number)")
            }
            #expect(try await client.execute(uri: path + "/shots/two.jpg", method: .get).status == .badRequest)
        }
    }

    @Test("Range requests: one range is 206, past the end is 416, several ranges are the whole file")
    func ranges() async throws {
        let fixture = try WebFixture()
        let photo = try fixture.add()
        let file = try Self.outgoing(photo, in: fixture)
        let size = file.count
        let uri = "/photos/\(photo.id.lowercased).jpg"
        try await fixture.server().test { client in
            let cases: [(String, ClosedRange<Int>)] = [
                ("bytes=0-99", 0...99), ("bytes=100-", 100...(size - 1)), ("bytes=-50", (size - 50)...(size - 1)),
                ("bytes=10-999999999", 10...(size - 1)), ("bytes=-999999999", 0...(size - 1)),
            ]
            for (header, range) in cases {
                let response = try await client.execute(uri: uri, method: .get, headers: [.range: header])
                #expect(response.status == .partialContent, "\(header)")
                #expect(response.headers[.contentRange] == "bytes \(range.lowerBound)-\(range.upperBound)/\(size)", "\(header)")
                #expect(response.headers[.contentLength] == String(range.count), "\(header)")
                #expect(Data(response.body.readableBytesView) == file[range], "\(header)")
            }
            for header in ["bytes=\(size)-", "bytes=\(size + 10)-\(size + 20)", "bytes=-0"] {
                let response = try await client.execute(uri: uri, method: .get, headers: [.range: header])
                #expect(response.status == .rangeNotSatisfiable, "\(header)")
                #expect(response.headers[.contentRange] == "bytes */\(size)", "\(header)")
                #expect(response.body.readableBytes == 0)
            }
            for header in ["bytes=0-1,5-6", "bytes=abc", "items=0-5", "bytes=9-3"] {
                let response = try await client.execute(uri: uri, method: .get, headers: [.range: header])
                #expect(response.status == .ok, "\(header)")
                #expect(Data(response.body.readableBytesView) == file, "\(header)")
            }
            let stale = try await client.execute(uri: uri, method: .get, headers: [.range: "bytes=0-9", .ifRange: "\"older\""])
            #expect(stale.status == .ok, "a range of another version is the whole current file")
        }
    }

    @Test("?download=1 names the file after the caption, in ASCII and in UTF-8")
    func download() async throws {
        let fixture = try WebFixture()
        let photo = try fixture.add(caption: "Zoë & Bob: \"party\"")
        try await fixture.server().test { client in
            let response = try await client.execute(uri: "/photos/\(photo.id.lowercased).jpg?download=1", method: .get)
            #expect(response.status == .ok)
            #expect(
                response.headers[.contentDisposition]
                    == "attachment; filename=\"Zo_ & Bob_ _party_.jpg\"; filename*=UTF-8''Zo%C3%AB%20&%20Bob_%20_party_.jpg")
        }
    }

    @Test("HEAD answers every GET route with its headers and no body")
    func head() async throws {
        let fixture = try WebFixture()
        let photo = try fixture.add()
        let id = photo.id.lowercased
        try await fixture.server().test { client in
            for uri in [
                "/", "/photos/\(id)", "/thumbnails/\(id).jpg", "/photos/\(id).jpg", "/api/photos", "/api/photos/\(id)",
                "/api/status", "/healthz", "/metrics", "/preview.mjpg", "/screen.mjpg", "/api/events",
            ] {
                let head = try await client.execute(uri: uri, method: .head)
                #expect(head.status == .ok, "\(uri)")
                #expect(head.body.readableBytes == 0, "\(uri)")
                #expect(head.headers[.contentType] != nil, "\(uri)")
                if uri.hasSuffix(".jpg") {
                    let get = try await client.execute(uri: uri, method: .get)
                    #expect(head.headers[.contentLength] == String(get.body.readableBytes), "\(uri)")
                    #expect(head.headers[.eTag] == get.headers[.eTag], "\(uri)")
                }
            }
        }
    }

    @Test("Malformed ids are 400, unknown and hidden photos 404, and no path leaves the library")
    func badRequests() async throws {
        let fixture = try WebFixture()
        let hidden = try fixture.add()
        try fixture.library.setHidden(true, of: hidden.id)
        try await fixture.server().test { client in
            let expectations: [(String, HTTPResponse.Status)] = [
                ("/thumbnails/\(UUID().lowercased).jpg", .notFound),
                ("/photos/\(UUID().lowercased).jpg", .notFound),
                ("/thumbnails/\(hidden.id.lowercased).jpg", .notFound),
                ("/photos/\(hidden.id.lowercased).jpg", .notFound),
                ("/thumbnails/not-an-id.jpg", .badRequest),
                ("/photos/..%2F..%2Fetc%2Fpasswd", .badRequest),
                ("/photos/..%2F..%2Fetc%2Fpasswd.jpg", .badRequest),
                ("/thumbnails/..%2F..%2Fphotobooth.sqlite.jpg", .badRequest),
                ("/thumbnails/../../x", .notFound),
                ("/photos/../photobooth.sqlite", .notFound),
                ("/photos/%00.jpg", .badRequest),
            ]
            for (uri, status) in expectations {
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.status == status, "\(uri)")
                #expect(response.headers[.contentType] == "text/html; charset=utf-8", "\(uri)")
                let body = String(buffer: response.body)
                #expect(!body.contains("root:") && !body.contains("SQLite format"), "\(uri)")
            }
        }
    }

    @Test("A photo whose original is gone is a 404 that says so")
    func missingOriginal() async throws {
        let fixture = try WebFixture()
        let photo = try fixture.add()
        try FileManager.default.removeItem(at: fixture.library.url(of: photo))
        try await fixture.server().test { client in
            let response = try await client.execute(uri: "/photos/\(photo.id.lowercased).jpg", method: .get)
            #expect(response.status == .notFound)
            #expect(String(buffer: response.body).contains("The original of this photo is missing"))
        }
    }
}

@Suite("Range header")
struct ByteRangeTests {
    @Test("Single ranges in all three forms, clamped to the file")
    func single() {
        #expect(ByteRange(header: "bytes=0-0", size: 10) == .part(0...0))
        #expect(ByteRange(header: "bytes=2-5", size: 10) == .part(2...5))
        #expect(ByteRange(header: "bytes=2-50", size: 10) == .part(2...9))
        #expect(ByteRange(header: "bytes=7-", size: 10) == .part(7...9))
        #expect(ByteRange(header: "bytes=-3", size: 10) == .part(7...9))
        #expect(ByteRange(header: "bytes=-30", size: 10) == .part(0...9))
        #expect(ByteRange(header: "BYTES=1-2", size: 10) == .part(1...2))
    }

    @Test("Past the end is unsatisfiable; nonsense is ignored")
    func others() {
        #expect(ByteRange(header: nil, size: 10) == .whole)
        #expect(ByteRange(header: "bytes=10-", size: 10) == .unsatisfiable)
        #expect(ByteRange(header: "bytes=10-20", size: 10) == .unsatisfiable)
        #expect(ByteRange(header: "bytes=-0", size: 10) == .unsatisfiable)
        #expect(ByteRange(header: "bytes=0-", size: 0) == .unsatisfiable)
        #expect(ByteRange(header: "bytes=99999999999999999999999-", size: 10) == .unsatisfiable)
        #expect(ByteRange(header: "bytes=5-2", size: 10) == .whole)
        #expect(ByteRange(header: "bytes=0-1,3-4", size: 10) == .whole)
        #expect(ByteRange(header: "bytes=+1-2", size: 10) == .whole)
        #expect(ByteRange(header: "bytes=-", size: 10) == .whole)
        #expect(ByteRange(header: "pages=1-2", size: 10) == .whole)
    }
}
