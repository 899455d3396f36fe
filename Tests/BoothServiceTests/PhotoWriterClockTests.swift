import BoothCore
import BoothImaging
import BoothScreen
import BoothStore
import BoothSync
import BoothSystem
import Foundation
import Logging
import Testing

@testable import BoothService

@Suite("A photo's time")
struct PhotoWriterClockTests {
    @Test("A booth whose clock is an hour behind dates its photos by the store's time once the sync has heard it, and by its own before")
    func correctedTime() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("photobooth-clock-\(UUID().lowercased)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = try PhotoLibrary(directory: directory, thumbnailer: JPEGThumbnailer(), logger: Logger(label: "test"), create: true)
        defer { library.close() }
        let clock = CorrectedClock(system: { Date() - 3600 })
        let writer = PhotoWriter(library: library, reviews: ReviewPictures(), clock: clock, logger: Logger(label: "test")) { _ in }
        func take() async throws -> Photo {
            let now = MonotonicClock().now
            let photo = TakenPhoto(id: UUID(), placeholder: .placeholder(number: 1))
            writer.store(
                .init(photo: photo, number: library.reservePhotoNumber(), candidates: [try TestFrames.frame(number: 1, at: now)], shutterAt: now))
            await writer.drain()
            return try #require(try library.gallery.photo(id: photo.id))
        }
        // Each photo is dated within the time its save took, however long a loaded machine makes it.
        var started = Date()
        let before = try await take()
        var ended = Date()
        #expect(
            (started - 3601...ended - 3599).contains(before.createdAt), "the system's clock, until the store is heard: \(before.createdAt)")
        clock.observe(storeTime: Date(), at: clock.system())
        started = Date()
        let after = try await take()
        ended = Date()
        #expect((started - 1...ended + 1).contains(after.createdAt), "the store's time: \(after.createdAt)")
    }
}
