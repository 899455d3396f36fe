import BoothCore
import BoothImaging
import Foundation
import Logging
import Testing

@testable import BoothScreen

@Suite("Screen mirror")
struct ScreenMirrorTests {
    let logger = Logger(label: "test.mirror")

    /// The next picture after `version`, or a recorded issue when none comes within 10 s.
    func picture(after version: UInt64, of mirror: ScreenMirror) async -> (version: UInt64, value: Data)? {
        await withTaskGroup(of: (version: UInt64, value: Data)?.self) { group in
            group.addTask { await mirror.pictures.next(after: version) }
            group.addTask {
                try? await Task.sleep(for: .seconds(10))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    @Test("Draws nothing while nobody watches, then the current screen as a JPEG of its size")
    func drawsWhenWatched() async throws {
        let mirror = try ScreenMirror(width: 320, height: 240, keys: KeyLabels(view: "V"), logger: logger)
        mirror.show(.saving)
        // Once the thread has looked twice since the content was shown, it had every chance
        // to draw; still nothing, since nobody watches.
        let looked = mirror.unwatchedLooks
        for _ in 0..<500 where mirror.unwatchedLooks < looked + 2 {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(mirror.unwatchedLooks >= looked + 2)
        #expect(mirror.pictures.latest == nil)

        let watch = mirror.pictures.watch()
        let first = try #require(await picture(after: 0, of: mirror), "a watcher gets a picture")
        let header = try JPEGHeader(first.value)
        #expect(header.width == 320 && header.height == 240)

        mirror.show(.fault(.storageFull))
        let second = try #require(await picture(after: first.version, of: mirror), "a change is drawn")
        #expect(second.value != first.value, "a different screen gives a different picture")
        watch.end()
        await mirror.stop()
        #expect(await mirror.pictures.next(after: second.version) == nil, "viewers see the end once the mirror stops")
    }

    @Test("A viewer who comes later gets the screen as it is, drawn again for them")
    func lateViewer() async throws {
        let mirror = try ScreenMirror(width: 160, height: 120, keys: KeyLabels(view: "V"), logger: logger)
        let early = mirror.pictures.watch()
        let starting = try #require(await picture(after: 0, of: mirror))
        early.end()
        mirror.show(.saving)
        let late = mirror.pictures.watch()
        let saving = try #require(await picture(after: starting.version, of: mirror))
        #expect(saving.value != starting.value)
        late.end()
        await mirror.stop()
    }

    @Test(
        "The mirror's saved screen scans to the photo's page without the guest's deletion key",
        .enabled(if: QRScanner.zbarimg != nil, QRScanner.missing))
    func savedScreenWithoutKey() async throws {
        let mirror = try ScreenMirror(logger: logger)
        let link = PhotoLink(page: "http://booth.local:8080/photos/6f1c2a7e-3b9d-4c55-8e2a-0d4b7f9a1c3e", deletionKey: "Z0wIAHXlYlY7mR3K9QTLsPq8cQE")
        #expect(mirror.audience == .anyone)
        mirror.show(.saved(Caption(sanitizing: "Anna")!, photo: UUID(), link: link))
        let watch = mirror.pictures.watch()
        let saved = try #require(await picture(after: 0, of: mirror), "the saved screen is drawn")
        let scanned = try #require(try await QRScanner.scan(saved.value, suffix: "jpg"), "zbarimg found no code in the mirror's picture")
        #expect(scanned == link.page)
        #expect(!scanned.contains("key="))
        watch.end()
        await mirror.stop()
    }
}
