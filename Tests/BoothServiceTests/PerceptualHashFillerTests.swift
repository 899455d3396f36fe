import BoothCore
import BoothImaging
import BoothStore
import BoothSystem
import Foundation
import Logging
import Testing

@testable import BoothService

@Suite("Perceptual hashes made at start")
struct PerceptualHashFillerTests {
    /// A library holding `count` photos saved without a hash, the oldest first, each a
    /// different frame of the test pattern; they are returned with their JPEGs.
    private func library(with count: Int) throws -> (PhotoLibrary, [(photo: Photo, jpeg: Data)]) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("photobooth-hashes-\(UUID().lowercased)")
        let library = try PhotoLibrary(directory: directory, thumbnailer: JPEGThumbnailer(), logger: Logger(label: "test"), create: true)
        var photos: [(Photo, Data)] = []
        for index in 0..<count {
            let picture = TestPattern(width: 320, height: 240).render(frame: UInt64(index * 60), at: Date(timeIntervalSince1970: 1_700_000_000))
            let jpeg = try JPEGEncoder().encode(picture, quality: 85)
            let number = library.reservePhotoNumber()
            let (photo, _) = try library.add(
                jpeg, thumbnail: try JPEGThumbnailer().thumbnail(of: jpeg), id: UUID(), number: number,
                caption: .placeholder(number: number), createdAt: Date(timeIntervalSince1970: 1_700_000_000 + Double(index)))
            photos.append((photo, jpeg))
        }
        return (library, photos)
    }

    @Test("Every photo without a hash gets the one its original gives; an unreadable original is skipped, not retried forever")
    func fills() throws {
        let (library, photos) = try library(with: 4)
        defer { try? FileManager.default.removeItem(at: library.directory) }
        // The oldest, listed first every time, cannot be decoded.
        try Data("not a JPEG".utf8).write(to: library.url(of: photos[0].photo))
        let filler = PerceptualHashFiller(library: library, logger: Logger(label: "test"), batchSize: 1)
        #expect(filler.fill(unless: Wakeup()) == .init(hashed: 3, unreadable: 1, finished: true))
        #expect(try library.gallery.perceptualHash(of: photos[0].photo.id) == nil)
        for (photo, jpeg) in photos.dropFirst() {
            let stored = try #require(try library.gallery.perceptualHash(of: photo.id))
            #expect(stored == (try ShotDecoder.perceptualHash(ofJPEG: jpeg)))
            // As the booth hashes a new shot, give or take the finer decode for its screen.
            let atShot = try ShotDecoder(screen: PixelSize(width: 1280, height: 800)).decode(jpeg).perceptualHash
            #expect(PerceptualHash.hammingDistance(stored, atShot) <= 2)
        }
        #expect(try library.maintenance.photosWithoutPerceptualHash(limit: 10).map(\.id) == [photos[0].photo.id])
    }

    @Test("A booth that stops leaves the rest for the next start")
    func stops() throws {
        let (library, photos) = try library(with: 2)
        defer { try? FileManager.default.removeItem(at: library.directory) }
        let stopping = Wakeup()
        stopping.requestStop()
        #expect(PerceptualHashFiller(library: library, logger: Logger(label: "test")).fill(unless: stopping) == .init())
        #expect(try library.maintenance.photosWithoutPerceptualHash(limit: 10).count == photos.count)
    }
}
