import BoothCore
import CLinuxFB
import Foundation
import Logging
import Testing

@testable import BoothDevices
@testable import BoothScreen

@Suite("Screen framebuffer")
struct ScreenFramebufferTests {
    @Test(
        "RGB565 keeps the top bits of each channel",
        arguments: [
            PixelColor(red: 255, green: 0, blue: 0): UInt16(0xF800),
            PixelColor(red: 0, green: 255, blue: 0): 0x07E0,
            PixelColor(red: 0, green: 0, blue: 255): 0x001F,
            PixelColor.white: 0xFFFF,
            PixelColor.black: 0x0000,
            PixelColor(red: 128, green: 128, blue: 128): 0x8410,
            PixelColor(red: 255, green: 184, blue: 28): 0xFDC3,
        ])
    func rgb565(color: PixelColor, packed: UInt16) {
        #expect(FramebufferPixelFormat.rgb565(color.xrgb) == packed)
    }

    @Test(
        "A canvas is copied row by row, honouring the driver's row length",
        arguments: [
            FramebufferPixelFormat.xrgb8888, .rgb565,
        ])
    func copy(format: FramebufferPixelFormat) {
        var canvas = Canvas(width: 3, height: 2, color: .white)
        canvas.fill(PixelRect(x: 1, y: 1, width: 2, height: 1), with: PixelColor(red: 255, green: 0, blue: 0))
        let layout = FramebufferLayout(width: 3, height: 2, bytesPerRow: 16, format: format)
        var memory = [UInt8](repeating: 0xEE, count: 32)
        memory.withUnsafeMutableBytes { layout.copy(canvas, to: $0.baseAddress!) }
        func pixel(_ x: Int, _ y: Int) -> UInt32 {
            memory.withUnsafeBytes { raw in
                let offset = y * 16 + x * format.bytesPerPixel
                return format == .rgb565
                    ? UInt32(raw.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
                    : raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self) & 0x00FF_FFFF
            }
        }
        let (white, red): (UInt32, UInt32) = format == .rgb565 ? (0xFFFF, 0xF800) : (0xFF_FFFF, 0xFF_0000)
        #expect([pixel(0, 0), pixel(1, 0), pixel(2, 0), pixel(0, 1)] == [white, white, white, white])
        #expect([pixel(1, 1), pixel(2, 1)] == [red, red])
        #expect(memory[3 * format.bytesPerPixel..<16].allSatisfy { $0 == 0xEE }, "the row's padding is left alone")
    }

    @Test("The driver's pixel format is read from its bit fields")
    func formats() throws {
        var fixed = fb_fix_screeninfo()
        fixed.type = UInt32(FB_TYPE_PACKED_PIXELS)
        fixed.visual = UInt32(FB_VISUAL_TRUECOLOR)
        func screen(bits: UInt32, _ red: (UInt32, UInt32), _ green: (UInt32, UInt32), _ blue: (UInt32, UInt32)) -> fb_var_screeninfo {
            var screen = fb_var_screeninfo()
            screen.bits_per_pixel = bits
            screen.red = fb_bitfield(offset: red.0, length: red.1, msb_right: 0)
            screen.green = fb_bitfield(offset: green.0, length: green.1, msb_right: 0)
            screen.blue = fb_bitfield(offset: blue.0, length: blue.1, msb_right: 0)
            return screen
        }
        let xrgb = screen(bits: 32, (16, 8), (8, 8), (0, 8))
        #expect(try FramebufferPixelFormat(xrgb, fixed, device: "fb") == .xrgb8888)
        let rgb565 = screen(bits: 16, (11, 5), (5, 6), (0, 5))
        #expect(try FramebufferPixelFormat(rgb565, fixed, device: "fb") == .rgb565)
        let xbgr = screen(bits: 32, (0, 8), (8, 8), (16, 8))
        let error = #expect(throws: DeviceError.unsupported) { try FramebufferPixelFormat(xbgr, fixed, device: "/dev/fb1") }
        #expect(error?.description.contains("/dev/fb1 uses a pixel format") == true)
        #expect(error?.description.contains("32 bits per pixel, red 8 bits at 0") == true)
    }

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
