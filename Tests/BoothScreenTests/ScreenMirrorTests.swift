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

    @Test("Draws nothing while nobody watches; a viewer's arrival wakes it to draw the current screen as a JPEG of its size")
    func drawsWhenWatched() async throws {
        let mirror = try ScreenMirror(width: 320, height: 240, keys: KeyLabels(view: "V"), logger: logger)
        mirror.show(.saving)
        // The thread looks once as it starts, and again when the change wakes it: the second
        // look saw the change, and nobody watching.
        try await waitUntil { mirror.wakeupsWithoutViewers >= 2 }
        #expect(mirror.pictures.latest == nil)

        let watch = mirror.pictures.watch()
        let first = try #require(await picture(after: 0, of: mirror), "a watcher gets a picture")
        let header = try JPEGHeader(first.value)
        #expect(header.width == 320 && header.height == 240)

        mirror.show(.fault(.storageFull))
        // The still screen's picture may come a second time first.
        var second = try #require(await picture(after: first.version, of: mirror), "a change is drawn")
        if second.value == first.value { second = try #require(await picture(after: second.version, of: mirror), "a change is drawn") }
        #expect(second.value != first.value, "a different screen gives a different picture")
        watch.end()
        await mirror.stop()
        #expect(await mirror.pictures.next(after: second.version) == nil, "viewers see the end once the mirror stops")
    }

    @Test("A viewer who comes back to a still screen gets its picture at once; one who comes after a change nobody watched waits for the new screen")
    func returningViewer() async throws {
        let mirror = try ScreenMirror(width: 160, height: 120, keys: KeyLabels(view: "V"), logger: logger)
        let early = mirror.pictures.watch()
        let starting = try #require(await picture(after: 0, of: mirror))
        early.end()
        // A page reloaded: the screen did not change, the picture still shows it.
        let reload = mirror.pictures.watch()
        #expect(mirror.pictures.latest?.value == starting.value, "the picture is there for the next viewer")
        #expect(await picture(after: 0, of: mirror)?.value == starting.value)
        reload.end()

        mirror.show(.saving)
        // Nobody watches the change: the old picture is withdrawn rather than drawn anew.
        try await waitUntil { mirror.pictures.latest == nil }
        let late = mirror.pictures.watch()
        let saving = try #require(await picture(after: 0, of: mirror), "the viewer's arrival has the new screen drawn")
        #expect(saving.version > starting.version && saving.value != starting.value)
        late.end()
        await mirror.stop()
    }

    @Test("A picture of a screen without the camera is published twice, which a browser needs to show it; one of the preview once")
    func stillPictureTwice() async throws {
        let mirror = try ScreenMirror(width: 160, height: 120, keys: KeyLabels(view: "V"), logger: logger)
        mirror.show(.ready)
        mirror.showPreview(try ScreenFixtures.mjpegFrame(width: 160, height: 120))
        let watch = mirror.pictures.watch()
        let ready = try #require(await picture(after: 0, of: mirror))
        mirror.show(.saving)
        // The next frame replaces a preview's picture; a still one is published a second time.
        let saving = try #require(await picture(after: ready.version, of: mirror))
        #expect(saving.value != ready.value, "the preview's picture was not published again")
        try await waitUntil { mirror.pictures.latest?.version == ready.version + 2 }
        #expect(mirror.pictures.latest?.value == saving.value)
        watch.end()
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

/// Waits until `condition` holds, checking every few milliseconds; fails the test after a
/// minute, however loaded the machine.
func waitUntil(sourceLocation: SourceLocation = #_sourceLocation, _ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(60)
    while !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("the condition did not hold within a minute", sourceLocation: sourceLocation)
            throw CancellationError()
        }
        try await Task.sleep(for: .milliseconds(10))
    }
}
