import BoothSystem
import CLinuxFB
import Foundation
import Logging
import SystemPackage

/// A Linux framebuffer device (`/dev/fb0`), mapped into memory.
///
/// The size and pixel format come from the driver. A finished picture is copied in one pass;
/// when the driver offers a second page (`yres_virtual` at least twice `yres`), the copy goes
/// to the hidden page and the display pans to it, so no half-copied picture is ever shown.
/// The framebuffer owns its descriptor and mapping and releases them exactly once, when it is
/// dropped.
package struct Framebuffer: ~Copyable {
    public let device: String
    public let layout: FramebufferLayout
    private let descriptor: FileDescriptor
    /// The mapping as mmap returned it, and where the pixels start within it.
    private let mapping: UnsafeMutableRawPointer
    private let memory: UnsafeMutableRawPointer
    private let mappedLength: Int
    /// The driver's screen information, kept to pan between pages.
    private var screen: fb_var_screeninfo
    /// The page the display showed when the booth started, restored at the end.
    private let originalYOffset: UInt32
    /// Where each page's picture starts in the mapping: two pages to flip between, or only the
    /// visible one.
    private var pages: [Int]
    private var shownPage = 0
    private let logger: Logger

    /// Opens and maps `device`. The corresponding C calls are `open`,
    /// `ioctl(FBIOGET_FSCREENINFO)`, `ioctl(FBIOGET_VSCREENINFO)` and `mmap`.
    package init(device: String = "/dev/fb0", logger: Logger) throws(DeviceError) {
        // No node: no display yet (a Pi's KMS driver makes /dev/fb0 once one is connected).
        let descriptor = try DisplayNode.open(device, missing: "Is a display connected, and its driver loaded?")
        var fixed = fb_fix_screeninfo()
        var screen = fb_var_screeninfo()
        let layout: FramebufferLayout
        do throws(DeviceError) {
            try Self.control(descriptor, FBIOGET_FSCREENINFO, &fixed, "FBIOGET_FSCREENINFO", device)
            try Self.control(descriptor, FBIOGET_VSCREENINFO, &screen, "FBIOGET_VSCREENINFO", device)
            layout = FramebufferLayout(
                width: Int(screen.xres), height: Int(screen.yres), bytesPerRow: Int(fixed.line_length),
                format: try FramebufferPixelFormat(screen, fixed, device: device))
            let visibleEnd = (Int(screen.yoffset) + layout.height) * layout.bytesPerRow
            guard layout.width > 0, layout.height > 0, layout.bytesPerRow >= layout.width * layout.format.bytesPerPixel,
                visibleEnd <= Int(fixed.smem_len)
            else {
                throw DeviceError.unsupported.detailed(
                    "\(device) reports an inconsistent geometry: \(screen.xres)x\(screen.yres) pixels, \(fixed.line_length) bytes per row, \(fixed.smem_len) bytes of memory."
                )
            }
        } catch {
            try? descriptor.close()
            throw error
        }
        // The kernel maps from the page that holds smem_start; the pixels begin that far into it.
        let pageOffset = Int(fixed.smem_start) & (Int(getpagesize()) - 1)
        let mappedLength = pageOffset + Int(fixed.smem_len)
        let mapping = mmap(nil, mappedLength, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor.rawValue, 0)
        guard let mapping, mapping != UnsafeMutableRawPointer(bitPattern: -1) else {
            let code = Errno.lastError
            try? descriptor.close()
            throw DeviceError.systemCall("mmap", on: device, errno: code)
        }
        self.device = device
        self.layout = layout
        self.descriptor = descriptor
        self.mapping = mapping
        self.memory = mapping + pageOffset
        self.mappedLength = mappedLength
        self.screen = screen
        self.logger = logger
        originalYOffset = screen.yoffset
        let pageLength = layout.height * layout.bytesPerRow
        // Two pages only where the driver can pan between them (ypanstep 0 means it cannot).
        if fixed.ypanstep != 0, Int(screen.yres_virtual) >= 2 * layout.height, 2 * pageLength <= Int(fixed.smem_len) {
            pages = [0, pageLength]
            shownPage = screen.yoffset == screen.yres ? 1 : 0
        } else {
            pages = [Int(screen.yoffset) * layout.bytesPerRow + Int(screen.xoffset) * layout.format.bytesPerPixel]
        }
    }

    deinit {
        if screen.yoffset != originalYOffset {
            var original = screen
            original.yoffset = originalYOffset
            _ = try? SystemCall.retrying { ioctl(descriptor.rawValue, UInt(FBIOPAN_DISPLAY), &original) }
        }
        munmap(mapping, mappedLength)
        try? descriptor.close()
    }

    /// Whether frames are drawn into a hidden page and then shown by panning.
    var flipsPages: Bool { pages.count == 2 }

    /// What the booth draws on, for logs: "/dev/fb0: 1920x1080 XRGB8888, two pages".
    package var summary: String {
        "\(device): \(layout.width)x\(layout.height) \(layout.format), \(flipsPages ? "two pages" : "one page")"
    }

    /// Shows a picture of `width` by `height` pixels (`0xXXRRGGBB` each, rows top to bottom):
    /// copies it to the hidden page and pans there, or, with a single page, copies it straight
    /// to the screen in one pass. The corresponding C call is `ioctl(FBIOPAN_DISPLAY)`, which
    /// some drivers make wait for the next vertical blank.
    package mutating func present(xrgb pixels: [UInt32], width: Int, height: Int) {
        guard flipsPages else {
            layout.copy(xrgb: pixels, width: width, height: height, to: memory + pages[0])
            return
        }
        let hidden = 1 - shownPage
        layout.copy(xrgb: pixels, width: width, height: height, to: memory + pages[hidden])
        screen.xoffset = 0
        screen.yoffset = UInt32(hidden * layout.height)
        do {
            try SystemCall.retrying { ioctl(descriptor.rawValue, UInt(FBIOPAN_DISPLAY), &screen) }
            shownPage = hidden
        } catch {
            logger.warning("\(device): FBIOPAN_DISPLAY failed: \(error). Drawing straight to the screen from now on.")
            screen.yoffset = UInt32(shownPage * layout.height)
            pages = [pages[shownPage]]
            layout.copy(xrgb: pixels, width: width, height: height, to: memory + pages[0])
        }
    }

    /// Reads one of the driver's screen descriptions. The corresponding C function is `ioctl`.
    private static func control<Info: BitwiseCopyable>(
        _ descriptor: FileDescriptor, _ request: Int32, _ info: inout Info, _ name: String, _ device: String
    ) throws(DeviceError) {
        do {
            try SystemCall.retrying { ioctl(descriptor.rawValue, UInt(request), &info) }
        } catch {
            throw DeviceError.systemCall("ioctl(\(name))", on: device, errno: error)
        }
    }
}
