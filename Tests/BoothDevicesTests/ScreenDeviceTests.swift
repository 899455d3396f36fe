import BoothCore
import CLinuxFB
import Foundation
import Testing

@testable import BoothDevices

@Suite("Screen render schedule")
struct ScreenScheduleTests {
    let start = MonotonicInstant(nanoseconds: 1_000_000_000)
    let interval = Duration.seconds(1) / 15

    func frame(_ sequence: UInt64) -> CameraFrame {
        CameraFrame(bytes: Data(), encoding: .mjpeg, width: 1, height: 1, timestamp: start, sequence: sequence)
    }

    @Test("The first screen and every content change are drawn at once")
    func contentAtOnce() {
        var schedule = RenderSchedule(previewInterval: interval)
        guard case .render(.starting, nil) = schedule.next(at: start) else {
            Issue.record("draws the first screen")
            return
        }
        guard case .sleep = schedule.next(at: start) else {
            Issue.record("nothing new: sleeps")
            return
        }
        let again = schedule.show(.starting)
        #expect(!again, "the same content again is nothing new")
        guard case .sleep = schedule.next(at: start) else {
            Issue.record("nothing new: sleeps")
            return
        }
        let changed = schedule.show(.naming(typed: "A", placeholder: .placeholder(number: 1)))
        #expect(changed, "new content wakes the thread")
        guard case .render(.naming, nil) = schedule.next(at: start) else {
            Issue.record("new content at once")
            return
        }
    }

    @Test("Preview frames are drawn at most once per interval, the latest one")
    func previewRate() {
        var schedule = RenderSchedule(previewInterval: interval)
        schedule.show(.ready)
        let firstWakes = schedule.receive(frame(1))
        #expect(firstWakes, "a frame for a sleeping thread wakes it")
        guard case .render(.ready, frame: let first?) = schedule.next(at: start) else {
            Issue.record("draws")
            return
        }
        #expect(first.sequence == 1)
        let secondWakes = schedule.receive(frame(2))
        let thirdWakes = schedule.receive(frame(3))
        #expect(secondWakes)
        #expect(!thirdWakes, "the thread already has a frame to wait for")
        let soon = start + .milliseconds(10)
        guard case .wait(until: let deadline) = schedule.next(at: soon) else {
            Issue.record("waits for the rate limit")
            return
        }
        #expect(deadline == start + interval)
        guard case .render(_, frame: let latest?) = schedule.next(at: deadline) else {
            Issue.record("draws")
            return
        }
        #expect(latest.sequence == 3, "frame 2 was replaced before it was drawn")
        guard case .sleep = schedule.next(at: deadline + interval) else {
            Issue.record("no frame: sleeps")
            return
        }
    }

    @Test("A content change draws at once, even within the preview interval, with the latest frame")
    func contentBeatsRateLimit() {
        var schedule = RenderSchedule(previewInterval: interval)
        schedule.show(.ready)
        schedule.receive(frame(1))
        _ = schedule.next(at: start)
        schedule.receive(frame(2))
        schedule.show(.countdown(secondsLeft: 3))
        guard case .render(.countdown(secondsLeft: 3), frame: let frame?) = schedule.next(at: start + .milliseconds(1)) else {
            Issue.record("draws the countdown at once")
            return
        }
        #expect(frame.sequence == 2)
    }

    @Test("Frames are not drawn on screens without a preview")
    func noPreviewScreens() {
        var schedule = RenderSchedule(previewInterval: interval)
        schedule.show(.saving)
        let wakes = schedule.receive(frame(1))
        #expect(!wakes, "no preview to draw it on: the thread sleeps on")
        guard case .render(.saving, nil) = schedule.next(at: start) else {
            Issue.record("draws saving")
            return
        }
        guard case .sleep = schedule.next(at: start + .seconds(1)) else {
            Issue.record("ignores the frame")
            return
        }
        // Back on the main screen, the frame kept is drawn at once.
        schedule.show(.ready)
        guard case .render(.ready, frame: _?) = schedule.next(at: start + .seconds(1)) else {
            Issue.record("draws it")
            return
        }
    }

    @Test("Stopping wins over anything left to draw")
    func stop() {
        var schedule = RenderSchedule(previewInterval: interval)
        schedule.show(.ready)
        schedule.stop()
        guard case .finish = schedule.next(at: start) else {
            Issue.record("finishes")
            return
        }
    }
}

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
            device: "/nonexistent/fb9", console: nil, viewKeyLabel: "View", logger: ScreenFixtures.logger)
        screen.show(.ready)
        await screen.stop()
    }

    @Test("Missing fonts stop the screen at once, even without a display to wait for")
    func missingFontsWithoutDisplay() {
        #expect(throws: DeviceError.unavailable) {
            try FramebufferScreen(
                device: "/nonexistent/fb9", console: nil, fonts: ScreenFonts("/nonexistent/font.ttf"),
                viewKeyLabel: "View", logger: ScreenFixtures.logger)
        }
    }
}
