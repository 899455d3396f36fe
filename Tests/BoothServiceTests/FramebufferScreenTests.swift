import BoothCore
import BoothDevices
import BoothScreen
import Logging
import Testing

@testable import BoothService

@Suite("Framebuffer screen")
struct FramebufferScreenTests {
    @Test("No framebuffer yet (no display at boot): the check names it; the screen starts, waits and stops")
    func missingDevice() async throws {
        let error = #expect(throws: DeviceError.disconnected) { try FramebufferScreen.check(device: "/nonexistent/fb9") }
        #expect(error?.description.contains("/nonexistent/fb9") == true)
        let screen = try FramebufferScreen(
            device: "/nonexistent/fb9", console: nil, keys: KeyLabels(view: "View"), logger: Logger(label: "framebuffer-tests"))
        screen.show(.ready)
        await screen.stop()
    }

    @Test("Missing fonts stop the screen at once, even without a display to wait for")
    func missingFontsWithoutDisplay() {
        #expect(throws: DeviceError.unavailable) {
            try FramebufferScreen(
                device: "/nonexistent/fb9", console: nil, fonts: ScreenFonts("/nonexistent/font.ttf"),
                keys: KeyLabels(view: "View"), logger: Logger(label: "framebuffer-tests"))
        }
    }
}
