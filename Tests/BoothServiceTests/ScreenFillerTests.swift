import BoothCore
import BoothImaging
import BoothStore
import Foundation
import Logging
import Testing

@testable import BoothService

/// A screen filler over a library in a temporary folder.
private final class FillerRig: Sendable {
    let screen = RecordingScreen()
    let directory: URL
    let library: PhotoLibrary
    let filler: ScreenFiller

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("photobooth-filler-\(UUID().lowercased)")
        library = try PhotoLibrary(directory: directory, thumbnailer: JPEGThumbnailer(), logger: Logger(label: "test"), create: true)
        filler = ScreenFiller(
            screen: screen, library: library, dateFormat: .standard, photoLink: { "http://booth.test/photos/\($0.lowercased)" },
            logger: Logger(label: "test"))
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }
}

@Suite("Screen filler", .timeLimit(.minutes(1)))
struct ScreenFillerTests {
    @Test("The saved screen gets its photo's link; a screen that reads nothing is shown as it is")
    func savedGetsItsLink() async throws {
        let rig = try FillerRig()
        let naming = ScreenContent.naming(typed: "", placeholder: .placeholder(number: 1), photo: UUID())
        rig.filler.show(naming)
        let id = UUID()
        rig.filler.show(.saved(.placeholder(number: 1), photo: id))
        await rig.filler.drain()
        #expect(
            rig.screen.contents == [
                naming, .saved(.placeholder(number: 1), photo: id, link: "http://booth.test/photos/\(id.lowercased)"),
            ])
    }

    @Test("Screens after a gallery screen wait for its read, so they are shown in the order they were asked for")
    func order() async throws {
        let rig = try FillerRig()
        for _ in 0..<20 {
            rig.filler.show(.gallery(GalleryList(position: GalleryPosition(index: 0, count: 0))))
            rig.filler.show(.ready)
            rig.filler.show(.photo(GalleryPhoto(position: GalleryPosition(index: 0, count: 0))))
            rig.filler.show(.countdown(secondsLeft: 3))
        }
        await rig.filler.drain()
        let kinds = rig.screen.contents.map { content in
            switch content {
            case .gallery: "gallery"
            case .photo: "photo"
            default: "\(content)"
            }
        }
        #expect(kinds == Array(repeating: ["gallery", "ready", "photo", "countdown(secondsLeft: 3)"], count: 20).flatMap { $0 })
    }
}
