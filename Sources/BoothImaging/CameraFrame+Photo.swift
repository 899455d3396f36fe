import BoothCore
import Foundation

extension CameraFrame {
    /// The quality raw frames are encoded at: high enough that a print shows no artefacts.
    package static let photoQuality = 92

    /// The JPEG file this frame is saved as. A Motion JPEG frame is the camera's own bytes, made
    /// standard (Huffman tables inserted when missing, buffer padding dropped), never re-encoded.
    /// A raw frame (YUYV, or RGB from libv4l2's conversion) is encoded once, here.
    package func photoJPEG() throws(ImageError) -> Data {
        switch encoding {
        case .mjpeg:
            return try JPEGSegments.repairedMJPEG(bytes)
        case .yuyv(let bytesPerRow):
            try requireRows(of: bytesPerRow, bytesPerPixel: 2)
            let planes = YUV422Planes(yuyv: bytes, width: width, height: height, bytesPerRow: bytesPerRow)
            return try JPEGEncoder().encode(planes, quality: Self.photoQuality)
        case .rgb24(let bytesPerRow):
            try requireRows(of: bytesPerRow, bytesPerPixel: 3)
            return try JPEGEncoder().encode(rgbBitmap(bytesPerRow: bytesPerRow), quality: Self.photoQuality)
        case .yuv420(let bytesPerRow):
            // The camera's own planes, encoded as they are: no colour conversion, no copy.
            try requireRows(of: bytesPerRow, bytesPerPixel: 1)
            let planes = yuv420Planes(bytesPerRow: bytesPerRow)
            let encoded = bytes.withUnsafeBytes { raw in
                let base = raw.bindMemory(to: UInt8.self).baseAddress!
                return Result { () throws(ImageError) in
                    try JPEGEncoder().encode(
                        planes: planes.offsets.map { base + $0 }, strides: planes.strides, width: width, height: height,
                        subsampling: .halfWidthAndHeight, quality: Self.photoQuality)
                }
            }
            return try encoded.get()
        }
    }

    /// Where a `.yuv420` frame's planes start in ``bytes``, and their rows' lengths.
    func yuv420Planes(bytesPerRow: Int) -> (offsets: [Int], strides: [Int]) {
        let chromaStart = bytesPerRow * height
        let chromaSize = (bytesPerRow / 2) * ((height + 1) / 2)
        return ([0, chromaStart, chromaStart + chromaSize], [bytesPerRow, bytesPerRow / 2, bytesPerRow / 2])
    }

    /// Checks that a raw frame holds every row it claims: a short buffer is a damaged frame.
    func requireRows(of bytesPerRow: Int, bytesPerPixel: Int) throws(ImageError) {
        guard width > 0, height > 0, width % 2 == 0 || bytesPerPixel != 2 else {
            throw ImageError.malformed.detailed("a \(width)x\(height) raw frame cannot be a picture")
        }
        let needed = encoding.bytesNeeded(width: width, height: height) ?? 0
        guard bytesPerRow >= width * bytesPerPixel, bytes.count >= needed else {
            throw ImageError.truncated.detailed(
                "a \(width)x\(height) raw frame needs \(needed) bytes, the camera delivered \(bytes.count)")
        }
    }

    /// The pixels of an `.rgb24` frame without row padding.
    func rgbBitmap(bytesPerRow: Int) -> Bitmap {
        let rowLength = width * 3
        if bytesPerRow == rowLength {
            return Bitmap(width: width, height: height, format: .rgb, pixels: [UInt8](bytes.prefix(rowLength * height)))
        }
        var pixels = [UInt8]()
        pixels.reserveCapacity(rowLength * height)
        bytes.withUnsafeBytes { raw in
            for row in 0..<height {
                pixels.append(contentsOf: raw[(row * bytesPerRow)..<(row * bytesPerRow + rowLength)])
            }
        }
        return Bitmap(width: width, height: height, format: .rgb, pixels: pixels)
    }
}

/// A YUYV frame split into the three planes TurboJPEG encodes without any colour conversion:
/// full-width luma, half-width chroma, every row.
struct YUV422Planes {
    let width: Int
    let height: Int
    var y: [UInt8]
    var u: [UInt8]
    var v: [UInt8]

    init(yuyv: Data, width: Int, height: Int, bytesPerRow: Int) {
        self.width = width
        self.height = height
        let chromaWidth = width / 2
        var y = [UInt8](repeating: 0, count: width * height)
        var u = [UInt8](repeating: 0, count: chromaWidth * height)
        var v = [UInt8](repeating: 0, count: chromaWidth * height)
        yuyv.withUnsafeBytes { raw in
            let source = raw.bindMemory(to: UInt8.self)
            y.withUnsafeMutableBufferPointer { y in
                u.withUnsafeMutableBufferPointer { u in
                    v.withUnsafeMutableBufferPointer { v in
                        for row in 0..<height {
                            var input = row * bytesPerRow
                            for pair in 0..<chromaWidth {
                                let output = row * chromaWidth + pair
                                y[2 * output] = source[input]
                                u[output] = source[input + 1]
                                y[2 * output + 1] = source[input + 2]
                                v[output] = source[input + 3]
                                input += 4
                            }
                        }
                    }
                }
            }
        }
        self.y = y
        self.u = u
        self.v = v
    }
}
