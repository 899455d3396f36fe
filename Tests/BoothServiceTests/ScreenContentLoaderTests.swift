import BoothCore
import BoothImaging
import BoothStore
import Foundation
import Logging
import Synchronization
import Testing

@testable import BoothService

/// A screen content loader over a library in a temporary folder.
private final class FillerRig: Sendable {
    let screen = RecordingScreen()
    let directory: URL
    let library: PhotoLibrary
    let loader: ScreenContentLoader

    init(logger: Logger = Logger(label: "test")) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("photobooth-loader-\(UUID().lowercased)")
        library = try PhotoLibrary(directory: directory, thumbnailer: JPEGThumbnailer(), logger: Logger(label: "test"), create: true)
        loader = ScreenContentLoader(
            screen: screen, library: library, dateFormat: .standard, photoLink: { "http://booth.test/photos/\($0.lowercased)" },
            deletionKey: { FillerRig.key(for: $0) }, logger: logger)
    }

    /// The deletion key the rig gives photo `id`.
    static func key(for id: UUID) -> String { "k3y-of-\(id.lowercased)" }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }
}

@Suite("Screen loader", .timeLimit(.minutes(1)))
struct ScreenFillerTests {
    @Test("The saved screen gets its photo's link, with the deletion key apart; a screen that reads nothing is shown as it is")
    func savedGetsItsLink() async throws {
        let rig = try FillerRig()
        let naming = ScreenContent.naming(typed: "", placeholder: .placeholder(number: 1), photo: UUID())
        rig.loader.show(naming)
        let id = UUID()
        rig.loader.show(.saved(.placeholder(number: 1), photo: id))
        await rig.loader.drain()
        let link = PhotoLink(page: "http://booth.test/photos/\(id.lowercased)", deletionKey: FillerRig.key(for: id))
        #expect(rig.screen.contents == [naming, .saved(.placeholder(number: 1), photo: id, link: link)])
    }

    @Test("No log line carries the deletion key, at any level: the saved screen's line names the page alone")
    func keyNeverLogged() async throws {
        let lines = Mutex<[String]>([])
        var logger = Logger(label: "test") { _ in JournalLogHandler { line in lines.withLock { $0.append(line) } } }
        logger.logLevel = .trace
        let rig = try FillerRig(logger: logger)
        let id = UUID()
        rig.loader.show(.saved(.placeholder(number: 1), photo: id))
        await rig.loader.drain()
        let logged = lines.withLock { $0 }
        #expect(logged.contains { $0.contains("photo page http://booth.test/photos/\(id.lowercased)") }, "\(logged)")
        #expect(!logged.contains { $0.contains(FillerRig.key(for: id)) || $0.contains("key=") }, "\(logged)")
        // The screen got the key: it is the screens' to show or not.
        #expect(
            rig.screen.contents.contains { if case .saved(_, _, let link?, _, _) = $0 { link.deletionKey == FillerRig.key(for: id) } else { false } })
    }

    @Test("Screens after a gallery screen wait for its read, so they are shown in the order they were asked for")
    func order() async throws {
        let rig = try FillerRig()
        for _ in 0..<20 {
            rig.loader.show(.gallery(GalleryList(position: GalleryPosition(index: 0, count: 0))))
            rig.loader.show(.ready)
            rig.loader.show(.photo(GalleryPhoto(position: GalleryPosition(index: 0, count: 0))))
            rig.loader.show(.countdown(secondsLeft: 3))
        }
        await rig.loader.drain()
        let kinds = rig.screen.contents.map { content in
            switch content {
            case .gallery: "gallery"
            case .photo: "photo"
            case .countdown(let secondsLeft, _): "countdown \(secondsLeft)"
            default: "\(content)"
            }
        }
        #expect(kinds == Array(repeating: ["gallery", "ready", "photo", "countdown 3"], count: 20).flatMap { $0 })
    }

    @Test("The slideshow shows the favourites first, then the other photos newest first, and starts over")
    func slideshow() async throws {
        let rig = try FillerRig()
        let jpeg = try JPEGEncoder().encode(TestPattern(width: 160, height: 120).render(frame: 1, at: Date()), quality: 80)
        var added: [Photo] = []
        for index in 0..<4 {
            let number = rig.library.reservePhotoNumber()
            let (photo, _) = try rig.library.add(
                jpeg, thumbnail: try JPEGThumbnailer().thumbnail(of: jpeg), id: UUID(), number: number,
                caption: .placeholder(number: number), createdAt: Date(timeIntervalSince1970: 1_795_000_000 + Double(index * 60)))
            added.append(photo)
        }
        try rig.library.setFavourite(true, of: added[1].id)
        for number in 0..<6 { rig.loader.show(.attract(AttractSlide(number: number))) }
        await rig.loader.drain()
        let shown = rig.screen.contents.map { content -> UUID? in
            guard case .attract(let slide) = content, slide.originals != nil else { return nil }
            return slide.entry?.id
        }
        let order = [added[1], added[3], added[2], added[0]].map(\.id)
        #expect(shown == order + order.prefix(2))

        // An empty library: the slides stay empty, and the screen shows the invitation alone.
        let empty = try FillerRig()
        empty.loader.show(.attract(AttractSlide(number: 0)))
        await empty.loader.drain()
        #expect(empty.screen.contents == [.attract(AttractSlide(number: 0))])
    }

    @Test("A photo renamed or hidden while the gallery is open, here or by another process, is shown as it is now")
    func galleryFollowsChanges() async throws {
        let rig = try FillerRig()
        let jpeg = try JPEGEncoder().encode(TestPattern(width: 160, height: 120).render(frame: 1, at: Date()), quality: 80)
        var added: [Photo] = []
        for (index, name) in ["Anna", "Ben"].enumerated() {
            let (photo, _) = try rig.library.add(
                jpeg, thumbnail: try JPEGThumbnailer().thumbnail(of: jpeg), id: UUID(), number: rig.library.reservePhotoNumber(),
                caption: Caption(sanitizing: name)!, createdAt: Date(timeIntervalSince1970: 1_795_000_000 + Double(index * 60)))
            added.append(photo)
        }
        let list = ScreenContent.gallery(GalleryList(position: GalleryPosition(index: 0, count: 2)))
        func names() async -> [String] {
            rig.loader.show(list)
            await rig.loader.drain()
            guard case .gallery(let shown) = rig.screen.contents.last else { return [] }
            return shown.rows.map(\.entry.caption.text)
        }
        #expect(await names() == ["Ben", "Anna"])
        try rig.library.setCaption(Caption(sanitizing: "Zoë")!, of: added[0].id)
        #expect(await names() == ["Ben", "Zoë"], "the same page and count, read again")
        let other = try PhotoLibrary(directory: rig.directory, thumbnailer: JPEGThumbnailer(), logger: Logger(label: "other"), create: false)
        defer { other.close() }
        try other.setHidden(true, of: added[1].id)
        #expect(await names() == ["Zoë"], "a photo hidden by `photobooth hide`")
    }
}
