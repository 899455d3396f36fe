import CLinuxFB

/// How a framebuffer stores a pixel: the two layouts the booth draws.
package enum FramebufferPixelFormat: Sendable, Hashable, CustomStringConvertible {
    /// 32 bits, `0xXXRRGGBB`: most HDMI displays, and the canvas's own layout.
    case xrgb8888
    /// 16 bits, 5 red, 6 green, 5 blue: small SPI displays and low-memory setups.
    case rgb565

    /// The format the driver reports; anything else is an error that says what it found.
    init(_ variable: fb_var_screeninfo, _ fixed: fb_fix_screeninfo, device: String) throws(DeviceError) {
        func holds(_ field: fb_bitfield, at offset: UInt32, bits length: UInt32) -> Bool {
            field.offset == offset && field.length == length && field.msb_right == 0
        }
        let packedTrueColour =
            fixed.type == FB_TYPE_PACKED_PIXELS && fixed.visual == FB_VISUAL_TRUECOLOR
            && variable.grayscale == 0 && variable.nonstd == 0
        if packedTrueColour, variable.bits_per_pixel == 32,
            holds(variable.red, at: 16, bits: 8), holds(variable.green, at: 8, bits: 8), holds(variable.blue, at: 0, bits: 8)
        {
            self = .xrgb8888
        } else if packedTrueColour, variable.bits_per_pixel == 16,
            holds(variable.red, at: 11, bits: 5), holds(variable.green, at: 5, bits: 6), holds(variable.blue, at: 0, bits: 5)
        {
            self = .rgb565
        } else {
            func describe(_ field: fb_bitfield) -> String { "\(field.length) bits at \(field.offset)" }
            throw DeviceError.unsupported.detailed(
                """
                \(device) uses a pixel format the booth does not draw: \(variable.bits_per_pixel) bits per pixel, \
                red \(describe(variable.red)), green \(describe(variable.green)), blue \(describe(variable.blue)) \
                (type \(fixed.type), visual \(fixed.visual)). The booth draws XRGB8888 (32 bits, red at 16, green at 8, \
                blue at 0) and RGB565 (16 bits, red at 11, green at 5, blue at 0); set the display to one of them \
                (for example with `fbset -depth 32`, or the kernel's `video=` option).
                """)
        }
    }

    package var description: String {
        switch self {
        case .xrgb8888: "XRGB8888"
        case .rgb565: "RGB565"
        }
    }

    package var bytesPerPixel: Int {
        switch self {
        case .xrgb8888: 4
        case .rgb565: 2
        }
    }

    /// An XRGB pixel in RGB565: the top 5, 6 and 5 bits of red, green and blue.
    static func rgb565(_ xrgb: UInt32) -> UInt16 {
        UInt16(truncatingIfNeeded: (xrgb >> 8) & 0xF800 | (xrgb >> 5) & 0x07E0 | (xrgb >> 3) & 0x001F)
    }
}

/// Where a framebuffer's picture lies in its memory and how its pixels are stored: what
/// copying a picture there needs to know, apart from the device. Public for the benchmark,
/// which measures the copy into memory of its own.
package struct FramebufferLayout: Sendable, Hashable {
    public let width: Int
    public let height: Int
    /// Bytes from one row to the next (the driver's `line_length`, which may include padding).
    package let bytesPerRow: Int
    public let format: FramebufferPixelFormat

    package init(width: Int, height: Int, bytesPerRow: Int, format: FramebufferPixelFormat) {
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.format = format
    }

    /// Copies a picture of `pixelWidth` by `pixelHeight` pixels (`0xXXRRGGBB` each, rows top
    /// to bottom, as the booth's canvas holds them) into the picture starting at `base`,
    /// converting the pixels, row by row in one pass. A picture of another size is clipped.
    package func copy(xrgb pixels: [UInt32], width pixelWidth: Int, height pixelHeight: Int, to base: UnsafeMutableRawPointer) {
        precondition(pixels.count >= pixelWidth * pixelHeight, "fewer pixels than the picture's size")
        let columns = min(width, pixelWidth)
        pixels.withUnsafeBufferPointer { pixels in
            for row in 0..<min(height, pixelHeight) {
                let source = pixels.baseAddress! + row * pixelWidth
                let target = base + row * bytesPerRow
                switch format {
                case .xrgb8888:
                    target.copyMemory(from: source, byteCount: columns * 4)
                case .rgb565:
                    for column in 0..<columns {
                        target.storeBytes(
                            of: FramebufferPixelFormat.rgb565(source[column]), toByteOffset: column * 2, as: UInt16.self)
                    }
                }
            }
        }
    }
}
