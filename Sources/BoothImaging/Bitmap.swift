/// How the bytes of one pixel are laid out.
package enum PixelFormat: Sendable, Hashable {
    /// Red, green, blue: 3 bytes per pixel.
    case rgb
    /// Blue, green, red, unused: 4 bytes per pixel, the layout of a 32-bit Linux framebuffer.
    case bgrx

    /// Bytes per pixel.
    package var bytesPerPixel: Int {
        switch self {
        case .rgb: 3
        case .bgrx: 4
        }
    }
}

/// Uncompressed pixels, rows top to bottom without padding.
package struct Bitmap: Sendable, Hashable {
    public let width: Int
    public let height: Int
    public let format: PixelFormat
    /// `width * height * format.bytesPerPixel` bytes.
    package var pixels: [UInt8]

    /// A bitmap over existing pixels.
    package init(width: Int, height: Int, format: PixelFormat, pixels: [UInt8]) {
        precondition(width > 0 && height > 0, "a bitmap needs at least one pixel")
        precondition(pixels.count == width * height * format.bytesPerPixel, "pixel buffer does not match the size")
        self.width = width
        self.height = height
        self.format = format
        self.pixels = pixels
    }

    /// A bitmap filled with black.
    package init(width: Int, height: Int, format: PixelFormat = .rgb) {
        self.init(
            width: width, height: height, format: format,
            pixels: [UInt8](repeating: 0, count: width * height * format.bytesPerPixel))
    }

    /// Bytes from the start of one row to the start of the next.
    package var bytesPerRow: Int { width * format.bytesPerPixel }
}
