import BoothCore
import Foundation

/// An animated GIF as the library meets it: an animation's original, a copy on its way out, one
/// brought from another booth. It reads the block structure (GIF89a, specification sections 17
/// to 27) and the first frame's pixels, what a thumbnail, a review picture and a check need;
/// and it writes a copy with the picture's XMP packet, as ``JPEGSegments`` does for a JPEG.
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
    /// The first image's descriptor (its 0x2C byte).
    private let firstImage: Int
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
        var frames = 0
        var first: Int?
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
                }
                // XMP's packet is not sub-blocks, but its magic trailer makes it read as such.
                try reader.skipSubBlocks()
                if identifier.elementsEqual("XMP DataXMP".utf8) { xmp.append(start..<reader.position) }
            case 0x2C:
                if first == nil { first = start }
                try reader.skip(8)
                let imageFlags = try reader.byte()
                if imageFlags & 0x80 != 0 { try reader.skip(3 << ((imageFlags & 7) + 1)) }
                _ = try reader.byte()
                try reader.skipSubBlocks()
                frames += 1
            case let other:
                throw ImageError.malformed.detailed("the GIF has an unknown block 0x\(String(other, radix: 16)) at byte \(start)")
            }
        }
        guard let first else { throw ImageError.malformed.detailed("the GIF has no image") }
        firstImage = first
        frameCount = frames
        xmpBlocks = xmp
    }

    /// The first frame, in the framebuffer's layout (`.bgrx`), on the canvas (what the frame
    /// does not cover is black).
    package func firstFrame() throws(ImageError) -> Bitmap {
        var reader = BlockReader(bytes: bytes, position: firstImage + 1)
        let (left, top, frameWidth, frameHeight) = (try reader.word(), try reader.word(), try reader.word(), try reader.word())
        let flags = try reader.byte()
        var table = globalTable
        if flags & 0x80 != 0 {
            let size = 3 << ((flags & 7) + 1)
            try reader.skip(size)
            table = bytes[(reader.position - size)..<reader.position]
        }
        guard !table.isEmpty else { throw ImageError.undecodable.detailed("the GIF's first frame has no colour table") }
        let minimumCodeSize = try reader.byte()
        guard (2...8).contains(minimumCodeSize) else {
            throw ImageError.malformed.detailed("the GIF's first frame has an LZW code size of \(minimumCodeSize)")
        }
        let indices = try LZWDecoder(minimumCodeSize: minimumCodeSize).decode(try reader.subBlocks(), count: frameWidth * frameHeight)
        var bitmap = Bitmap(width: width, height: height, format: .bgrx)
        let interlaced = flags & 0x40 != 0
        let rows = interlaced ? Self.interlacedRows(frameHeight) : Array(0..<frameHeight)
        let entries = table.count / 3
        bitmap.pixels.withUnsafeMutableBufferPointer { pixels in
            for (sourceRow, row) in rows.enumerated() where top + row < height {
                for column in 0..<frameWidth where left + column < width {
                    let index = Int(indices[sourceRow * frameWidth + column])
                    guard index < entries else { continue }
                    let entry = table.startIndex + index * 3
                    let pixel = ((top + row) * width + left + column) * 4
                    pixels[pixel] = table[entry + 2]
                    pixels[pixel + 1] = table[entry + 1]
                    pixels[pixel + 2] = table[entry]
                    pixels[pixel + 3] = 255
                }
            }
        }
        return bitmap
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

    func decode(_ data: [UInt8], count: Int) throws(ImageError) -> [UInt8] {
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
                    throw ImageError.truncated.detailed("the GIF's first frame ends after \(written) of its \(count) pixels")
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
                throw ImageError.malformed.detailed("the GIF's first frame has LZW code \(code) where \(next) is the next")
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
