import BoothCore
import BoothDevices
import BoothScreen
import Foundation
import Logging
import Testing

@testable import BoothService

@Suite("Display screen")
struct DisplayScreenTests {
    @Test("No framebuffer yet (no display at boot): the check names it; the screen starts, waits and stops")
    func missingDevice() async throws {
        let error = #expect(throws: DeviceError.disconnected) { try DisplayScreen.check(device: "/nonexistent/fb9") }
        #expect(error?.description.contains("/nonexistent/fb9") == true)
        let screen = try DisplayScreen(
            device: "/nonexistent/fb9", console: nil, keys: KeyLabels(view: "View"), logger: Logger(label: "display-tests"))
        screen.show(.ready)
        await screen.stop()
    }

    @Test("No KMS card yet (its driver not loaded): the check says so; the screen starts, waits and stops")
    func missingCard() async throws {
        let error = #expect(throws: DeviceError.disconnected) { try DisplayScreen.check(device: "/dev/dri/nonexistent-card9") }
        #expect(error?.description.contains("/dev/dri/nonexistent-card9") == true)
        let screen = try DisplayScreen(
            device: "/dev/dri/nonexistent-card9", console: nil, keys: KeyLabels(view: "View"), logger: Logger(label: "display-tests"))
        screen.show(.ready)
        await screen.stop()
    }

    @Test("auto takes the KMS card that drives displays; a folder with none (files, a render-only card) leaves the framebuffer")
    func automaticDevice() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dri-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Files named like cards are not KMS cards: no display resources to read.
        try Data().write(to: folder.appendingPathComponent("card0"))
        try Data().write(to: folder.appendingPathComponent("renderD128"))
        #expect(KMSDisplay.findCard(in: folder.path) == nil)
        #expect(DisplayScreen.resolve("/dev/fb1") == "/dev/fb1")
        #expect(DisplayScreen.resolve("/dev/dri/card3") == "/dev/dri/card3")
        if !FileManager.default.fileExists(atPath: "/dev/dri") {
            #expect(DisplayScreen.resolve("auto") == "/dev/fb0")
        }
    }

    @Test("Missing fonts stop the screen at once, even without a display to wait for")
    func missingFontsWithoutDisplay() {
        #expect(throws: DeviceError.unavailable) {
            try DisplayScreen(
                device: "/nonexistent/fb9", console: nil, fonts: ScreenFonts("/nonexistent/font.ttf"),
                keys: KeyLabels(view: "View"), logger: Logger(label: "display-tests"))
        }
    }
}
