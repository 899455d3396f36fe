import BoothCore
import BoothImaging
import BoothPictures
import BoothScreen
import BoothStore
import Foundation
import Testing

@testable import BoothService

/// Two shots side by side on a 400x200 canvas, the event's name over them.
private let pair = Layout(
    name: "pair", width: 400, height: 200, slots: [PhotoSlot(x: 0, y: 0, width: 200, height: 150), PhotoSlot(x: 200, y: 0, width: 200, height: 150)],
    texts: [TextItem(text: "{event}", x: 0, y: 160, width: 400, size: 24)])

private func composer() throws -> PictureComposer {
    try PictureComposer(LoadedLayout(pair), defaultFont: ScreenFonts.dejaVu.bold)
}

/// How many shots' JPEGs the library's parts/ folder holds.
private func shotFiles(in directory: URL) -> Int {
    let walker = FileManager.default.enumerator(atPath: directory.appendingPathComponent(PhotoLibrary.partsFolder).path)
    return (walker?.allObjects as? [String] ?? []).count { $0.hasSuffix(".jpg") }
}

private let collages = PictureModes(standard: .collage, collageShots: 2, nextCountdown: .zero, shotReview: .seconds(1))

@Suite("Pictures of several shots in the running booth", .timeLimit(.minutes(1)))
struct PictureRuntimeTests {
    @Test("A collage: each shot saved as it is taken and shown, then the picture composed, shown and named")
    func collage() async throws {
        let rig = try Rig(modes: collages, composer: composer())
        let start = rig.clock.now
        var shots: [UUID] = []
        try await rig.run {
            await rig.camera.deliver(try TestFrames.frame(number: 1, at: start))
            await rig.screen.next(.ready)
            rig.controls.press(at: start)
            await rig.camera.deliver(try TestFrames.frame(number: 2, at: start + .milliseconds(5)))
            guard case .review(let first, 1, 2) = await rig.screen.next(where: { if case .review = $0 { true } else { false } }) else {
                Issue.record("no review of the first shot")
                return
            }
            shots.append(first)
            // The first shot is durable before the second countdown.
            #expect(shotFiles(in: rig.directory) == 1)
            rig.clock.advance(by: .seconds(1))
            await rig.camera.deliver(try TestFrames.frame(number: 3, at: start + .milliseconds(1005)))
            guard case .naming(_, _, let picture) = await rig.screen.next(where: { if case .naming = $0 { true } else { false } }) else {
                Issue.record("no naming screen")
                return
            }
            rig.controls.type("Ann")
            await rig.screen.next { if case .saved(_, picture, _, _, _) = $0 { true } else { false } }
        }
        let pictures = try rig.library.gallery.photos()
        let picture = try #require(pictures.first)
        #expect(pictures.count == 1, "the shots are the picture's, not the gallery's")
        #expect(picture.kind == .collage && picture.layout == "pair" && picture.caption.text == "Ann")
        #expect((picture.width, picture.height) == (400, 200))
        #expect(picture.parts.count == 2 && picture.parts[0].id == shots[0])
        #expect(picture.createdAt == picture.parts[0].createdAt, "a picture is dated by its first shot")
        let header = try JPEGHeader(Data(contentsOf: rig.library.url(of: picture)))
        #expect((header.width, header.height) == (400, 200))
        // The picture, as the screens show it while it is named.
        #expect(rig.reviews.picture(of: picture.id) != nil)
    }

    @Test("A boomerang's own button: one countdown, a frame at each instant, the GIF saved and named")
    func boomerangButton() async throws {
        let bounce = TestControls()
        let modes = PictureModes(standard: .single, animationFrames: 3, animationInterval: .milliseconds(200))
        let rig = try Rig(modes: modes, modeButtons: [.boomerang: bounce])
        let start = rig.clock.now
        try await rig.run {
            await rig.camera.deliver(try TestFrames.frame(number: 1, at: start))
            await rig.screen.next(.ready)
            bounce.press(at: start)
            await rig.camera.deliver(try TestFrames.frame(number: 2, at: start + .milliseconds(5)))
            for frame in 1..<3 {
                rig.clock.advance(by: .milliseconds(200))
                await rig.camera.deliver(try TestFrames.frame(number: UInt64(frame + 2), at: start + .milliseconds(200 * frame + 5)))
            }
            guard case .naming(_, _, let picture) = await rig.screen.next(where: { if case .naming = $0 { true } else { false } }) else {
                Issue.record("no naming screen")
                return
            }
            rig.controls.type("Bo")
            await rig.screen.next { if case .saved(_, picture, _, _, _) = $0 { true } else { false } }
        }
        let picture = try #require(try rig.library.gallery.photos().first)
        #expect(picture.kind == .boomerang && picture.caption.text == "Bo" && picture.file.hasSuffix(".gif"))
        #expect(picture.parts.count == 3)
        let gif = try GIFFile(Data(contentsOf: rig.library.url(of: picture)))
        #expect(gif.frameCount == 4, "forward, then back without repeating the ends")
        // Each frame is the one exposed nearest its instant, 200 ms apart.
        let times = picture.parts.map(\.createdAt.timeIntervalSince1970)
        #expect(zip(times, times.dropFirst()).allSatisfy { abs($1 - $0 - 0.2) < 0.01 }, "\(times)")
        #expect(try rig.library.maintenance.check().isClean)
    }

    @Test("The second shot missed: the first is kept as a photo of its own, at once")
    func shotMissedBetweenShots() async throws {
        let rig = try Rig(modes: collages, composer: composer())
        let start = rig.clock.now
        try await rig.run {
            await rig.camera.deliver(try TestFrames.frame(number: 1, at: start))
            await rig.screen.next(.ready)
            rig.controls.press(at: start)
            await rig.camera.deliver(try TestFrames.frame(number: 2, at: start + .milliseconds(5)))
            await rig.screen.next { if case .review = $0 { true } else { false } }
            // The second countdown ends, and no frame comes for its shot.
            rig.clock.advance(by: .seconds(1))
            await rig.screen.next(.smile)
            rig.clock.advance(by: .seconds(3))
            await rig.screen.next(.fault(.shotFailed))
        }
        let photos = try rig.library.gallery.photos()
        #expect(photos.count == 1 && photos.first?.kind == .photo, "\(photos)")
        #expect(shotFiles(in: rig.directory) == 0, "the shot moved to photos/")
        #expect(try rig.library.maintenance.check().isClean)
    }
}
