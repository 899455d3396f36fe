import CPNG
import Foundation

/// A picture with transparency, such as a layout's overlay: the event's frame, a logo.
///
/// Its bitmap has the framebuffer's byte order (`.bgrx`) with the alpha in the fourth byte,
/// and colours premultiplied by it, so that scaling mixes colour and coverage alike and laying
/// it over a picture is one multiply per channel.
package struct TranslucentPicture: Sendable, Hashable {
    /// Blue, green, red premultiplied by alpha, and alpha.
    package var bitmap: Bitmap

    package var width: Int { bitmap.width }
    package var height: Int { bitmap.height }

    /// The largest PNG read, in pixels: 8000x8000 is more than a layout's largest canvas.
    package static let maximumPixels = 64_000_000

    /// Decodes the PNG `data` (any colour type and depth libpng reads, with its transparency).
    /// The corresponding C functions are libpng's simplified `png_image_begin_read_from_memory`
    /// and `png_image_finish_read`.
    package init(png data: Data) throws(ImageError) {
        var image = png_image()
        image.version = cpng_image_version()
        defer { png_image_free(&image) }
        let begun = data.withUnsafeBytes { raw in png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count) }
        guard begun != 0 else { throw Self.failure(&image, "not a PNG libpng can read") }
        let width = Int(image.width)
        let height = Int(image.height)
        guard width > 0, height > 0, width * height <= Self.maximumPixels else {
            throw ImageError.undecodable.detailed("the PNG claims \(width)x\(height) pixels, more than a layout can use")
        }
        image.format = cpng_format_bgra()
        var finished: Int32 = 0
        var pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
            finished = data.withUnsafeBytes { _ in png_image_finish_read(&image, nil, buffer.baseAddress, 0, nil) }
            count = buffer.count
        }
        guard finished != 0, cpng_image_failed(&image) == 0 else { throw Self.failure(&image, "the PNG's pixels cannot be read") }
        Self.premultiply(&pixels)
        bitmap = Bitmap(width: width, height: height, format: .bgrx, pixels: pixels)
    }

    /// Reads the PNG file at `path`.
    package init(pngFile path: String) throws(ImageError) {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ImageError.undecodable.detailed("cannot read \(path): \((error as NSError).localizedDescription)")
        }
        try self.init(png: data)
    }

    /// A picture of `bitmap`'s pixels, premultiplied already.
    package init(premultiplied bitmap: Bitmap) {
        precondition(bitmap.format == .bgrx, "a translucent picture has four bytes per pixel")
        self.bitmap = bitmap
    }

    /// This picture at exactly `width` x `height`: box-filtered where it shrinks, interpolated
    /// where it grows.
    package func stretched(toWidth width: Int, height: Int) -> TranslucentPicture {
        TranslucentPicture(premultiplied: bitmap.scaled(toWidth: width, height: height))
    }

    /// The picture as a PNG with its transparency (colours no longer premultiplied). The
    /// corresponding C function is libpng's simplified `png_image_write_to_memory`.
    package func png() throws(ImageError) -> Data {
        var straight = bitmap.pixels
        straight.withUnsafeMutableBufferPointer { bytes in
            for pixel in stride(from: 0, to: bytes.count, by: 4) {
                let alpha = UInt32(bytes[pixel + 3])
                guard alpha > 0, alpha < 255 else { continue }
                for channel in 0..<3 {
                    bytes[pixel + channel] = UInt8(min(255, (UInt32(bytes[pixel + channel]) * 255 + alpha / 2) / alpha))
                }
            }
        }
        var image = png_image()
        image.version = cpng_image_version()
        image.width = UInt32(width)
        image.height = UInt32(height)
        image.format = cpng_format_bgra()
        defer { png_image_free(&image) }
        var size = 0
        // The first call measures, the second writes.
        let measured = straight.withUnsafeBytes { raw in png_image_write_to_memory(&image, nil, &size, 0, raw.baseAddress, 0, nil) }
        guard measured != 0, size > 0 else { throw Self.failure(&image, "cannot measure the PNG").asUnencodable }
        var written: Int32 = 0
        let data = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            written = straight.withUnsafeBytes { raw in png_image_write_to_memory(&image, buffer.baseAddress, &size, 0, raw.baseAddress, 0, nil) }
            count = written != 0 ? size : 0
        }
        guard written != 0 else { throw Self.failure(&image, "cannot write the PNG").asUnencodable }
        return Data(data)
    }

    private static func premultiply(_ pixels: inout [UInt8]) {
        pixels.withUnsafeMutableBufferPointer { bytes in
            for pixel in stride(from: 0, to: bytes.count, by: 4) {
                let alpha = UInt32(bytes[pixel + 3])
                guard alpha < 255 else { continue }
                for channel in 0..<3 {
                    bytes[pixel + channel] = UInt8((UInt32(bytes[pixel + channel]) * alpha + 127) / 255)
                }
            }
        }
    }

    private static func failure(_ image: inout png_image, _ fallback: String) -> ImageError {
        let message = withUnsafeBytes(of: &image.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return ImageError.undecodable.detailed("PNG: \(message.isEmpty ? fallback : message)")
    }
}

extension ImageError {
    /// The same detail as a failure to encode.
    fileprivate var asUnencodable: ImageError { ImageError.unencodable.detailed(detail) }
}
