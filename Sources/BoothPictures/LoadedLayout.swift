import BoothImaging
import BoothScreen
import Foundation

/// A layout with the pictures it names read and scaled to its canvas: its background and its
/// overlay. It is made when the booth starts or reloads its configuration, never per picture,
/// and it is what the screen draws over the live preview so that guests pose inside the frame.
package struct LoadedLayout: Sendable {
    package let layout: Layout
    /// The background picture at the canvas's size; `nil` for a background colour.
    package let background: Bitmap?
    /// The overlay at the canvas's size.
    package let overlay: TranslucentPicture?

    /// Reads what `layout` names. A picture that cannot be read is an error naming the layout
    /// and the file.
    package init(_ layout: Layout) throws(LayoutError) {
        self.layout = layout
        switch layout.background {
        case .color:
            background = nil
        case .image(let path):
            background = try Self.opaque(Self.picture(at: path, of: layout), over: .white)
        }
        overlay = try layout.overlay.map { (path) throws(LayoutError) in try Self.picture(at: path, of: layout) }
    }

    /// For each slot, the part of the overlay over it: what the live preview shows for that
    /// shot, so that guests pose inside the frame; `nil` for a slot the overlay leaves clear.
    package var poseGuides: [TranslucentPicture?] {
        layout.slots.map { slot in
            guard let overlay else { return nil }
            let x = max(0, slot.x)
            let y = max(0, slot.y)
            let width = min(slot.x + slot.width, layout.width) - x
            let height = min(slot.y + slot.height, layout.height) - y
            guard width > 0, height > 0 else { return nil }
            let part = overlay.bitmap.cropped(x: x, y: y, width: width, height: height)
            let covers = part.pixels.withUnsafeBufferPointer { bytes in stride(from: 3, to: bytes.count, by: 4).contains { bytes[$0] > 0 } }
            return covers ? TranslucentPicture(premultiplied: part) : nil
        }
    }

    /// The layout named `name`: a built-in one, or the layout file at that path (`.yaml`).
    package static func named(_ name: String) throws(LayoutError) -> LoadedLayout {
        if let builtIn = Layout.builtIn(named: name) { return try LoadedLayout(builtIn) }
        guard name.hasSuffix(".yaml") || name.hasSuffix(".yml") || name.contains("/") else {
            throw LayoutError(
                .unknownLayout,
                "there is no layout called \"\(name)\"; use one of \(Layout.builtIn.map(\.name).joined(separator: ", ")) or the path of a layout file (.yaml)."
            )
        }
        return try LoadedLayout(LayoutFile.read(name))
    }

    /// The JPEG or PNG at `path`, stretched to the layout's canvas.
    private static func picture(at path: String, of layout: Layout) throws(LayoutError) -> TranslucentPicture {
        let picture: TranslucentPicture
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            if data.starts(with: [0xFF, 0xD8]) {
                let decoded = try JPEGDecoder().decode(data, format: .bgrx)
                picture = TranslucentPicture(premultiplied: opaque(decoded))
            } else {
                picture = try TranslucentPicture(png: data)
            }
        } catch let error as ImageError {
            throw LayoutError(.badFile, "layout \(layout.name): \(path): \(error)")
        } catch {
            throw LayoutError(.badFile, "layout \(layout.name): cannot read \(path): \((error as NSError).localizedDescription)")
        }
        return picture.stretched(toWidth: layout.width, height: layout.height)
    }

    /// `bitmap` (`.bgrx`) with its unused byte set to full alpha.
    private static func opaque(_ bitmap: Bitmap) -> Bitmap {
        var result = bitmap
        result.pixels.withUnsafeMutableBufferPointer { bytes in
            for alpha in stride(from: 3, to: bytes.count, by: 4) { bytes[alpha] = 255 }
        }
        return result
    }

    /// `picture` laid over `color`: a background shows no transparency.
    private static func opaque(_ picture: TranslucentPicture, over color: PixelColor) -> Bitmap {
        var result = picture.bitmap
        let under = [color.blue, color.green, color.red].map(UInt32.init)
        result.pixels.withUnsafeMutableBufferPointer { bytes in
            for pixel in stride(from: 0, to: bytes.count, by: 4) {
                let keep = 255 - UInt32(bytes[pixel + 3])
                for channel in 0..<3 {
                    bytes[pixel + channel] = UInt8(UInt32(bytes[pixel + channel]) + (under[channel] * keep + 127) / 255)
                }
                bytes[pixel + 3] = 255
            }
        }
        return result
    }
}
