import BoothCore
import BoothImaging
import BoothStore
import Foundation
import HTTPTypes
import NIOCore
import Testing

@testable import BoothWeb

@Suite("A guest deletes their photo")
struct GuestDeletionTests {
    static let secret = Data((0..<32).map { UInt8($0 * 7 % 256) })
    static let keys = DeletionKeys(secret: secret, validity: .seconds(24 * 3600))
    static let settings = WebSettings(boothName: "Test Booth", adminToken: "secret", deletionKeys: keys)
    static let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]

    /// POSTs the deletion form of `id` with `key`.
    static func delete(_ id: UUID, key: String, with client: GalleryClient) async throws -> GalleryResponse {
        try await client.execute(
            uri: "/photos/\(id.lowercased)/delete", method: .post, headers: form,
            body: ByteBuffer(string: "key=\(PhotoListing.encoded(key))"))
    }

    @Test(
        "A key is the photo's, valid for a day from when it was taken, says nothing of another photo's, and can be checked against its published digest without the secret"
    )
    func keys() throws {
        let taken = Date(timeIntervalSince1970: 1_800_000_000)
        let photo = Photo(
            id: UUID(), number: 1, caption: .placeholder(number: 1), createdAt: taken, width: 320, height: 240, byteCount: 1, file: "x.jpg")
        let until = taken.addingTimeInterval(24 * 3600)
        let key = Self.keys.key(for: photo.id)
        #expect(key.count == 22 && key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        #expect(Self.keys.key(for: photo.id) == key, "the same whenever it is made")
        #expect(Self.keys.check(key, for: photo, now: taken) == .valid(until: until))
        #expect(Self.keys.check(key, for: photo, now: until.addingTimeInterval(-1)) == .valid(until: until))
        #expect(Self.keys.check(key, for: photo, now: until) == .expired(at: until))
        var other = photo
        other.id = UUID()
        #expect(Self.keys.check(key, for: other, now: taken) == .wrong)
        let otherSecret = DeletionKeys(secret: Data(repeating: 1, count: 32))
        #expect(otherSecret.check(key, for: photo, now: taken) == .wrong, "a new secret voids the keys given")
        for bad in ["", "x", String(key.dropLast()), key + "A", "!!!!", String(repeating: "A", count: 200)] {
            #expect(Self.keys.check(bad, for: photo, now: taken) == .wrong, "\(bad)")
        }
        // What a record publishes tells the key from any other, and does not make it.
        let published = Self.keys.published(for: photo)
        #expect(published.until == until && published.keySHA256.count == 64 && !published.keySHA256.contains(key))
        #expect(DeletionKeys.check(key, digest: published.keySHA256, until: until, now: taken) == .valid(until: until))
        #expect(DeletionKeys.check(key, digest: published.keySHA256, until: until, now: until) == .expired(at: until))
        #expect(DeletionKeys.check(Self.keys.key(for: other.id), digest: published.keySHA256, until: until, now: taken) == .wrong)
        #expect(DeletionKeys.check(published.keySHA256, digest: published.keySHA256, until: until, now: taken) == .wrong)
    }

    @Test("The library's secret is made once, 32 bytes readable by its owner only, and kept")
    func secretFile() throws {
        let fixture = try WebFixture()
        let secret = try fixture.library.guestLinkSecret()
        #expect(secret.count == 32)
        #expect(try fixture.library.guestLinkSecret() == secret)
        let path = fixture.directory.appendingPathComponent(PhotoLibrary.guestLinkSecretName).path
        let permissions = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        try Data(count: 5).write(to: URL(fileURLWithPath: path))
        #expect(throws: LibraryError.fileFailure) { try fixture.library.guestLinkSecret() }
    }

    @Test("With a valid key the photo page offers deletion, asks to confirm, and deletes into recycle/")
    func valid() async throws {
        let fixture = try WebFixture()
        let kept = try fixture.add(caption: "Kept", secondsAgo: 5)
        let photo = try fixture.add(caption: "Mine")
        let id = photo.id.lowercased
        let key = Self.keys.key(for: photo.id)
        try await fixture.server(Self.settings).test { client in
            let page = String(buffer: try await client.execute(uri: "/photos/\(id)?key=\(key)", method: .get).body)
            #expect(page.contains("<a class=\"delete\" href=\"/photos/\(id)/delete?key=\(key)\">Delete this photo</a>"))
            let plain = String(buffer: try await client.execute(uri: "/photos/\(id)", method: .get).body)
            #expect(!plain.contains("class=\"delete\""), "without the key, no offer")

            let question = try await client.execute(uri: "/photos/\(id)/delete?key=\(key)", method: .get)
            #expect(question.status == .ok)
            let form = String(buffer: question.body)
            #expect(form.contains("Delete \u{201C}Mine\u{201D}?"))
            #expect(form.contains("<form method=\"post\" action=\"/photos/\(id)/delete\"><input type=\"hidden\" name=\"key\" value=\"\(key)\">"))
            #expect(try fixture.library.gallery.photo(id: photo.id) != nil, "asking deletes nothing")

            let deleted = try await Self.delete(photo.id, key: key, with: client)
            #expect(deleted.status == .ok)
            #expect(String(buffer: deleted.body).contains("Your photo has been deleted."))
            #expect(FileManager.default.fileExists(atPath: fixture.directory.appendingPathComponent("recycle/\(id).jpg").path))
            #expect(try await client.execute(uri: "/photos/\(id)", method: .get).status == .notFound)
        }
        #expect(try fixture.library.gallery.photos().map(\.id) == [kept.id])
    }

    @Test("Replayed after the deletion, the key gets 410 and a page that says the photo is gone")
    func replayed() async throws {
        let fixture = try WebFixture()
        let photo = try fixture.add(caption: "Mine")
        let key = Self.keys.key(for: photo.id)
        try await fixture.server(Self.settings).test { client in
            #expect(try await Self.delete(photo.id, key: key, with: client).status == .ok)
            let again = try await Self.delete(photo.id, key: key, with: client)
            #expect(again.status == .gone)
            #expect(String(buffer: again.body).contains("This photo has already been deleted."))
            #expect(try await client.execute(uri: "/photos/\(photo.id.lowercased)/delete?key=\(key)", method: .get).status == .gone)
        }
    }

    @Test("An expired key, another photo's key, no key or a made-up one delete nothing: 403 and why")
    func refused() async throws {
        let fixture = try WebFixture()
        let photo = try fixture.add(caption: "Mine")
        let other = try fixture.add(caption: "Theirs")
        let old = try fixture.add(caption: "Yesterday's", secondsAgo: 25 * 3600)
        let cases: [(UUID, String, String)] = [
            (old.id, Self.keys.key(for: old.id), "that time has passed"), (photo.id, Self.keys.key(for: other.id), "cannot delete this photo"),
            (photo.id, "", "cannot delete this photo"), (photo.id, "AAAAAAAAAAAAAAAAAAAAAA", "cannot delete this photo"),
        ]
        try await fixture.server(Self.settings).test { client in
            for (id, key, reason) in cases {
                let posted = try await Self.delete(id, key: key, with: client)
                #expect(posted.status == .forbidden, "\(key)")
                #expect(String(buffer: posted.body).contains(reason), "\(key)")
                let asked = try await client.execute(uri: "/photos/\(id.lowercased)/delete?key=\(key)", method: .get)
                #expect(asked.status == .forbidden, "\(key)")
            }
            let page = String(
                buffer: try await client.execute(uri: "/photos/\(old.id.lowercased)?key=\(Self.keys.key(for: old.id))", method: .get).body)
            #expect(page.contains("that time has passed") && !page.contains("class=\"delete\""), "the photo page says why it offers nothing")
        }
        #expect(try fixture.library.gallery.count() == 3)
        // A booth whose links do not delete refuses every key.
        try await fixture.server(WebSettings(boothName: "Test Booth")).test { client in
            let response = try await Self.delete(photo.id, key: Self.keys.key(for: photo.id), with: client)
            #expect(response.status == .forbidden)
        }
        #expect(try fixture.library.gallery.count() == 3)
    }

    @Test("A deletion form longer than a key is 413, with the photo kept, even with the right key after the noise")
    func oversizedForm() async throws {
        let fixture = try WebFixture()
        let photo = try fixture.add(caption: "Mine")
        let key = Self.keys.key(for: photo.id)
        try await fixture.server(Self.settings).test { client in
            let response = try await client.execute(
                uri: "/photos/\(photo.id.lowercased)/delete", method: .post, headers: Self.form,
                body: ByteBuffer(string: "noise=\(String(repeating: "x", count: 2000))&key=\(key)"))
            #expect(response.status == .contentTooLarge)
        }
        #expect(try fixture.library.gallery.count() == 1)
    }

    @Test("A photo imported from another booth of the event cannot be deleted here")
    func imported() async throws {
        let fixture = try WebFixture()
        let jpeg = try WebFixture.jpeg()
        var record = PhotoSidecar(
            id: UUID(), number: 3, caption: Caption(sanitizing: "From afar")!, createdAt: Date(), booth: "Other Booth", hidden: false)
        record.width = 320
        record.height = 240
        let photo = try fixture.library.importPhoto(
            jpeg, thumbnail: try JPEGThumbnailer().thumbnail(of: jpeg), record: record, origin: "other-booth")
        let key = Self.keys.key(for: photo.id)
        try await fixture.server(Self.settings).test { client in
            let page = String(buffer: try await client.execute(uri: "/photos/\(photo.id.lowercased)?key=\(key)", method: .get).body)
            #expect(page.contains("only that booth can delete it") && !page.contains("class=\"delete\""))
            let posted = try await Self.delete(photo.id, key: key, with: client)
            #expect(posted.status == .forbidden)
            #expect(String(buffer: posted.body).contains("only that booth can delete it"))
        }
        #expect(try fixture.library.gallery.photo(id: photo.id) != nil)
    }

    @Test("A photo the operator hid is refused like one deleted: its key gets 410 and deletes nothing, another key 403")
    func hidden() async throws {
        let fixture = try WebFixture()
        let photo = try fixture.add(caption: "Hidden")
        try fixture.library.setHidden(true, of: photo.id)
        try await fixture.server(Self.settings).test { client in
            let posted = try await Self.delete(photo.id, key: Self.keys.key(for: photo.id), with: client)
            #expect(posted.status == .gone)
            #expect(String(buffer: posted.body).contains("This photo has already been deleted."))
            #expect(
                try await client.execute(uri: "/photos/\(photo.id.lowercased)/delete?key=\(Self.keys.key(for: photo.id))", method: .get).status
                    == .gone)
            #expect(try await Self.delete(photo.id, key: "AAAAAAAAAAAAAAAAAAAAAA", with: client).status == .forbidden)
        }
        #expect(try fixture.library.gallery.photo(id: photo.id, includingHidden: true) != nil, "nothing deleted")
    }

    @Test(
        "On a gallery without a booth (serve), another booth's photo is deleted with its key, checked against the digest its booth published: hidden at once, asked of its booth, 410 after"
    )
    func throughGallery() async throws {
        let fixture = try WebFixture()
        let boothKeys = DeletionKeys(secret: Data(repeating: 9, count: 32))
        func imported(_ caption: String, takenAgo: TimeInterval) throws -> (Photo, key: String) {
            let jpeg = try WebFixture.jpeg()
            var record = PhotoSidecar(
                id: UUID(), number: 3, caption: Caption(sanitizing: caption)!, createdAt: Date(timeIntervalSinceNow: -takenAgo),
                booth: "Booth East", hidden: false)
            record.width = 320
            record.height = 240
            let taken = Photo(
                id: record.id, number: 3, caption: record.caption, createdAt: record.createdAt, width: 320, height: 240, byteCount: 1,
                file: "")
            let published = boothKeys.published(for: taken)
            record.deletionKeySHA256 = published.keySHA256
            record.deletableUntil = published.until
            let photo = try fixture.library.importPhoto(
                jpeg, thumbnail: try JPEGThumbnailer().thumbnail(of: jpeg), record: record, origin: "booth-east")
            return (photo, boothKeys.key(for: photo.id))
        }
        let (photo, key) = try imported("From the booth", takenAgo: 60)
        let (old, oldKey) = try imported("Yesterday's", takenAgo: 25 * 3600)
        let serve = WebSettings(boothName: "Anna & Ben")
        try await fixture.server(serve).test { client in
            let id = photo.id.lowercased
            let page = String(buffer: try await client.execute(uri: "/photos/\(id)?key=\(key)", method: .get).body)
            #expect(page.contains("<a class=\"delete\" href=\"/photos/\(id)/delete?key=\(key)\">"))
            #expect(try await Self.delete(photo.id, key: boothKeys.key(for: old.id), with: client).status == .forbidden)
            #expect(try await Self.delete(old.id, key: oldKey, with: client).status == .forbidden, "expired")
            let deleted = try await Self.delete(photo.id, key: key, with: client)
            #expect(deleted.status == .ok)
            #expect(String(buffer: deleted.body).contains("Your photo has been deleted."))
            #expect(try await client.execute(uri: "/photos/\(id)", method: .get).status == .notFound, "hidden at once")
            #expect(try await Self.delete(photo.id, key: key, with: client).status == .gone)
        }
        let request = try #require(try fixture.library.outbox.deletionRequest(of: photo.id))
        #expect(request.key == key && !request.settled)
        #expect(try fixture.library.outbox.deletionRequestsToUpload().map(\.id) == [photo.id])
        #expect(try fixture.library.gallery.photo(id: photo.id, includingHidden: true) != nil, "its booth deletes it, not the gallery")
        #expect(try fixture.library.gallery.photo(id: old.id) != nil)
    }
}

@Suite("A guest prints their photo from its page")
struct GuestPrintTests {
    static func settings(perPicture: Int? = 2, total: Int? = 3) -> WebSettings {
        var settings = WebSettings(boothName: "Test Booth", adminToken: "secret")
        settings.printCopies = 1
        settings.guestPrinting = PrintLimits(perPicture: perPicture, total: total)
        return settings
    }

    static func print(_ id: UUID, with client: GalleryClient, language: String = "en") async throws -> GalleryResponse {
        try await client.execute(uri: GalleryPaths.print(of: id), method: .post, headers: [.acceptLanguage: language])
    }

    @Test("The photo page offers it, the question says what is left, each print is queued until the photo's limit, then a page says why not")
    func photoLimit() async throws {
        let fixture = try WebFixture()
        let photo = try fixture.add(caption: "Ada")
        try await fixture.server(Self.settings()).test { client in
            let page = String(buffer: try await client.execute(uri: "/photos/\(photo.id.lowercased)", method: .get).body)
            #expect(page.contains("href=\"/photos/\(photo.id.lowercased)/print\""))
            let question = try await client.execute(uri: GalleryPaths.print(of: photo.id), method: .get)
            #expect(question.status == .ok)
            let asked = String(buffer: question.body)
            #expect(asked.contains("Prints left of this photo: 2.") && asked.contains("method=\"post\"") && !asked.contains("name=\"key\""))
            let first = try await Self.print(photo.id, with: client)
            #expect(first.status == .seeOther && first.headers[.location] == "/photos/\(photo.id.lowercased)/print?printed=1")
            let printed = try await client.execute(uri: first.headers[.location] ?? "", method: .get)
            #expect(printed.status == .ok && String(buffer: printed.body).contains("collect it at the booth"))
            let again = try await client.execute(uri: GalleryPaths.print(of: photo.id), method: .get)
            #expect(String(buffer: again.body).contains("left of this photo: 1."))
            #expect(try await Self.print(photo.id, with: client).status == .seeOther)
            let refused = try await Self.print(photo.id, with: client, language: "fr")
            #expect(refused.status == .conflict)
            #expect(String(buffer: refused.body).contains("la borne en permet 2 par photo"))
            #expect(try await client.execute(uri: GalleryPaths.print(of: photo.id), method: .get).status == .conflict)
            #expect(try await Self.print(UUID(), with: client).status == .notFound)
        }
        let queued = try fixture.library.prints.requests(in: [.pending])
        #expect(queued.count == 2 && queued.allSatisfy { $0.reason == .guest && $0.photo == photo.id })
    }

    @Test("The event's limit holds across photos; a printer that holds prints is said with the print; off, there is no offer and no print")
    func eventLimitAndFault() async throws {
        let fixture = try WebFixture()
        let photos = try fixture.add(count: 3)
        fixture.printer.report = PrinterReport(
            state: "stopped", faults: ["media-empty"], message: "Out of paper", fix: nil, jobs: [:], pagesPrinted: 0)
        try await fixture.server(Self.settings(perPicture: nil, total: 2)).test { client in
            #expect(try await Self.print(photos[0].id, with: client).status == .seeOther)
            let printed = try await client.execute(uri: GalleryPaths.print(of: photos[0].id) + "?printed=1", method: .get)
            #expect(String(buffer: printed.body).contains("The printer is out of paper. Your photo will print as soon as"))
            // Another site's page cannot spend the event's prints.
            let elsewhere = try await client.execute(
                uri: GalleryPaths.print(of: photos[1].id), method: .post, headers: [.origin: "https://elsewhere.example"])
            #expect(elsewhere.status == .forbidden)
            let crossSite = try await client.execute(
                uri: GalleryPaths.print(of: photos[1].id), method: .post, headers: [WebContext.secFetchSite: "cross-site", .origin: "null"])
            #expect(crossSite.status == .forbidden)
            // A browser's form from the page itself (a page without referrer sends Origin null).
            let ownPage = try await client.execute(
                uri: GalleryPaths.print(of: photos[1].id), method: .post, headers: [WebContext.secFetchSite: "same-origin", .origin: "null"])
            #expect(ownPage.status == .seeOther)
            let refused = try await Self.print(photos[2].id, with: client)
            #expect(refused.status == .conflict && String(buffer: refused.body).contains("all the prints it may make at this event"))
        }
        try await fixture.server(WebSettings(adminToken: "secret")).test { client in
            let page = String(buffer: try await client.execute(uri: "/photos/\(photos[0].id.lowercased)", method: .get).body)
            #expect(!page.contains("/print\""))
            #expect(try await Self.print(photos[2].id, with: client).status == .notFound)
        }
        #expect(try fixture.library.prints.requests(in: [.pending]).count == 2)
    }

    @Test("A photo the operator hid cannot be printed by a guest: 404, and no print")
    func hiddenPhoto() async throws {
        let fixture = try WebFixture()
        let photo = try fixture.add()
        try fixture.library.setHidden(true, of: photo.id)
        let statuses = try await fixture.server(Self.settings()).test { client in
            [
                try await client.execute(uri: GalleryPaths.print(of: photo.id), method: .get).status,
                try await Self.print(photo.id, with: client).status,
            ]
        }
        #expect(statuses == [.notFound, .notFound])
        #expect(throws: LibraryError.self, "the queue itself refuses it") {
            try fixture.library.prints.guestRequest(photo.id, copies: 1, under: PrintLimits())
        }
        #expect(try fixture.library.prints.requests(in: [.pending]).isEmpty)
    }
}
