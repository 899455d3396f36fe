import BoothCore
import Foundation

/// An animated GIF as the library meets it: an animation's original, a copy on its way out, one
/// brought from another booth. It reads the block structure (GIF89a, specification sections 17
/// to 27), the first frame's pixels (what a thumbnail and a check need) and every frame as a
/// screen plays them; and it writes a copy with the picture's XMP packet, as ``JPEGSegments``
/// does for a JPEG.
package struct GIFFile: Sendable {
    /// The canvas.
    package let width: Int
    package let height: Int
    /// How many images (frames) it has.
    package let frameCount: Int

    private let bytes: [UInt8]
    /// Where the blocks after the header and the global colour table begin.
    private let firstBlock: Int
    /// The global colour table, three bytes an entry; empty when it has none.
    private let globalTable: ArraySlice<UInt8>
    /// The images, in order, with what their graphic control extensions say of them.
    private let images: [ImageBlock]
    /// The XMP application extensions, as byte ranges.
    private let xmpBlocks: [Range<Int>]

    /// Whether `data` starts like a GIF.
    package static func isGIF(_ data: Data) -> Bool {
        data.starts(with: Array("GIF87a".utf8)) || data.starts(with: Array("GIF89a".utf8))
    }

    /// Reads the structure of `data`; throws when it is not a whole GIF.
    package init(_ data: Data) throws(ImageError) {
        guard Self.isGIF(data) else { throw ImageError.notJPEG.detailed("the data is not a GIF image") }
        let bytes = [UInt8](data)
        self.bytes = bytes
        var reader = BlockReader(bytes: bytes, position: 6)
        width = try reader.word()
        height = try reader.word()
        let flags = try reader.byte()
        reader.position += 2
        guard width > 0, height > 0 else { throw ImageError.malformed.detailed("the GIF's canvas is \(width)x\(height)") }
        let tableSize = flags & 0x80 != 0 ? 3 << ((flags & 7) + 1) : 0
        try reader.skip(tableSize)
        globalTable = bytes[(reader.position - tableSize)..<reader.position]
        firstBlock = reader.position
        var found: [ImageBlock] = []
        var control = GraphicControl()
        var xmp: [Range<Int>] = []
        scan: while true {
            let start = reader.position
            switch try reader.byte() {
            case 0x3B:
                break scan
            case 0x21:
                let label = try reader.byte()
                var identifier: ArraySlice<UInt8> = []
                if label == 0xFF {
                    let length = try reader.byte()
                    try reader.skip(length)
                    identifier = bytes[(reader.position - length)..<reader.position]
                } else if label == 0xF9 {
                    control = try GraphicControl(&reader)
                }
                // XMP's packet is not sub-blocks, but its magic trailer makes it read as such.
                try reader.skipSubBlocks()
                if identifier.elementsEqual("XMP DataXMP".utf8) { xmp.append(start..<reader.position) }
            case 0x2C:
                let rectangle = PixelRectangle(x: try reader.word(), y: try reader.word(), width: try reader.word(), height: try reader.word())
                let imageFlags = try reader.byte()
                if imageFlags & 0x80 != 0 { try reader.skip(3 << ((imageFlags & 7) + 1)) }
                _ = try reader.byte()
                try reader.skipSubBlocks()
                found.append(ImageBlock(range: start..<reader.position, rectangle: rectangle, control: control))
                // A graphic control extension applies to the one image after it.
                control = GraphicControl()
            case let other:
                throw ImageError.malformed.detailed("the GIF has an unknown block 0x\(String(other, radix: 16)) at byte \(start)")
            }
        }
        guard !found.isEmpty else { throw ImageError.malformed.detailed("the GIF has no image") }
        images = found
        frameCount = found.count
        xmpBlocks = xmp
    }

    /// The largest canvas read: a GIF that claims more (up to 65535x65535) would have the
    /// booth allocate gigabytes for one frame.
    package static let maximumPixels = 16_000_000

    /// The first frame, in the framebuffer's layout (`.bgrx`), on the canvas (what the frame
    /// does not cover is black).
    package func firstFrame() throws(ImageError) -> Bitmap {
        var canvas = try emptyCanvas()
        try draw(images[0], number: 1, on: &canvas)
        return canvas
    }

    /// The animation as a browser plays it, for a screen: each image drawn on the canvas over
    /// what the one before left (its transparent pixels show it; disposal 2 clears an image's
    /// rectangle to black after it, 3 puts back what was there), each frame shown for its delay
    /// (under 2 hundredths, which browsers take as "as fast as you can", a tenth of a second).
    ///
    /// Frames larger than `size` are made to fit it (never larger: the screen enlarges them as
    /// it draws). An image that covers the whole canvas without transparency is the same frame
    /// wherever its bytes come again (the way back of a boomerang): it is kept once. At most
    /// `byteLimit` bytes of frames are kept; a longer animation plays the part that fits.
    package func screenPicture(fitting size: PixelSize? = nil, byteLimit: Int = 64 << 20) throws(ImageError) -> ScreenPicture {
        var canvas = try emptyCanvas()
        var frames: [Bitmap] = []
        var sequence: [ScreenPicture.Step] = []
        var seen: [ArraySlice<UInt8>: Int] = [:]
        var bytesKept = 0
        for (number, image) in images.enumerated() {
            let duration = Duration.milliseconds(10 * (image.control.delay < 2 ? 10 : image.control.delay))
            let covers = image.covers(width: width, height: height)
            let data = bytes[image.range]
            if covers, let frame = seen[data] {
                sequence.append(ScreenPicture.Step(frame: frame, duration: duration))
                continue
            }
            let before = image.control.disposal == 3 ? canvas : nil
            let rectangle = try draw(image, number: number + 1, on: &canvas)
            var frame = canvas
            if let size, canvas.width > size.width || canvas.height > size.height {
                frame = canvas.fitted(within: size.width, size.height)
            }
            if bytesKept + frame.pixels.count > byteLimit, !frames.isEmpty { break }
            bytesKept += frame.pixels.count
            if covers { seen[data] = frames.count }
            sequence.append(ScreenPicture.Step(frame: frames.count, duration: duration))
            frames.append(frame)
            switch image.control.disposal {
            case 2: canvas.fill(rectangle, red: 0, green: 0, blue: 0)
            case 3: if let before { canvas = before }
            default: break
            }
        }
        return ScreenPicture(frames: frames, sequence: sequence)
    }

    /// A black canvas, or the error of a GIF too large to read.
    private func emptyCanvas() throws(ImageError) -> Bitmap {
        guard width * height <= Self.maximumPixels else {
            throw ImageError.undecodable.detailed("the GIF's canvas of \(width)x\(height) is larger than a booth shows")
        }
        var canvas = Bitmap(width: width, height: height, format: .bgrx)
        canvas.pixels.withUnsafeMutableBufferPointer { pixels in
            for alpha in stride(from: 3, to: pixels.count, by: 4) { pixels[alpha] = 255 }
        }
        return canvas
    }

    /// Draws `image` (the `number`th) on `canvas` (the GIF's size), its transparent pixels
    /// left as they are; returns the rectangle it covers, within the canvas.
    @discardableResult
    private func draw(_ image: ImageBlock, number: Int, on canvas: inout Bitmap) throws(ImageError) -> PixelRectangle {
        // After the descriptor's 0x2C and the rectangle ``init(_:)`` read.
        var reader = BlockReader(bytes: bytes, position: image.range.lowerBound + 9)
        let (left, top, frameWidth, frameHeight) = (image.rectangle.x, image.rectangle.y, image.rectangle.width, image.rectangle.height)
        let flags = try reader.byte()
        var table = globalTable
        if flags & 0x80 != 0 {
            let size = 3 << ((flags & 7) + 1)
            try reader.skip(size)
            table = bytes[(reader.position - size)..<reader.position]
        }
        guard !table.isEmpty else { throw ImageError.undecodable.detailed("the GIF's frame \(number) has no colour table") }
        guard frameWidth * frameHeight <= Self.maximumPixels else {
            throw ImageError.undecodable.detailed("the GIF's frame \(number) of \(frameWidth)x\(frameHeight) is larger than a booth shows")
        }
        let minimumCodeSize = try reader.byte()
        guard (2...8).contains(minimumCodeSize) else {
            throw ImageError.malformed.detailed("the GIF's frame \(number) has an LZW code size of \(minimumCodeSize)")
        }
        let indices = try LZWDecoder(minimumCodeSize: minimumCodeSize).decode(
            try reader.subBlocks(), count: frameWidth * frameHeight, frame: number)
        let interlaced = flags & 0x40 != 0
        let rows = interlaced ? Self.interlacedRows(frameHeight) : Array(0..<frameHeight)
        let entries = table.count / 3
        let transparent = image.control.transparent ?? -1
        let (width, height) = (self.width, self.height)
        canvas.pixels.withUnsafeMutableBufferPointer { pixels in
            for (sourceRow, row) in rows.enumerated() where top + row < height {
                for column in 0..<frameWidth where left + column < width {
                    let index = Int(indices[sourceRow * frameWidth + column])
                    guard index < entries, index != transparent else { continue }
                    let entry = table.startIndex + index * 3
                    let pixel = ((top + row) * width + left + column) * 4
                    pixels[pixel] = table[entry + 2]
                    pixels[pixel + 1] = table[entry + 1]
                    pixels[pixel + 2] = table[entry]
                }
            }
        }
        let x = min(left, width)
        let y = min(top, height)
        return PixelRectangle(x: x, y: y, width: min(frameWidth, width - x), height: min(frameHeight, height - y))
    }

    /// The rows of an interlaced image in the order they are stored: every 8th from 0, every
    /// 8th from 4, every 4th from 2, every 2nd from 1.
    private static func interlacedRows(_ height: Int) -> [Int] {
        Array(stride(from: 0, to: height, by: 8)) + Array(stride(from: 4, to: height, by: 8)) + Array(stride(from: 2, to: height, by: 4))
            + Array(stride(from: 1, to: height, by: 2))
    }

    /// A copy carrying `packet` as its only XMP: the application extension goes after the
    /// global colour table, in place of any XMP it had. Every other byte is as it was.
    package func tagged(with packet: String) -> Data {
        var result = Data(bytes[..<firstBlock])
        result.append(Self.xmpExtension(packet))
        var position = firstBlock
        for block in xmpBlocks {
            result.append(contentsOf: bytes[position..<block.lowerBound])
            position = block.upperBound
        }
        result.append(contentsOf: bytes[position...])
        return result
    }

    /// The XMP application extension: "XMP Data" / "XMP", the packet's bytes as they are, and
    /// the "magic trailer" of the XMP specification (part 3), 258 bytes that make a GIF
    /// reader that knows nothing of XMP skip the packet as if it were data sub-blocks.
    package static func xmpExtension(_ packet: String) -> Data {
        var block = Data([0x21, 0xFF, 0x0B])
        block.append(contentsOf: Array("XMP DataXMP".utf8))
        // A NUL byte would end the reader's skipping early; XML has none.
        block.append(contentsOf: Array(packet.utf8).filter { $0 != 0 })
        block.append(0x01)
        for byte in (0...255).reversed() { block.append(UInt8(byte)) }
        block.append(0x00)
        return block
    }
}

/// An image block (its descriptor to the end of its data), the rectangle of the canvas it
/// covers, and the graphic control that goes with it.
private struct ImageBlock {
    let range: Range<Int>
    let rectangle: PixelRectangle
    let control: GraphicControl

    /// Whether it paints every pixel of a `width` x `height` canvas: it covers it and has no
    /// transparency.
    func covers(width: Int, height: Int) -> Bool {
        control.transparent == nil && rectangle.x == 0 && rectangle.y == 0 && rectangle.width >= width && rectangle.height >= height
    }
}

/// What a graphic control extension says of the image after it.
private struct GraphicControl {
    /// Hundredths of a second the image stays.
    var delay = 0
    /// What becomes of its rectangle before the next image: 0 or 1 it stays, 2 it is cleared,
    /// 3 what was under it comes back.
    var disposal = 0
    /// The colour index that draws nothing.
    var transparent: Int?

    init() {}

    /// Reads the extension's block from `reader`, after its label; its terminator stays.
    init(_ reader: inout BlockReader) throws(ImageError) {
        let length = try reader.byte()
        guard length >= 4 else {
            try reader.skip(length)
            return
        }
        let flags = try reader.byte()
        delay = try reader.word()
        let index = try reader.byte()
        try reader.skip(length - 4)
        disposal = (flags >> 2) & 7
        transparent = flags & 1 != 0 ? index : nil
    }
}

/// A rectangle of a GIF's canvas.
private struct PixelRectangle {
    let x: Int
    let y: Int
    let width: Int
    let height: Int
}

extension Bitmap {
    /// Paints the rectangle of this `.bgrx` bitmap one colour.
    fileprivate mutating func fill(_ rectangle: PixelRectangle, red: UInt8, green: UInt8, blue: UInt8) {
        let rowLength = width
        pixels.withUnsafeMutableBufferPointer { pixels in
            for row in rectangle.y..<(rectangle.y + rectangle.height) {
                for column in rectangle.x..<(rectangle.x + rectangle.width) {
                    let pixel = (row * rowLength + column) * 4
                    pixels[pixel] = blue
                    pixels[pixel + 1] = green
                    pixels[pixel + 2] = red
                }
            }
        }
    }
}

/// Reads a GIF's bytes in order; every read past the end throws.
private struct BlockReader {
    let bytes: [UInt8]
    var position: Int

    mutating func byte() throws(ImageError) -> Int {
        guard position < bytes.count else { throw ImageError.truncated.detailed("the GIF ends at byte \(position), inside a block") }
        defer { position += 1 }
        return Int(bytes[position])
    }

    mutating func word() throws(ImageError) -> Int {
        let low = try byte()
        return low | (try byte()) << 8
    }

    mutating func skip(_ count: Int) throws(ImageError) {
        guard position + count <= bytes.count else { throw ImageError.truncated.detailed("the GIF ends at byte \(bytes.count), inside a block") }
        position += count
    }

    mutating func skipSubBlocks() throws(ImageError) {
        while true {
            let length = try byte()
            if length == 0 { return }
            try skip(length)
        }
    }

    mutating func subBlocks() throws(ImageError) -> [UInt8] {
        var data: [UInt8] = []
        while true {
            let length = try byte()
            if length == 0 { return data }
            try skip(length)
            data += bytes[(position - length)..<position]
        }
    }
}

/// GIF's variable-length LZW, decoded into a frame's colour indices. The dictionary is kept as
/// prefix links (each code: the code before it and its last byte), as encoders build it.
private struct LZWDecoder {
    let minimumCodeSize: Int

    /// The `count` colour indices of frame `frame` (its number, for messages) from `data`.
    func decode(_ data: [UInt8], count: Int, frame: Int) throws(ImageError) -> [UInt8] {
        let clear = 1 << minimumCodeSize
        let end = clear + 1
        var prefix = [Int](repeating: -1, count: 4096)
        var suffix = [UInt8](repeating: 0, count: 4096)
        var length = [Int](repeating: 1, count: 4096)
        for code in 0..<clear { suffix[code] = UInt8(code) }
        var next = end + 1
        var codeSize = minimumCodeSize + 1
        var previous = -1
        var output = [UInt8](repeating: 0, count: count)
        var written = 0
        var bits = 0
        var bitCount = 0
        var position = 0
        while written < count {
            while bitCount < codeSize {
                guard position < data.count else {
                    throw ImageError.truncated.detailed("the GIF's frame \(frame) ends after \(written) of its \(count) pixels")
                }
                bits |= Int(data[position]) << bitCount
                position += 1
                bitCount += 8
            }
            let code = bits & ((1 << codeSize) - 1)
            bits >>= codeSize
            bitCount -= codeSize
            if code == clear {
                next = end + 1
                codeSize = minimumCodeSize + 1
                previous = -1
                continue
            }
            if code == end { break }
            guard code < next || (code == next && previous >= 0) else {
                throw ImageError.malformed.detailed("the GIF's frame \(frame) has LZW code \(code) where \(next) is the next")
            }
            // A code not yet in the dictionary is the previous string and its own first byte.
            let known = code < next
            let string = known ? code : previous
            var first = string
            while prefix[first] >= 0 { first = prefix[first] }
            let stringLength = length[string] + (known ? 0 : 1)
            let start = written
            written = min(count, written + stringLength)
            var cursor = string
            var at = start + length[string] - 1
            while cursor >= 0 {
                if at < count { output[at] = suffix[cursor] }
                cursor = prefix[cursor]
                at -= 1
            }
            if !known, start + stringLength - 1 < count { output[start + stringLength - 1] = suffix[first] }
            if previous >= 0 && next < 4096 {
                prefix[next] = previous
                suffix[next] = suffix[first]
                length[next] = length[previous] + 1
                next += 1
                if next == 1 << codeSize && codeSize < 12 { codeSize += 1 }
            }
            previous = code
        }
        return output
    }
}
