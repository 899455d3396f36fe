import BoothImaging
import Foundation

/// An animated GIF that loops for ever: what every phone, browser and messenger plays.
///
/// The frames share one palette made for them (``ColorPalette``), and are dithered onto it
/// (Floyd-Steinberg), so that skin and sky keep their gradients in 256 colours. Frames that
/// come back (a boomerang plays its frames forward, then backward) are encoded once and
/// repeated. The picture's name and time travel in an XMP packet, where exiftool and photo
/// managers read it.
package enum AnimatedGIF {
    /// The GIF of `frames` (`.bgrx`, all the same size), shown in the order `order` gives
    /// (indices into `frames`; every frame once, in order, when `nil`), each for `delay`
    /// hundredths of a second, looping for ever.
    package static func encode(
        _ frames: [Bitmap], order: [Int]? = nil, delay: Int, palette: ColorPalette? = nil, xmp: String? = nil
    ) -> Data {
        precondition(!frames.isEmpty, "an animation has frames")
        let (width, height) = (frames[0].width, frames[0].height)
        precondition(frames.allSatisfy { $0.width == width && $0.height == height }, "an animation's frames are the same size")
        let palette = palette ?? ColorPalette(for: frames, sampling: frames.count > 4 ? 2 : 1)
        let tableBits = max(1, Int.bitWidth - (palette.colors.count - 1).leadingZeroBitCount)
        var indexer = PaletteIndexer(palette)
        let images = frames.map { frame in
            LZWEncoder.encode(indexer.dithered(frame), minimumCodeSize: max(2, tableBits))
        }

        var gif = Data("GIF89a".utf8)
        gif.appendLittleEndian(UInt16(width))
        gif.appendLittleEndian(UInt16(height))
        // A global colour table of 2^tableBits entries, 8 bits a channel.
        gif.append(0x80 | 0x70 | UInt8(tableBits - 1))
        gif.append(0)  // background colour index
        gif.append(0)  // no aspect ratio
        for index in 0..<(1 << tableBits) {
            let color = index < palette.colors.count ? palette.colors[index] : (0, 0, 0)
            gif.append(contentsOf: [color.0, color.1, color.2])
        }
        // NETSCAPE2.0: loop for ever (0 repetitions means no end).
        gif.append(contentsOf: [0x21, 0xFF, 0x0B])
        gif.append(contentsOf: Array("NETSCAPE2.0".utf8))
        gif.append(contentsOf: [0x03, 0x01, 0x00, 0x00, 0x00])
        if let xmp { gif.append(GIFFile.xmpExtension(xmp)) }
        for index in order ?? Array(frames.indices) {
            // Graphic control: no transparency, each frame replaces the last, and its delay.
            gif.append(contentsOf: [0x21, 0xF9, 0x04, 0x04])
            gif.appendLittleEndian(UInt16(clamping: delay))
            gif.append(contentsOf: [0x00, 0x00])
            // The image: the whole canvas, the global colour table.
            gif.append(0x2C)
            gif.appendLittleEndian(UInt16(0))
            gif.appendLittleEndian(UInt16(0))
            gif.appendLittleEndian(UInt16(width))
            gif.appendLittleEndian(UInt16(height))
            gif.append(0x00)
            gif.append(images[index])
        }
        gif.append(0x3B)
        return gif
    }

    /// The longest side of an animation's frames: small enough for a GIF of ten frames to stay
    /// well under 4 MB and to play smoothly on a phone, large enough to fill its screen's width.
    package static let longestSide = 540

    /// The animation of `shots` (JPEGs, in the order they were taken, the first one's size for
    /// all): each decoded at the size it is shown (``longestSide``), played forward, or forward
    /// then backward for a `boomerang`, each frame for `delay` hundredths of a second. The
    /// shots are decoded side by side into `memory`, as a collage's are.
    package static func animation(
        of shots: [Data], boomerang: Bool, delay: Int, memory: DecodeMemory
    ) throws(ImageError) -> Data {
        precondition(!shots.isEmpty, "an animation has frames")
        let header = try JPEGDecoder().header(of: shots[0])
        // Never enlarged: a camera's smaller frames are shown as they are.
        let longest = max(header.width, header.height)
        let (width, height) =
            longest <= longestSide
            ? (header.width, header.height)
            : (max(1, (header.width * longestSide + longest / 2) / longest), max(1, (header.height * longestSide + longest / 2) / longest))
        let slots = Array(repeating: PhotoSlot(x: 0, y: 0, width: width, height: height), count: shots.count)
        let frames = try PictureComposer.fitted(shots, into: slots, memory: memory)
        return encode(frames, order: boomerang ? Self.boomerang(frames.count) : nil, delay: delay)
    }

    /// The delay of an animation's frames, in hundredths of a second, from the times they were
    /// taken: the time between the first and the last, shared out, so that the animation plays
    /// at the pace life went. GIF readers treat delays under 2 as 10: at least 2.
    package static func frameDelay(_ times: [Date]) -> Int {
        guard let first = times.first, let last = times.last, times.count > 1 else { return 20 }
        let seconds = last.timeIntervalSince(first) / Double(times.count - 1)
        return max(2, Int((seconds * 100).rounded()))
    }

    /// The order of a boomerang of `count` frames: forward, then backward without repeating
    /// either end, so that it loops without a stutter.
    package static func boomerang(_ count: Int) -> [Int] {
        Array(0..<count) + Array((1..<max(1, count - 1)).reversed())
    }
}

/// Maps pixels to a palette's indices with Floyd-Steinberg dithering: each pixel's error
/// (its colour less its entry's) is carried to the pixels right and below it, 7/16, 3/16,
/// 5/16 and 1/16.
///
/// The nearest entry of a colour is searched once per cell of a 64x64x64 colour cube and
/// remembered, so a frame costs a few thousand searches, not one per pixel.
struct PaletteIndexer {
    private let red: [Int32]
    private let green: [Int32]
    private let blue: [Int32]
    /// The entry nearest each cell's centre; `unknown` until searched.
    private var nearest = [UInt16](repeating: PaletteIndexer.unknown, count: 64 * 64 * 64)
    private static let unknown = UInt16.max

    init(_ palette: ColorPalette) {
        red = palette.colors.map { Int32($0.red) }
        green = palette.colors.map { Int32($0.green) }
        blue = palette.colors.map { Int32($0.blue) }
    }

    /// The palette's index of each pixel of `frame` (`.bgrx`), dithered.
    mutating func dithered(_ frame: Bitmap) -> [UInt8] {
        let width = frame.width
        var indices = [UInt8](repeating: 0, count: width * frame.height)
        // Errors in sixteenths, three channels per pixel, one pixel of room either side.
        var current = [Int32](repeating: 0, count: (width + 2) * 3)
        var next = current
        let (red, green, blue) = (self.red, self.green, self.blue)
        var nearest = self.nearest
        defer { self.nearest = nearest }
        frame.pixels.withUnsafeBufferPointer { pixels in
            indices.withUnsafeMutableBufferPointer { indices in
                red.withUnsafeBufferPointer { red in
                    green.withUnsafeBufferPointer { green in
                        blue.withUnsafeBufferPointer { blue in
                            for y in 0..<frame.height {
                                current.withUnsafeMutableBufferPointer { current in
                                    next.withUnsafeMutableBufferPointer { next in
                                        nearest.withUnsafeMutableBufferPointer { nearest in
                                            for x in 0..<width {
                                                let source = (y * width + x) * 4
                                                let slot = (x + 1) * 3
                                                let r = clamp(Int32(pixels[source + 2]) + (current[slot] + 8) >> 4)
                                                let g = clamp(Int32(pixels[source + 1]) + (current[slot + 1] + 8) >> 4)
                                                let b = clamp(Int32(pixels[source]) + (current[slot + 2] + 8) >> 4)
                                                let index = Int(Self.entry(r, g, b, red, green, blue, nearest))
                                                indices[y * width + x] = UInt8(truncatingIfNeeded: index)
                                                spread(r - red[index], at: slot, current, next)
                                                spread(g - green[index], at: slot + 1, current, next)
                                                spread(b - blue[index], at: slot + 2, current, next)
                                            }
                                        }
                                    }
                                }
                                swap(&current, &next)
                                for index in next.indices { next[index] = 0 }
                            }
                        }
                    }
                }
            }
        }
        return indices
    }

    @inline(__always)
    private func clamp(_ value: Int32) -> Int32 { min(255, max(0, value)) }

    /// One channel's `error` carried from the pixel at `slot` to the right and below.
    @inline(__always)
    private func spread(
        _ error: Int32, at slot: Int, _ current: UnsafeMutableBufferPointer<Int32>, _ next: UnsafeMutableBufferPointer<Int32>
    ) {
        current[slot + 3] += error * 7
        next[slot - 3] += error * 3
        next[slot] += error * 5
        next[slot + 3] += error
    }

    /// The palette entry nearest (`r`, `g`, `b`), searched once per cell of the cube.
    @inline(__always)
    private static func entry(
        _ r: Int32, _ g: Int32, _ b: Int32, _ red: UnsafeBufferPointer<Int32>, _ green: UnsafeBufferPointer<Int32>,
        _ blue: UnsafeBufferPointer<Int32>, _ nearest: UnsafeMutableBufferPointer<UInt16>
    ) -> UInt16 {
        let cell = Int(r >> 2) << 12 | Int(g >> 2) << 6 | Int(b >> 2)
        let known = nearest[cell]
        if known != Self.unknown { return known }
        // The cell's centre.
        let (cr, cg, cb) = (r | 2, g | 2, b | 2)
        var best = 0
        var bestDistance = Int32.max
        for index in 0..<red.count {
            let (dr, dg, db) = (red[index] - cr, green[index] - cg, blue[index] - cb)
            let distance = dr * dr + dg * dg + db * db
            if distance < bestDistance {
                bestDistance = distance
                best = index
            }
        }
        nearest[cell] = UInt16(best)
        return UInt16(best)
    }
}

/// GIF's LZW compression of one image's indices, as data sub-blocks (the code size byte first,
/// the block terminator last).
enum LZWEncoder {
    static func encode(_ indices: [UInt8], minimumCodeSize: Int) -> Data {
        let clear = 1 << minimumCodeSize
        let end = clear + 1
        var output = Data([UInt8(minimumCodeSize)])
        var bytes: [UInt8] = []
        bytes.reserveCapacity(indices.count / 2)
        var bits: UInt64 = 0
        var bitCount = 0
        var codeSize = minimumCodeSize + 1
        var next = end + 1
        // Open addressing: key (prefix << 8 | byte) + 1, 0 for an empty slot.
        let tableSize = 8192
        var keys = [Int32](repeating: 0, count: tableSize)
        var codes = [UInt16](repeating: 0, count: tableSize)

        func emit(_ code: Int) {
            if next > (1 << codeSize) && codeSize < 12 { codeSize += 1 }
            bits |= UInt64(code) << UInt64(bitCount)
            bitCount += codeSize
            while bitCount >= 8 {
                bytes.append(UInt8(truncatingIfNeeded: bits))
                bits >>= 8
                bitCount -= 8
            }
        }

        emit(clear)
        guard var prefix = indices.first.map(Int.init) else {
            emit(end)
            return finish(bytes, bits: bits, bitCount: bitCount, into: output)
        }
        for byte in indices.dropFirst() {
            let key = Int32(prefix << 8 | Int(byte)) + 1
            var slot = Int((UInt32(bitPattern: key) &* 2_654_435_761) >> 19)
            while keys[slot] != 0 && keys[slot] != key { slot = (slot + 1) & (tableSize - 1) }
            if keys[slot] == key {
                prefix = Int(codes[slot])
                continue
            }
            emit(prefix)
            if next < 4096 {
                keys[slot] = key
                codes[slot] = UInt16(next)
                next += 1
            } else {
                emit(clear)
                next = end + 1
                codeSize = minimumCodeSize + 1
                for index in keys.indices { keys[index] = 0 }
            }
            prefix = Int(byte)
        }
        emit(prefix)
        // The decoder adds an entry after the last code too, before it reads the end code.
        next += 1
        emit(end)
        output = finish(bytes, bits: bits, bitCount: bitCount, into: output)
        return output
    }

    /// The bits left flushed, and the bytes cut into sub-blocks of at most 255.
    private static func finish(_ bytes: [UInt8], bits: UInt64, bitCount: Int, into output: Data) -> Data {
        var bytes = bytes
        if bitCount > 0 { bytes.append(UInt8(truncatingIfNeeded: bits)) }
        var output = output
        var start = 0
        while start < bytes.count {
            let length = min(255, bytes.count - start)
            output.append(UInt8(length))
            output.append(contentsOf: bytes[start..<(start + length)])
            start += length
        }
        output.append(0)
        return output
    }
}

extension Data {
    fileprivate mutating func appendLittleEndian(_ value: UInt16) {
        append(UInt8(value & 0xFF))
        append(UInt8(value >> 8))
    }
}
