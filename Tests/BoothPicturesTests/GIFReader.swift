import Foundation

/// A GIF read back, written for the tests from the GIF89a specification, apart from the
/// encoder: the blocks, the loop, each frame's delay and its pixels.
struct GIFReader {
    struct Frame {
        /// Hundredths of a second.
        var delay: Int
        /// Red, green, blue per pixel.
        var pixels: [UInt8]
    }

    var width = 0
    var height = 0
    /// Repetitions the NETSCAPE2.0 extension asks for (0: for ever); `nil` without one.
    var loops: Int?
    var frames: [Frame] = []
    /// The XMP packet, without its magic trailer.
    var xmp: String?

    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    init(_ data: Data) throws {
        let bytes = [UInt8](data)
        var position = 0
        func byte() throws -> Int {
            guard position < bytes.count else { throw Malformed(description: "ends at byte \(position)") }
            defer { position += 1 }
            return Int(bytes[position])
        }
        func word() throws -> Int {
            let low = try byte()
            return low | (try byte()) << 8
        }
        func subBlocks() throws -> [UInt8] {
            var result: [UInt8] = []
            while true {
                let length = try byte()
                if length == 0 { return result }
                guard position + length <= bytes.count else { throw Malformed(description: "a sub-block runs past the end") }
                result += bytes[position..<(position + length)]
                position += length
            }
        }
        guard bytes.starts(with: Array("GIF89a".utf8)) else { throw Malformed(description: "not GIF89a") }
        position = 6
        width = try word()
        height = try word()
        let flags = try byte()
        position += 2
        var globalTable: [UInt8] = []
        if flags & 0x80 != 0 {
            let count = 3 << ((flags & 7) + 1)
            globalTable = Array(bytes[position..<(position + count)])
            position += count
        }
        var delay = 0
        while true {
            switch try byte() {
            case 0x3B:
                return
            case 0x21:
                let label = try byte()
                if label == 0xFF {
                    let length = try byte()
                    let identifier = String(decoding: bytes[position..<(position + length)], as: UTF8.self)
                    position += length
                    if identifier == "XMP DataXMP" {
                        // The packet up to its magic trailer (0x01 0xFF 0xFE ... 0x00 0x00).
                        let start = position
                        while position < bytes.count && bytes[position] != 0x01 { position += 1 }
                        xmp = String(decoding: bytes[start..<position], as: UTF8.self)
                        // Read as sub-blocks, as a reader that does not know XMP would.
                        position = start
                        _ = try subBlocks()
                    } else {
                        let data = try subBlocks()
                        if identifier == "NETSCAPE2.0", data.count == 3, data[0] == 1 { loops = Int(data[1]) | Int(data[2]) << 8 }
                    }
                } else if label == 0xF9 {
                    let data = try subBlocks()
                    delay = Int(data[1]) | Int(data[2]) << 8
                } else {
                    _ = try subBlocks()
                }
            case 0x2C:
                let (left, top, frameWidth, frameHeight) = (try word(), try word(), try word(), try word())
                guard left == 0, top == 0, frameWidth == width, frameHeight == height else {
                    throw Malformed(description: "a frame that is not the whole canvas")
                }
                let imageFlags = try byte()
                var table = globalTable
                if imageFlags & 0x80 != 0 {
                    let count = 3 << ((imageFlags & 7) + 1)
                    table = Array(bytes[position..<(position + count)])
                    position += count
                }
                let minimumCodeSize = try byte()
                let indices = try Self.decompress(subBlocks(), minimumCodeSize: minimumCodeSize)
                guard indices.count >= width * height else {
                    throw Malformed(description: "a frame of \(indices.count) pixels, not \(width * height)")
                }
                let pixels = indices.prefix(width * height).flatMap { table[Int($0) * 3..<Int($0) * 3 + 3] }
                frames.append(Frame(delay: delay, pixels: pixels))
            case let other:
                throw Malformed(description: "unknown block 0x\(String(other, radix: 16)) at byte \(position - 1)")
            }
        }
    }

    /// GIF's LZW, decoded as its specification describes.
    static func decompress(_ data: [UInt8], minimumCodeSize: Int) throws -> [UInt8] {
        let clear = 1 << minimumCodeSize
        let end = clear + 1
        var table: [[UInt8]] = []
        func reset() { table = (0..<clear).map { [UInt8($0)] } + [[], []] }
        reset()
        var codeSize = minimumCodeSize + 1
        var bitPosition = 0
        var output: [UInt8] = []
        var previous: [UInt8]?
        while bitPosition + codeSize <= data.count * 8 {
            var code = 0
            for bit in 0..<codeSize {
                let position = bitPosition + bit
                code |= Int(data[position / 8] >> (position % 8) & 1) << bit
            }
            bitPosition += codeSize
            if code == clear {
                reset()
                codeSize = minimumCodeSize + 1
                previous = nil
                continue
            }
            if code == end { return output }
            let entry: [UInt8]
            if code < table.count {
                entry = table[code]
            } else if code == table.count, let previous {
                entry = previous + [previous[0]]
            } else {
                throw Malformed(description: "code \(code) with \(table.count) entries")
            }
            output += entry
            if let previous, table.count < 4096 { table.append(previous + [entry[0]]) }
            if table.count == 1 << codeSize && codeSize < 12 { codeSize += 1 }
            previous = entry
        }
        throw Malformed(description: "no end code")
    }
}
