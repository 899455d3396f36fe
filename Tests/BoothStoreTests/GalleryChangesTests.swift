import BoothCore
import BoothImaging
import Foundation
import Logging
import Testing

@testable import BoothStore

/// One signal for what the gallery shows (``GalleryChanges``): it moves once for each change
/// guests can see, made here or by another process, and never for the sync's bookkeeping.
@Suite("The gallery's change signal")
struct GalleryChangesTests {
    @Test("Each change guests can see moves it once; the outbox, the sync's state, intents and hashes do not")
    func visibleChangesOnly() throws {
        let fixture = try LibraryFixture()
        let library = fixture.library
        let changes = library.changes
        var expected = changes.current
        func expectMoved(_ what: String, by count: UInt64 = 1, sourceLocation: SourceLocation = #_sourceLocation) {
            expected += count
            #expect(changes.current == expected, "\(what)", sourceLocation: sourceLocation)
            #expect(changes.current == expected, "\(what), and not again at the next look", sourceLocation: sourceLocation)
        }

        let photo = try fixture.add(caption: "Anna")
        expectMoved("a save")
        try library.setCaption(Caption(sanitizing: "Zoë")!, of: photo.id)
        expectMoved("a rename")
        try library.setFavourite(true, of: photo.id)
        expectMoved("a favourite")
        try library.setHidden(true, of: photo.id)
        expectMoved("a hide")
        try library.setHidden(true, of: photo.id)
        expectMoved("a hide of a hidden photo", by: 0)

        let entry = try #require(try library.outbox.nextUpload())
        try library.outbox.uploadFailed(entry, error: "slow down", retryAt: Date(timeIntervalSinceNow: 60))
        try library.outbox.retryNow()
        try library.outbox.uploaded(entry)
        try library.outbox.updateState { state in
            state.event = "Wedding"
            state.lastUpload = Date()
            state.failure = SyncState.Failure(message: "slow down", kind: "throttled", time: Date(), during: .upload)
        }
        try library.outbox.markSeen("wedding/other/records/x.xmp", etag: "\"1\"")
        try library.maintenance.setPerceptualHash(0xF0F0, of: photo.id)
        expectMoved("the sync's bookkeeping and a perceptual hash", by: 0)

        _ = try library.recycle(photo.id)
        expectMoved("a deletion")

        let jpeg = try LibraryFixture.jpeg()
        var record = RecordTests.record("From afar")
        let imported = try library.importPhoto(jpeg, thumbnail: try JPEGThumbnailer().thumbnail(of: jpeg), record: record, origin: "other")
        expectMoved("an import")
        record.caption = Caption(sanitizing: "Renamed afar")!
        try library.applyImported(record, from: "other")
        expectMoved("an imported photo renamed by its booth")
        #expect(try !library.applyImported(record, from: "other"))
        expectMoved("the same record again", by: 0)
        try library.removeImported(imported.id, from: "other")
        expectMoved("an imported photo deleted by its booth")
    }

    @Test("Another process's change guests can see moves it; its outbox and sync state do not")
    func otherProcess() throws {
        let fixture = try LibraryFixture()
        let photo = try fixture.add(caption: "Anna")
        let changes = fixture.library.changes
        let before = changes.current
        // Another connection to the catalog, as `photobooth hide` or `photobooth serve` opens.
        let other = try LibraryFixture.open(fixture.directory, create: false)
        defer { other.close() }
        try other.outbox.retryNow()
        try other.outbox.updateState { $0.lastListing = Date() }
        try other.outbox.markSeen("wedding/other/records/x.xmp", etag: "\"2\"")
        #expect(changes.current == before, "the sync's bookkeeping")
        try other.setHidden(true, of: photo.id)
        #expect(changes.current == before + 1, "a hide")
        #expect(changes.current == before + 1, "once")
        #expect(try fixture.library.gallery.photo(id: photo.id) == nil)
    }
}
