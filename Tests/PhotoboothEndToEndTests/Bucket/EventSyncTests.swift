import BoothCore
import BoothImaging
import BoothPictures
import BoothStore
import Foundation
import Logging
import StoreFixture
import Testing

@testable import BoothSync

/// One booth of an event: a library of its own in a temporary folder, and its sync.
final class TestBooth: Sendable {
    let name: String
    let directory: URL
    let library: PhotoLibrary
    let sync: EventSync

    /// - Parameters:
    ///   - endpoint: where the booth sends its requests: the store's own address, or a
    ///     ``FaultyLink`` in front of it.
    ///   - serving: a gallery without a booth of its own (`photobooth serve`), which only imports.
    ///   - logger: where the sync's lines go (a ``RecordedLog`` to read them back).
    init(
        _ name: String, event: String, server: any StoreServer, credentials: StoreCredentials? = nil, directory: URL? = nil,
        endpoint: URL? = nil, serving: Bool = false, logger: Logger = Logger(label: "test"), clock: CorrectedClock = CorrectedClock(),
        guestDeletions: GuestDeletions? = nil
    ) throws {
        self.name = name
        self.directory = directory ?? FileManager.default.temporaryDirectory.appendingPathComponent("photobooth-sync-\(UUID().lowercased)")
        library = try PhotoLibrary(
            directory: self.directory, thumbnailer: JPEGThumbnailer(), logger: Logger(label: "test"), create: true, boothName: name)
        var settings = SyncSettings()
        settings.endpoint = endpoint ?? server.endpoint
        settings.bucket = SeaweedFS.bucket
        settings.event = event
        settings.pathStyle = true
        let credentials = credentials ?? server.credentials
        sync = EventSync(
            settings: settings, boothName: serving ? nil : name, library: library, tagger: PictureTagger(), thumbnailer: JPEGThumbnailer(),
            logger: logger, environment: ["AWS_ACCESS_KEY_ID": credentials.accessKeyID, "AWS_SECRET_ACCESS_KEY": credentials.secretAccessKey],
            clock: clock, guestDeletions: guestDeletions)
    }

    deinit {
        library.close()
        try? FileManager.default.removeItem(at: directory)
    }

    @discardableResult
    func take(_ caption: String) throws -> Photo {
        let jpeg = try JPEGEncoder().encode(TestPattern(width: 320, height: 240).render(frame: 1, at: Date()), quality: 85)
        let number = library.reservePhotoNumber()
        return try library.add(
            jpeg, thumbnail: try JPEGThumbnailer().thumbnail(of: jpeg), id: UUID(), number: number,
            caption: Caption(sanitizing: caption)!, createdAt: Date(), camera: CameraModel(make: "photobooth", model: "simulated camera")
        ).0
    }

    /// A picture of `shots` shots, saved as the booth saves one: each shot durable as a part,
    /// then the picture (a strip of the shots' JPEGs stacked, or their GIF).
    func compose(_ kind: PictureKind, shots count: Int, caption: String) throws -> Photo {
        let picture = UUID()
        let number = library.reservePhotoNumber()
        let frames = (0..<count).map { TestPattern(width: 160, height: 120).render(frame: UInt64($0 + 1), at: Date()) }
        let parts = try frames.enumerated().map { index, frame in
            try library.addPart(
                try JPEGEncoder().encode(frame, quality: 85), id: UUID(), of: picture, index: index, number: number, width: 160, height: 120,
                createdAt: Date())
        }
        let file =
            kind.isAnimated
            ? AnimatedGIF.encode(frames.map(Self.framebufferLayout), order: AnimatedGIF.boomerang(count), delay: 20)
            : try JPEGEncoder().encode(TestPattern(width: 320, height: 240 * count).render(frame: 9, at: Date()), quality: 85)
        return try library.add(
            file, thumbnail: try JPEGThumbnailer().thumbnail(of: file), id: picture, number: number,
            caption: Caption(sanitizing: caption)!, createdAt: Date(), kind: kind, layout: kind.isAnimated ? nil : "strip-3", parts: parts
        ).0
    }

    /// `picture` (`.rgb`) in the framebuffer's layout (`.bgrx`), as animations are made.
    private static func framebufferLayout(_ picture: Bitmap) -> Bitmap {
        var pixels = [UInt8](repeating: 255, count: picture.width * picture.height * 4)
        for pixel in 0..<(picture.width * picture.height) {
            pixels[pixel * 4] = picture.pixels[pixel * 3 + 2]
            pixels[pixel * 4 + 1] = picture.pixels[pixel * 3 + 1]
            pixels[pixel * 4 + 2] = picture.pixels[pixel * 3]
        }
        return Bitmap(width: picture.width, height: picture.height, format: .bgrx, pixels: pixels)
    }

    /// The photos as guests see them: id and caption, sorted by id.
    func gallery() throws -> [String] {
        try library.gallery.photos().map { "\($0.id.lowercased) \($0.caption)" }.sorted()
    }
}

@Suite(
    "Booths of one event converge through a real bucket (SeaweedFS on loopback)", .fullLane,
    .enabled(if: SeaweedFS.available, Comment(rawValue: SeaweedFS.missing)))
struct EventSyncTests {
    @Test(
        "Two booths taking photos end with the same photos and captions; the bucket holds each photo's original, thumbnail and record under its booth"
    )
    func converge() async throws {
        let server = try await SeaweedFS()
        let (event, east, west, zoe) = try await TestBooth.twoConverging(through: server)
        // Imported photos say where they came from; the author is the booth that took them.
        let imported = try #require(try west.library.gallery.photo(id: zoe.id))
        #expect(imported.origin == "booth-east")

        let keys = try await server.store().listAll(prefix: BucketLayout.keyName(event) + "/").map(\.key)
        let layout = BucketLayout(event: event, booth: "Booth East")
        for kind in BucketLayout.Kind.allCases where kind != .part {
            #expect(keys.contains(layout.key(kind, of: zoe.id)), "\(kind) of \(zoe.id)")
        }
        #expect(keys.count == 9, "\(keys)")
        #expect(
            keys.allSatisfy {
                $0.hasPrefix(BucketLayout.keyName(event) + "/booth-east/") || $0.hasPrefix(BucketLayout.keyName(event) + "/booth-west/")
            })

        // The original in the bucket is the camera's image with the name and time spliced in,
        // and matches the SHA-256 its record gives.
        let original = try #require(try await server.store().get(layout.key(.photo, of: zoe.id)))
        let local = try Data(contentsOf: east.library.url(of: zoe))
        #expect(try JPEGSegments(original).imageData == JPEGSegments(local).imageData)
        let recordData = try #require(try await server.store().get(layout.key(.record, of: zoe.id)))
        let record = try #require(PhotoSidecar(xmp: recordData))
        #expect(record.caption.text == "Zo\u{00EB} & \u{674E}" && record.event == event && record.width == 320)
        #expect(record.sha256 == SignatureV4.hash(original))
    }

    @Test("Renames, hides and deletes made at the booth that took a photo reach the other; the other cannot make them")
    func changesFollow() async throws {
        let server = try await SeaweedFS()
        let event = "Gala \(UUID().uuidString.prefix(6))"
        let east = try TestBooth("East", event: event, server: server)
        let west = try TestBooth("West", event: event, server: server)
        let first = try east.take("Photo 1")
        let second = try east.take("Photo 2")
        try await east.sync.catchUp()
        try await west.sync.catchUp()
        #expect(try west.gallery().count == 2)

        #expect(throws: LibraryError.notOurs) { try west.library.setCaption(Caption(sanitizing: "Mine")!, of: first.id) }
        #expect(throws: LibraryError.notOurs) { try west.library.recycle(first.id) }

        try east.library.setCaption(Caption(sanitizing: "Carla")!, of: first.id)
        try east.library.setHidden(true, of: second.id)
        try await east.sync.catchUp()
        try await west.sync.catchUp()
        #expect(try west.library.gallery.photo(id: first.id)?.caption.text == "Carla")
        #expect(try west.library.gallery.photo(id: second.id) == nil && west.library.gallery.photo(id: second.id, includingHidden: true) != nil)

        // A guest's wish to be forgotten: the owner deletes, the bucket keeps only a tombstone,
        // and the other booth removes its copy entirely.
        try east.library.recycle(first.id)
        try await east.sync.catchUp()
        let layout = BucketLayout(event: event, booth: "East")
        #expect(try await server.store().get(layout.key(.photo, of: first.id)) == nil)
        #expect(try await server.store().get(layout.key(.thumbnail, of: first.id)) == nil)
        let tombstoneData = try #require(try await server.store().get(layout.key(.record, of: first.id)))
        let tombstone = try #require(PhotoSidecar(xmp: tombstoneData))
        #expect(tombstone.deleted && tombstone.caption.text != "Carla")
        try await west.sync.catchUp()
        #expect(try west.library.gallery.photo(id: first.id, includingHidden: true) == nil)
        #expect(try west.library.gallery.photos(includingHidden: true).map(\.id) == [second.id])
        #expect(!FileManager.default.fileExists(atPath: west.library.url(of: first).path))
    }

    @Test("A collage and a boomerang reach the other booth as what they are; the shots go to the bucket, and go with a deletion")
    func composedPictures() async throws {
        let server = try await SeaweedFS()
        let event = "Fête \(UUID().uuidString.prefix(6))"
        let east = try TestBooth("East", event: event, server: server)
        let west = try TestBooth("West", event: event, server: server)
        let strip = try east.compose(.collage, shots: 3, caption: "Anna")
        let boomerang = try east.compose(.boomerang, shots: 4, caption: "Ben")
        try await east.sync.catchUp()
        try await west.sync.catchUp()

        let layout = BucketLayout(event: event, booth: "East")
        let keys = Set(try await server.store().listAll(prefix: layout.ownPrefix).map(\.key))
        #expect(
            keys.contains(layout.originalKey(of: boomerang.id, animated: true)) && keys.contains(layout.originalKey(of: strip.id, animated: false)))
        for part in strip.parts + boomerang.parts { #expect(keys.contains(layout.key(.part, of: part.id)), "\(part.id)") }
        let recordData = try #require(try await server.store().get(layout.key(.record, of: strip.id)))
        let record = try #require(PhotoSidecar(xmp: recordData))
        #expect(record.kind == .collage && record.parts == strip.parts.map(\.id))
        // The bucket's GIF carries the name in its XMP, as every copy does.
        let gif = try #require(try await server.store().get(layout.originalKey(of: boomerang.id, animated: true)))
        #expect(String(decoding: gif, as: UTF8.self).contains("Ben"))

        let importedStrip = try #require(try west.library.gallery.photo(id: strip.id))
        let importedBoomerang = try #require(try west.library.gallery.photo(id: boomerang.id))
        #expect(importedStrip.kind == .collage && importedStrip.layout == "strip-3" && importedStrip.file.hasSuffix(".jpg"))
        #expect(importedBoomerang.kind == .boomerang && importedBoomerang.file.hasSuffix(".gif"))
        #expect((importedBoomerang.width, importedBoomerang.height) == (boomerang.width, boomerang.height))
        #expect(try GIFFile(Data(contentsOf: west.library.url(of: importedBoomerang))).frameCount == 6)
        #expect(try west.library.maintenance.check().isClean)

        // Deleted at East: the strip, its thumbnail and its shots leave the bucket; West drops it.
        try east.library.recycle(strip.id)
        try await east.sync.catchUp()
        let left = Set(try await server.store().listAll(prefix: layout.ownPrefix).map(\.key))
        #expect(strip.parts.allSatisfy { !left.contains(layout.key(.part, of: $0.id)) }, "\(left)")
        #expect(!left.contains(layout.originalKey(of: strip.id, animated: false)) && left.contains(layout.key(.record, of: strip.id)))
        try await west.sync.catchUp()
        #expect(try west.library.gallery.photo(id: strip.id, includingHidden: true) == nil)
    }

    @Test("With the store down photos wait in the outbox; once it is back they arrive, none twice")
    func storeDown() async throws {
        let server = try await SeaweedFS()
        let event = "Down \(UUID().uuidString.prefix(6))"
        let east = try TestBooth("East", event: event, server: server)
        let west = try TestBooth("West", event: event, server: server)
        try east.take("Before")
        try await east.sync.catchUp()
        await server.stop(gracefully: true)
        try east.take("During 1")
        try east.take("During 2")
        await #expect(throws: StoreError.self) { try await east.sync.catchUp() }
        #expect(try east.library.outbox.summary().pending == 2)
        #expect(east.sync.metrics.snapshot.lastError?.kind == .unavailable)
        #expect(try east.library.outbox.state().failure?.message.isEmpty == false)
        try await server.start()
        // The failed entries wait for their backoff; a restart of the booth would try at once.
        try east.library.outbox.retryNow()
        try await east.sync.catchUp()
        try await west.sync.catchUp()
        try await west.sync.catchUp()
        #expect(try west.gallery() == east.gallery())
        #expect(try west.gallery().count == 3)
        #expect(try east.library.outbox.summary().pending == 0)
    }

    @Test("Wrong credentials: a clear status, the outbox kept, and it recovers once they are fixed")
    func wrongCredentials() async throws {
        let server = try await SeaweedFS()
        let event = "Keys \(UUID().uuidString.prefix(6))"
        let wrong = try TestBooth(
            "East", event: event, server: server,
            credentials: StoreCredentials(accessKeyID: SeaweedFS.accessKey, secretAccessKey: "wrong-secret"))
        try wrong.take("Waiting")
        await #expect(throws: StoreError.self) { try await wrong.sync.catchUp() }
        #expect(wrong.sync.metrics.snapshot.lastError?.kind == .credentials)
        #expect(try wrong.library.outbox.summary().pending == 1)
        // The same library, with the secret fixed (the booth reads credentials again).
        wrong.library.close()
        let fixed = try TestBooth(reopening: wrong, event: event, server: server)
        try await fixed.sync.catchUp()
        #expect(try fixed.library.outbox.summary().pending == 0)
    }

    @Test("A store that throttles, then an upload cut half way: each says so, nothing half-stored, and the photo arrives once, whole")
    func throttledAndCut() async throws {
        let server = try await SeaweedFS()
        let event = "Venue \(UUID().uuidString.prefix(6))"
        let link = try FaultyLink(toPort: server.s3Port, rules: [FaultyLink.Rule("PUT", .slowDown), FaultyLink.Rule("PUT", .cutHalfway)])
        let booth = try TestBooth("East", event: event, server: server, endpoint: link.endpoint)
        let photo = try booth.take("Through the storm")
        let layout = BucketLayout(event: event, booth: "East")

        await #expect(throws: StoreError.self) { try await booth.sync.catchUp() }
        let throttled = try #require(booth.sync.metrics.snapshot.lastError)
        #expect(throttled.kind == .throttled && throttled.description.contains("slow down"), "\(throttled)")
        #expect(try booth.library.outbox.state().failure?.message.contains("slow down") == true)

        try booth.library.outbox.retryNow()
        await #expect(throws: StoreError.self) { try await booth.sync.catchUp() }
        let cut = try #require(booth.sync.metrics.snapshot.lastError)
        #expect(cut.kind == .unavailable && cut.description.contains("broke off during PUT \"\(layout.key(.photo, of: photo.id))\""), "\(cut)")
        #expect(link.faultsApplied == ["PUT slowDown", "PUT cutHalfway"])
        // The store kept nothing of the cut upload, and the photo still waits.
        #expect(try await server.store().listAll(prefix: layout.ownPrefix).isEmpty)
        #expect(try booth.library.outbox.summary().pending == 1)

        try booth.library.outbox.retryNow()
        try await booth.sync.catchUp()
        #expect(try booth.library.outbox.summary().pending == 0)
        let keys = try await server.store().listAll(prefix: layout.ownPrefix).map(\.key)
        #expect(Set(keys) == Set(BucketLayout.Kind.allCases.filter { $0 != .part }.map { layout.key($0, of: photo.id) }))
        let original = try #require(try await server.store().get(layout.key(.photo, of: photo.id)))
        let recordData = try #require(try await server.store().get(layout.key(.record, of: photo.id)))
        let record = try #require(PhotoSidecar(xmp: recordData))
        #expect(record.sha256 == SignatureV4.hash(original))
        #expect(try JPEGSegments(original).imageData == JPEGSegments(Data(contentsOf: booth.library.url(of: photo))).imageData)
        #expect(booth.sync.metrics.snapshot.failures == [.throttled: 1, .unavailable: 1])
    }

    @Test("A booth whose clock is an hour behind still uploads: the store's time corrects it")
    func skewedClock() async throws {
        let server = try await SeaweedFS()
        let event = "Clock \(UUID().uuidString.prefix(6))"
        let booth = try TestBooth("East", event: event, server: server)
        let late = EventSync(
            settings: booth.sync.settings, boothName: "East", library: booth.library, tagger: PictureTagger(), thumbnailer: JPEGThumbnailer(),
            logger: Logger(label: "test"),
            environment: ["AWS_ACCESS_KEY_ID": SeaweedFS.accessKey, "AWS_SECRET_ACCESS_KEY": SeaweedFS.secretKey],
            clock: CorrectedClock(system: { Date() - 3600 }))
        try booth.take("Late")
        try await late.catchUp()
        #expect(try booth.library.outbox.summary().pending == 0)
        #expect(abs(late.metrics.snapshot.clockCorrection - 3600) < 120)
    }
}

extension TestBooth {
    /// Two booths of one event through `server`: East takes "Zoë & 李" and "Alice", West takes
    /// "Bob", then East, West and East again catch up. Both must end with the same three photos
    /// and nothing waiting.
    static func twoConverging(
        through server: any StoreServer, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (event: String, east: TestBooth, west: TestBooth, zoe: Photo) {
        let event = "Anna & Ben \(UUID().uuidString.prefix(6))"
        let east = try TestBooth("Booth East", event: event, server: server)
        let west = try TestBooth("Booth West", event: event, server: server)
        let zoe = try east.take("Zo\u{00EB} & \u{674E}")
        try east.take("Alice")
        try west.take("Bob")
        try await east.sync.catchUp()
        try await west.sync.catchUp()
        try await east.sync.catchUp()
        #expect(try east.gallery().count == 3, sourceLocation: sourceLocation)
        #expect(try east.gallery() == west.gallery(), sourceLocation: sourceLocation)
        #expect(
            try east.library.outbox.summary().pending == 0 && west.library.outbox.summary().pending == 0, sourceLocation: sourceLocation)
        return (event, east, west, zoe)
    }

    /// The booth of `other`'s folder, opened again with the right credentials.
    convenience init(
        reopening other: TestBooth, event: String, server: any StoreServer, serving: Bool = false, logger: Logger = Logger(label: "test")
    ) throws {
        try self.init(other.name, event: event, server: server, directory: other.directory, serving: serving, logger: logger)
    }
}

@Suite("A second S3 implementation (moto) takes the same uploads", .fullLane, .enabled(if: Moto.available, Comment(rawValue: Moto.missing)))
struct SecondStoreTests {
    @Test("Two booths converge through moto's bucket, page by page; every object is where SeaweedFS has it, whole")
    func converge() async throws {
        let server = try await Moto()
        let (event, _, _, zoe) = try await TestBooth.twoConverging(through: server)

        let layout = BucketLayout(event: event, booth: "Booth East")
        // Listed two keys a page: moto's continuation tokens are followed to the end.
        let keys = try await server.store().listAll(prefix: layout.eventPrefix, pageSize: 2).map(\.key)
        #expect(keys.count == 9, "\(keys)")
        let original = try #require(try await server.store().get(layout.key(.photo, of: zoe.id)))
        let recordData = try #require(try await server.store().get(layout.key(.record, of: zoe.id)))
        let record = try #require(PhotoSidecar(xmp: recordData))
        #expect(record.caption.text == "Zo\u{00EB} & \u{674E}" && record.sha256 == SignatureV4.hash(original))
    }
}
