import BoothCore
import CLinuxFB
import Foundation
import Logging
import Testing

@testable import BoothDevices

@Suite("Screen framebuffer")
struct ScreenFramebufferTests {
    @Test(
        "RGB565 keeps the top bits of each channel",
        arguments: [
            UInt32(0xFFFF_0000): UInt16(0xF800),
            0xFF00_FF00: 0x07E0,
            0xFF00_00FF: 0x001F,
            0xFFFF_FFFF: 0xFFFF,
            0xFF00_0000: 0x0000,
            0xFF80_8080: 0x8410,
            0xFFFF_B81C: 0xFDC3,
        ])
    func rgb565(xrgb: UInt32, packed: UInt16) {
        #expect(FramebufferPixelFormat.rgb565(xrgb) == packed)
    }

    @Test(
        "A picture is copied row by row, honouring the driver's row length",
        arguments: [
            FramebufferPixelFormat.xrgb8888, .rgb565,
        ])
    func copy(format: FramebufferPixelFormat) {
        // White, with the bottom row's last two pixels red.
        let pixels: [UInt32] = [0xFFFF_FFFF, 0xFFFF_FFFF, 0xFFFF_FFFF, 0xFFFF_FFFF, 0xFFFF_0000, 0xFFFF_0000]
        let layout = FramebufferLayout(width: 3, height: 2, bytesPerRow: 16, format: format)
        var memory = [UInt8](repeating: 0xEE, count: 32)
        memory.withUnsafeMutableBytes { layout.copy(xrgb: pixels, width: 3, height: 2, to: $0.baseAddress!) }
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
}
