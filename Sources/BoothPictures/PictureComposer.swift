import BoothImaging
import BoothScreen
import Foundation
import Synchronization

/// Composes pictures in one layout: the background, each shot in its slot, the texts with their
/// blanks filled, the overlay on top; then the JPEG.
///
/// A composer is made once per layout, when the booth starts or reloads, and loads its fonts
/// then. It is used by one thread at a time (FreeType's faces are not thread-safe), the
/// composing thread off the capture path; it is not `Sendable`.
package final class PictureComposer {
    package let layout: LoadedLayout
    /// The font of each text item, in order.
    private let fonts: [FontFace]
    private let encoder: JPEGEncoder
    /// Where the shots are decoded, from one picture to the next.
    private let memory: DecodeMemory

    /// The JPEG quality of composed pictures: as the camera's shots are saved.
    package static let quality = 90

    /// A composer of `layout`, its texts in `defaultFont` unless they name their own; it decodes
    /// shots into `memory`, which whoever tidies the booth's memory lets go of when it is idle.
    package init(_ layout: LoadedLayout, defaultFont: String, memory: DecodeMemory = DecodeMemory()) throws(LayoutError) {
        self.layout = layout
        self.memory = memory
        var faces: [String: FontFace] = [:]
        var fonts: [FontFace] = []
        for item in layout.layout.texts {
            let path = item.font ?? defaultFont
            if let face = faces[path] {
                fonts.append(face)
                continue
            }
            do {
                let face = try FontFace(path: path)
                faces[path] = face
                fonts.append(face)
            } catch {
                throw LayoutError(.badFile, "layout \(layout.layout.name): \(error)")
            }
        }
        self.fonts = fonts
        do {
            encoder = try JPEGEncoder()
        } catch {
            throw LayoutError(.badFile, "layout \(layout.layout.name): TurboJPEG cannot start: \(error)")
        }
    }

    /// The picture made of `shots` (JPEGs, in the order they were taken) with the texts'
    /// blanks filled from `blanks`, as a canvas. A slot without a shot shows the background.
    package func canvas(shots: [Data], blanks: [TextBlank: String]) throws(ImageError) -> Canvas {
        compose(try Self.fitted(shots, into: layout.layout.slots, memory: memory), blanks: blanks)
    }

    /// Each of `shots` decoded and fitted to its slot, the shots decoded side by side on the
    /// machine's cores.
    ///
    /// Decoding is most of a collage's work, and nearly all of it is reading the JPEG's
    /// entropy-coded data, which no scaling shortens (a 1080p shot takes about 5 ms here at any
    /// scale): four shots one after another would take longer than the rest of the picture
    /// twice over. Each decode has its own TurboJPEG handle; the threads are the system's
    /// (Dispatch's), not Swift's cooperative pool, and the call returns when all are done.
    ///
    /// The decoding threads write into `memory`, which this thread owns and keeps from one
    /// picture to the next, and this thread fits the pictures: memory a Dispatch thread
    /// allocated stays resident at the top of its malloc arena once freed (`malloc_trim` trims
    /// only the main arena's top: 17 MiB a minute after 50 strips), while fresh memory for each
    /// picture costs as much in the kernel's page faults as the decoding saves.
    package static func fitted(_ shots: [Data], into slots: [PhotoSlot], memory: DecodeMemory) throws(ImageError) -> [Bitmap] {
        let count = min(shots.count, slots.count)
        let decoder = try JPEGDecoder()
        var plans: [(scale: ScalingFactor, width: Int, height: Int, offset: Int)] = []
        var total = 0
        for index in 0..<count {
            let scale = ShotFitting.decodeScale(of: try decoder.header(of: shots[index]), for: slots[index])
            let (width, height) = try decoder.decodedSize(of: shots[index], scale: scale)
            plans.append((scale, width, height, total))
            total += width * height * 4
        }
        let planned = plans
        return try memory.withBytes(count: total) { (buffer) throws(ImageError) -> [Bitmap] in
            let failure = Mutex<ImageError?>(nil)
            // Each decode writes its own part of the buffer, which outlives them all.
            nonisolated(unsafe) let start = buffer.baseAddress!
            DispatchQueue.concurrentPerform(iterations: count) { index in
                let plan = planned[index]
                do throws(ImageError) {
                    try JPEGDecoder().decode(
                        shots[index], scale: plan.scale, format: .bgrx,
                        into: UnsafeMutableBufferPointer(start: start + plan.offset, count: plan.width * plan.height * 4))
                } catch {
                    failure.withLock { $0 = $0 ?? error }
                }
            }
            if let error = failure.withLock({ $0 }) { throw error }
            return planned.enumerated().map { index, plan in
                let decoded = Bitmap(
                    width: plan.width, height: plan.height, format: .bgrx,
                    pixels: Array(buffer[plan.offset..<(plan.offset + plan.width * plan.height * 4)]))
                return ShotFitting.picture(decoded, for: slots[index])
            }
        }
    }

    /// The picture made of `shots` as a JPEG at ``quality``.
    package func jpeg(shots: [Data], blanks: [TextBlank: String]) throws(ImageError) -> Data {
        try encoder.encode(canvas(shots: shots, blanks: blanks).bitmap, quality: Self.quality)
    }

    /// The layout drawn with `pictures`, each already at its slot's size (``ShotFitting``).
    package func compose(_ pictures: [Bitmap], blanks: [TextBlank: String]) -> Canvas {
        let layout = layout.layout
        var canvas: Canvas
        if let background = self.layout.background {
            canvas = Canvas(width: layout.width, height: layout.height)
            canvas.draw(background, atX: 0, y: 0)
        } else if case .color(let color) = layout.background {
            canvas = Canvas(width: layout.width, height: layout.height, color: color)
        } else {
            canvas = Canvas(width: layout.width, height: layout.height, color: .white)
        }
        for (slot, picture) in zip(layout.slots, pictures) {
            if slot.rotation == 0 {
                canvas.draw(picture, atX: slot.x + (slot.width - picture.width) / 2, y: slot.y + (slot.height - picture.height) / 2)
            } else {
                let turned = RotatedPicture.turn(picture, degrees: slot.rotation)
                canvas.draw(
                    turned.picture, atX: slot.x + slot.width / 2 - turned.centreX, y: slot.y + slot.height / 2 - turned.centreY)
            }
        }
        for (item, font) in zip(layout.texts, fonts) {
            draw(item, in: font, on: &canvas, blanks: blanks)
        }
        if let overlay = self.layout.overlay {
            canvas.draw(overlay, atX: 0, y: 0)
        }
        return canvas
    }

    /// Draws one text item: its blanks filled, set smaller (down to a third) until it fits
    /// its box, shortened with an ellipsis if even that is too wide.
    private func draw(_ item: TextItem, in font: FontFace, on canvas: inout Canvas, blanks: [TextBlank: String]) {
        let text = TextBlank.fill(item.text, with: blanks).trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return }
        // A glyph FreeType cannot render leaves the text out rather than the whole picture.
        guard let line = try? font.line(text, size: item.size, minimumSize: max(4, item.size / 3), maxWidth: item.width),
            let ascent = try? font.ascent(size: line.size)
        else { return }
        let x =
            switch item.alignment {
            case .left: item.x
            case .center: item.x + (item.width - line.width) / 2
            case .right: item.x + item.width - line.width
            }
        canvas.draw(line, atX: x, baseline: item.y + ascent, color: item.color)
    }
}

/// The memory a composer decodes a picture's shots into, kept from one picture to the next:
/// fresh memory for each picture would cost as much in page faults as decoding side by side
/// saves. The booth lets go of it once idle (``release()``). It is mapped from the kernel
/// itself rather than taken from malloc: the composing thread's malloc arena would keep it
/// resident after it is freed (malloc trims only the main arena's top), 8 MiB for a strip of
/// 1080p shots.
package final class DecodeMemory: Sendable {
    private struct Mapping {
        var address: UnsafeMutableRawPointer?
        var length = 0
    }

    private let mapping = Mutex(Mapping())

    package init() {}

    deinit { release() }

    /// Runs `body` with `count` bytes of the memory, mapped larger when it is smaller. The
    /// corresponding C function is `mmap`.
    func withBytes<Result: Sendable>(
        count: Int, _ body: (UnsafeMutableBufferPointer<UInt8>) throws(ImageError) -> Result
    ) throws(ImageError) -> Result {
        try mapping.withLock { (mapping) throws(ImageError) -> Result in
            if mapping.length < count {
                if let address = mapping.address { munmap(address, mapping.length) }
                mapping = Mapping()
                let address = mmap(nil, count, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
                guard let address, address != MAP_FAILED else {
                    throw ImageError.undecodable.detailed(
                        "no memory for the shots' pixels (\(count / 1_048_576) MiB): \(String(cString: strerror(errno)))")
                }
                mapping = Mapping(address: address, length: count)
            }
            let start = mapping.address!.bindMemory(to: UInt8.self, capacity: count)
            return try body(UnsafeMutableBufferPointer(start: start, count: count))
        }
    }

    /// Gives the memory back to the kernel (megabytes for a strip of 1080p shots). The
    /// corresponding C function is `munmap`.
    package func release() {
        mapping.withLock { mapping in
            if let address = mapping.address { munmap(address, mapping.length) }
            mapping = Mapping()
        }
    }
}
