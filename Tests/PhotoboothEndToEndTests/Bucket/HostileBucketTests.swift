import BoothCore
import BoothImaging
import BoothStore
import Foundation
import Logging
import StoreFixture
import Synchronization
import Testing

@testable import BoothSync

/// What a rogue or broken booth of the event can put in the bucket, written straight to the
/// store as such a booth would.
struct RogueBooth {
    let server: any StoreServer
    let event: String
    /// Its folder, as a key spells it (a real one, or one no booth would make).
    let folder: String

    var layout: BucketLayout { BucketLayout(event: event, booth: nil) }

    func key(_ kind: BucketLayout.Kind, of id: UUID) -> String {
        "\(layout.event)/\(folder)/\(kind.rawValue)/\(id.lowercased)\(kind == .record ? ".xmp" : ".jpg")"
    }

    /// Puts `record` as photo `id`'s record, and `original`, when given, as its original.
    @discardableResult
    func plant(_ record: PhotoSidecar, original: Data? = nil) async throws -> String {
        if let original { try await server.store().put(key(.photo, of: record.id), original, contentType: "image/jpeg") }
        let key = key(.record, of: record.id)
        try await server.store().put(key, record.xmp, contentType: "application/rdf+xml")
        return key
    }

    /// A record of a new photo as a booth writes it, for `original`: this booth's name, the
    /// event, the original's SHA-256 and size.
    func record(of original: Data, id: UUID = UUID(), caption: String = "Rogue", createdAt: Date = Date()) throws -> PhotoSidecar {
        var record = PhotoSidecar(
            id: id, number: 7, caption: Caption(sanitizing: caption)!, createdAt: createdAt, booth: folder, hidden: false)
        record.event = event
        record.sha256 = SignatureV4.hash(original)
        let thumbnail = try JPEGThumbnailer().thumbnail(of: original)
        record.width = thumbnail.sourceWidth
        record.height = thumbnail.sourceHeight
        return record
    }

    /// A small JPEG whose frame header says `width` x `height`: a decoder reads that size before
    /// anything else.
    static func jpeg(claiming size: (width: Int, height: Int)? = nil, frame: UInt64 = 1) throws -> Data {
        let jpeg = try JPEGEncoder().encode(TestPattern(width: 64, height: 48).render(frame: frame, at: Date()), quality: 80)
        guard let size else { return jpeg }
        var bytes = [UInt8](jpeg)
        var start: Int?
        for index in 0..<(bytes.count - 1) where bytes[index] == 0xFF && bytes[index + 1] == 0xC0 {
            start = index
            break
        }
        let frameHeader = try #require(start)
        bytes[frameHeader + 5] = UInt8(size.height >> 8)
        bytes[frameHeader + 6] = UInt8(size.height & 0xFF)
        bytes[frameHeader + 7] = UInt8(size.width >> 8)
        bytes[frameHeader + 8] = UInt8(size.width & 0xFF)
        return Data(bytes)
    }
}

@Suite(
    "A rogue or broken booth of the event changes nothing it does not own, and one bad object never stops or floods the sync (SeaweedFS)", .fullLane,
    .enabled(if: SeaweedFS.available, Comment(rawValue: SeaweedFS.missing)))
struct HostileBucketTests {
    @Test(
        "A record under another booth's folder does not delete, rename or hide a photo, on a booth or a gallery; it is logged once; removing it and restarting changes nothing; the owner's changes still apply"
    )
    func forgedRecords() async throws {
        let server = try await SeaweedFS()
        let event = "Forged \(UUID().uuidString.prefix(6))"
        let east = try TestBooth("East", event: event, server: server)
        let westLog = RecordedLog()
        let west = try TestBooth("West", event: event, server: server, logger: westLog.logger)
        let galleryLog = RecordedLog()
        let gallery = try TestBooth("Gallery", event: event, server: server, serving: true, logger: galleryLog.logger)
        let photo = try east.take("Anna")
        let other = try east.take("Ben")
        let westsOwn = try west.take("Zoe")
        try await east.sync.catchUp()
        try await west.sync.catchUp()
        try await gallery.sync.catchUp()
        try await east.sync.catchUp()
        let before = try gallery.gallery()
        #expect(try before.count == 3 && west.gallery() == before)

        let rogue = RogueBooth(server: server, event: event, folder: "booth-b")
        // A tombstone, a new name and a hidden flag for East's photo, and a tombstone for West's
        // own, each written as a booth writes its own records.
        var renamed = PhotoSidecar(
            id: photo.id, number: 1, caption: Caption(sanitizing: "PWNED by B")!, createdAt: photo.createdAt, booth: "Booth B",
            hidden: false)
        renamed.event = event
        var hidden = PhotoSidecar(
            id: other.id, number: 2, caption: other.caption, createdAt: other.createdAt, booth: "Booth B", hidden: true)
        hidden.event = event
        let forged = [
            try await rogue.plant(renamed),
            try await rogue.plant(hidden),
            try await rogue.plant(PhotoSidecar.tombstone(id: westsOwn.id, number: 3, createdAt: Date(), booth: "Booth B", event: event)),
        ]
        for _ in 0..<2 {
            try await west.sync.catchUp()
            try await gallery.sync.catchUp()
        }
        #expect(try gallery.gallery() == before && west.gallery() == before)
        #expect(try gallery.library.gallery.photo(id: photo.id)?.caption.text == "Anna")
        for (key, log) in [(forged[0], galleryLog), (forged[1], galleryLog), (forged[0], westLog), (forged[2], westLog)] {
            let said = log.messages(atLeast: .warning).filter { $0.contains(key) }
            #expect(said.count == 1, "\(key): \(said)")
        }
        #expect(westLog.messages().contains { $0.contains(forged[2]) && $0.contains("this booth's own") })

        // A copy of East's photo, its original too, under B's folder (which lists first): a
        // gallery that had neither takes East's, which published it first (its thumbnail, put
        // once with the photo, is the oldest; the store's dates are to the second, so a copy of
        // the thumbnail made within the second would tie, and the folders' names decide).
        let eastLayout = BucketLayout(event: event, booth: "East")
        let copy = try #require(try await server.store().get(eastLayout.key(.photo, of: photo.id)))
        try await server.store().put(rogue.key(.photo, of: photo.id), copy, contentType: "image/jpeg")
        var copied = renamed
        copied.sha256 = SignatureV4.hash(copy)
        try await rogue.plant(copied)
        let freshLog = RecordedLog()
        let fresh = try TestBooth("Fresh", event: event, server: server, serving: true, logger: freshLog.logger)
        try await fresh.sync.catchUp()
        try await fresh.sync.catchUp()
        #expect(try fresh.gallery() == before)
        #expect(try fresh.library.gallery.photo(id: photo.id)?.origin == "east")
        let claimed = freshLog.messages(atLeast: .warning).filter { $0.contains(forged[0]) }
        #expect(claimed.count == 1 && claimed.first?.contains("published first by \"east\"") == true, "\(claimed)")

        // Then a tombstone in the same folder: still nothing, and still said once per version.
        let tombstoneKey = try await rogue.plant(
            PhotoSidecar.tombstone(id: photo.id, number: 1, createdAt: Date(), booth: "Booth B", event: event))
        try await gallery.sync.catchUp()
        try await gallery.sync.catchUp()
        #expect(try gallery.gallery() == before)
        #expect(galleryLog.messages(atLeast: .warning).filter { $0.contains(tombstoneKey) }.count == 2)

        // The forged objects go, the gallery restarts: nothing changes.
        for key in forged + [rogue.key(.photo, of: photo.id)] { try await server.store().delete(key) }
        gallery.library.close()
        let restarted = try TestBooth(reopening: gallery, event: event, server: server, serving: true)
        try await restarted.sync.catchUp()
        #expect(try restarted.gallery() == before)

        // What the owner changes still reaches every reader.
        try east.library.setCaption(Caption(sanitizing: "Carla")!, of: photo.id)
        try east.library.setHidden(true, of: other.id)
        try await east.sync.catchUp()
        try await restarted.sync.catchUp()
        try await west.sync.catchUp()
        #expect(try restarted.library.gallery.photo(id: photo.id)?.caption.text == "Carla")
        #expect(
            try restarted.library.gallery.photo(id: other.id) == nil && restarted.library.gallery.photo(id: other.id, includingHidden: true) != nil)
        #expect(try west.library.gallery.photo(id: photo.id)?.caption.text == "Carla")
        try east.library.recycle(photo.id)
        try await east.sync.catchUp()
        try await restarted.sync.catchUp()
        #expect(try restarted.library.gallery.photo(id: photo.id, includingHidden: true) == nil)
    }

    @Test(
        "Oversized, mismatched, absurd, misdated, misattributed and foreign objects are refused, fetched once, and never hold up a good photo; every byte is counted"
    )
    func hostileObjects() async throws {
        let server = try await SeaweedFS()
        let event = "Hostile \(UUID().uuidString.prefix(6))"
        let log = RecordedLog()
        let gallery = try TestBooth("Gallery", event: event, server: server, serving: true, logger: log.logger)
        let rogue = RogueBooth(server: server, event: event, folder: "booth-b")
        let good = try RogueBooth.jpeg(frame: 1)

        var refused: [String: String] = [:]
        // A record too large to be one: refused from the listing's size, never fetched.
        let bloated = try rogue.record(of: good)
        let bloatedKey = rogue.key(.record, of: bloated.id)
        try await server.store().put(bloatedKey, Data(repeating: 0x20, count: 200 << 10) + bloated.xmp, contentType: "application/rdf+xml")
        try await server.store().put(rogue.key(.photo, of: bloated.id), good, contentType: "image/jpeg")
        refused[bloatedKey] = "more than a record's"
        // An original that does not match its record.
        let mismatched = try rogue.record(of: good)
        refused[try await rogue.plant(mismatched, original: try RogueBooth.jpeg(frame: 2))] = "does not match the record's SHA-256"
        // A JPEG that says it is 30000x30000 pixels.
        let huge = try RogueBooth.jpeg(claiming: (30000, 30000))
        var hugeRecord = try rogue.record(of: good)
        hugeRecord.sha256 = SignatureV4.hash(huge)
        refused[try await rogue.plant(hugeRecord, original: huge)] = "not a photo the booth can read"
        // A record that says another size than its original's.
        var resized = try rogue.record(of: good)
        resized.width = 6000
        resized.height = 4000
        refused[try await rogue.plant(resized, original: good)] = "says 6000x4000 pixels"
        // Dated 2099, dated 1970, of another event, and naming another booth than its folder's.
        refused[try await rogue.plant(try rogue.record(of: good, createdAt: Date(timeIntervalSince1970: 4_070_908_800)), original: good)] =
            "in the future"
        refused[try await rogue.plant(try rogue.record(of: good, createdAt: Date(timeIntervalSince1970: 0)), original: good)] =
            "a clock that was never set"
        var foreign = try rogue.record(of: good)
        foreign.event = "Another Wedding"
        refused[try await rogue.plant(foreign, original: good)] = "of event \"Another Wedding\""
        var impostor = try rogue.record(of: good)
        impostor.booth = "Booth East"
        refused[try await rogue.plant(impostor, original: good)] = "booth \"Booth East\""
        // A record that is not XMP, under a key whose folder carries a line break: the log
        // escapes the key rather than writing a line of the key's making.
        let forger = RogueBooth(server: server, event: event, folder: "x\nEvent sync: all is well")
        let nonsense = UUID()
        try await server.store().put(forger.key(.photo, of: nonsense), good, contentType: "image/jpeg")
        try await server.store().put(forger.key(.record, of: nonsense), Data("not a record".utf8), contentType: "text/plain")

        // A good photo whose caption is 64 letters each with 200 combining marks, and whose
        // "thumbnail" in the bucket says it is 8000x8000: the caption is cut to its bytes, the
        // thumbnail is made here from the original.
        let zalgo = String(repeating: "a" + String(repeating: "\u{0301}", count: 200), count: 64)
        var welcome = try rogue.record(of: good, caption: "x")
        welcome.caption = try #require(Caption(sanitizing: "x"))
        let zalgoXMP = String(decoding: welcome.xmp, as: UTF8.self).replacingOccurrences(of: ">x<", with: ">\(zalgo)<")
        #expect(zalgoXMP.utf8.count < BucketLayout.recordLimit && zalgoXMP.utf8.count > 50_000)
        try await server.store().put(rogue.key(.photo, of: welcome.id), good, contentType: "image/jpeg")
        try await server.store().put(rogue.key(.thumbnail, of: welcome.id), try RogueBooth.jpeg(claiming: (8000, 8000)), contentType: "image/jpeg")
        try await server.store().put(rogue.key(.record, of: welcome.id), Data(zalgoXMP.utf8), contentType: "application/rdf+xml")

        try await gallery.sync.catchUp()
        let imported = try gallery.library.gallery.photos(includingHidden: true)
        #expect(imported.map(\.id) == [welcome.id])
        let caption = try #require(imported.first?.caption)
        #expect(caption.text.utf8.count <= Caption.maximumBytes && caption.text.unicodeScalars.count <= 512)
        #expect(caption.text.allSatisfy { $0.unicodeScalars.count <= Caption.maximumScalarsPerCharacter })
        let thumbnail = try #require(try gallery.library.gallery.thumbnail(of: welcome.id))
        let thumbnailHeader = try JPEGDecoder().header(of: thumbnail)
        #expect(thumbnailHeader.width <= JPEGThumbnailer.longestSide && thumbnailHeader.height <= JPEGThumbnailer.longestSide)

        let warnings = log.messages(atLeast: .warning)
        for (key, reason) in refused {
            #expect(warnings.filter { $0.contains(key) && $0.contains(reason) }.count == 1, "\(key): \(warnings.filter { $0.contains(key) })")
        }
        #expect(warnings.contains { $0.contains(#"x\nEvent sync: all is well"#) })
        #expect(log.messages().allSatisfy { !$0.contains("\n") }, "no line of the log is made by a key")

        // Every object fetched was counted: the records but the bloated one, the originals of the
        // photos that got that far (mismatched, huge, resized, welcome), and no thumbnail. The
        // second listing fetches nothing again.
        let first = gallery.sync.metrics.snapshot
        #expect(first.objectsImported == 9 + 4, "\(first.objectsImported)")
        #expect(first.bytesImported >= good.count + huge.count + zalgoXMP.utf8.count)
        try await gallery.sync.catchUp()
        let second = gallery.sync.metrics.snapshot
        #expect(second.objectsImported == first.objectsImported, "the second listing fetched \(second.objectsImported - first.objectsImported)")
        #expect(try gallery.library.gallery.photos(includingHidden: true).map(\.id) == [welcome.id])
        #expect(log.messages(atLeast: .warning).count == warnings.count, "nothing is said twice")

        // Once the mismatched original is replaced by the right one, it is fetched and imported.
        try await server.store().put(rogue.key(.photo, of: mismatched.id), good, contentType: "image/jpeg")
        try await gallery.sync.catchUp()
        #expect(try gallery.library.gallery.photo(id: mismatched.id) != nil)
    }

    @Test("A reader whose clock is a day behind takes the store's time: it logs the offset, and a photo taken now is not 'in the future'")
    func readerClockBehind() async throws {
        let server = try await SeaweedFS()
        let event = "Late \(UUID().uuidString.prefix(6))"
        let east = try TestBooth("East", event: event, server: server)
        let log = RecordedLog()
        let clock = CorrectedClock(system: { Date() - 86_400 })
        let west = try TestBooth("West", event: event, server: server, logger: log.logger, clock: clock)
        let photo = try east.take("Now")
        try await east.sync.catchUp()
        try await west.sync.catchUp()
        #expect(try west.library.gallery.photo(id: photo.id) != nil)
        let correction = try #require(clock.correction)
        #expect(abs(correction - 86_400) < 120)
        #expect(abs(clock.now.timeIntervalSinceNow) < 120)
        #expect(west.sync.metrics.snapshot.clockKnown && abs(west.sync.metrics.snapshot.clockCorrection - 86_400) < 120)
        let said = log.messages(atLeast: .warning).filter {
            $0.contains("The booth's clock is") && $0.contains("behind the store's") && $0.contains("timedatectl")
        }
        #expect(said.count == 1, "\(log.messages())")
        try await west.sync.catchUp()
        #expect(log.messages(atLeast: .warning).filter { $0.contains("The booth's clock is") }.count == 1, "logged once")
    }

    @Test("On a gallery, a listing that goes through clears the failure of the one before: sync status is no longer failing")
    func listingClearsError() async throws {
        let server = try await SeaweedFS()
        let event = "Status \(UUID().uuidString.prefix(6))"
        let gallery = try TestBooth("Gallery", event: event, server: server, serving: true)
        await server.stop(gracefully: true)
        await #expect(throws: StoreError.self) { try await gallery.sync.catchUp() }
        #expect(try gallery.library.outbox.state().failure?.message != nil)
        #expect(gallery.sync.metrics.snapshot.lastError != nil)
        try await server.start()
        try await gallery.sync.catchUp()
        #expect(try gallery.library.outbox.state().failure?.message == nil)
        #expect(try gallery.library.outbox.state().lastListing != nil)
        #expect(gallery.sync.metrics.snapshot.lastError == nil)
    }

    @Test(
        "A guest's deletion taken by a gallery: hidden there at once, the request in the gallery's folder, the photo deleted by its booth and gone everywhere; a wrong key deletes nothing"
    )
    func guestDeletionThroughGallery() async throws {
        let server = try await SeaweedFS()
        let event = "Guests \(UUID().uuidString.prefix(6))"
        // A stand-in for the web's keys: the key of a photo is "key-" and its id.
        let keys = GuestDeletions(
            published: { (SignatureV4.hash(Data("key-\($0.id.lowercased)".utf8)), $0.createdAt + 3600) },
            accepts: { key, photo, time in key == "key-\(photo.id.lowercased)" && time < photo.createdAt + 3600 })
        let log = RecordedLog()
        let east = try TestBooth("East", event: event, server: server, logger: log.logger, guestDeletions: keys)
        let gallery = try TestBooth("Gallery", event: event, server: server, serving: true)
        let photo = try east.take("Delete me")
        let kept = try east.take("Keep me")
        try await east.sync.catchUp()
        try await gallery.sync.catchUp()
        let published = try #require(try gallery.library.outbox.deletionKey(of: photo.id))
        #expect(published.sha256 == SignatureV4.hash(Data("key-\(photo.id.lowercased)".utf8)))

        try gallery.library.requestDeletion(of: photo.id, key: "key-\(photo.id.lowercased)", at: Date())
        // A made-up request for the other photo, under a folder of its own.
        let forger = RogueBooth(server: server, event: event, folder: "booth-b")
        let forgedKey = "\(forger.layout.event)/booth-b/deletions/\(kept.id.lowercased).json"
        try await server.store().put(
            forgedKey, Data(#"{"photo":"\#(kept.id.lowercased)","key":"guess","requested_at":"\#(Date().utcTimestamp)"}"#.utf8),
            contentType: "application/json")
        #expect(try gallery.library.gallery.photo(id: photo.id) == nil, "hidden at once")
        try await gallery.sync.catchUp()
        let requestKey = BucketLayout(event: event, booth: nil).requestKey(of: photo.id)
        #expect(requestKey.contains("/_gallery/deletions/"))
        #expect(try await server.store().get(requestKey) != nil)

        try await east.sync.catchUp()
        #expect(try east.library.gallery.photo(id: photo.id, includingHidden: true) == nil, "deleted where it was taken")
        #expect(try east.library.gallery.photo(id: kept.id) != nil, "the forged request deleted nothing")
        #expect(log.messages(atLeast: .warning).filter { $0.contains(forgedKey) }.count == 1)
        try await east.sync.catchUp()
        try await gallery.sync.catchUp()
        #expect(try gallery.library.gallery.photo(id: photo.id, includingHidden: true) == nil, "gone from the gallery too")
        #expect(try await server.store().get(requestKey) == nil, "the gallery took its request back")
        #expect(try gallery.library.gallery.photo(id: kept.id) != nil)
    }
}
