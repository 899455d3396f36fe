import CJPEGRows
import Foundation

/// Encodes pictures whose top part never changes by encoding only the part that does.
///
/// libjpeg writes a restart marker after every row of MCUs (16 pixel rows at 4:2:0): each row's
/// entropy-coded data then starts from fresh predictors on a byte boundary, and two encodings
/// of the same width and quality have the same headers and tables. The still picture is encoded
/// once and cut into its rows; each frame encodes only the rows from ``liveTop`` down (a picture
/// of its own, as tall as that band) and puts them in place of the still ones, numbering the
/// restart markers as one image. The result is the very image a whole encoding of the frame
/// would give, at the cost of its moving rows.
///
/// The simulated camera uses it so that filming costs what a real camera costs the booth:
/// almost nothing.
package struct RowSplicedEncoder: Sendable {
    /// Pixel rows of one row of MCUs at 4:2:0.
    package static let rowHeight = 16

    public let width: Int
    public let height: Int
    package let quality: Int
    /// The first pixel row that changes, a multiple of ``rowHeight``.
    package let liveTop: Int
    /// SOI up to the end of the scan's header, without Huffman tables (the standard ones, which
    /// an MJPEG decoder assumes) when made with `huffmanTables: false`.
    private let header: Data
    /// The entropy-coded data of each MCU row of the still picture above ``liveTop``, without
    /// its restart marker.
    private let stillRows: [Data]

    /// Encodes `still` once.
    ///
    /// - Parameters:
    ///   - liveTop: the first pixel row that frames change; rounded down to a multiple of
    ///     ``rowHeight``.
    ///   - huffmanTables: whether frames carry their Huffman tables; webcams leave them out.
    package init(still: Bitmap, liveTop: Int, quality: Int, huffmanTables: Bool = true) throws(ImageError) {
        width = still.width
        height = still.height
        self.quality = quality
        self.liveTop = min(max(0, liveTop), still.height) / Self.rowHeight * Self.rowHeight
        let (headerWithTables, rows) = try Self.encodeRows(still, quality: quality)
        let structure = try JPEGSegments(headerWithTables + [0xFF, Marker.endOfImage])
        header = huffmanTables ? headerWithTables : Data(structure.removingHuffmanTables().dropLast(2))
        stillRows = Array(rows.prefix(self.liveTop / Self.rowHeight))
    }

    /// The whole frame whose rows from ``liveTop`` down are `band` (as wide as the picture and
    /// `height - liveTop` rows tall) and whose rows above are the still picture's.
    package func frame(live band: Bitmap) throws(ImageError) -> Data {
        guard band.width == width, band.height == height - liveTop else {
            throw ImageError.unencodable.detailed(
                "the moving band is \(band.width)x\(band.height); it must be \(width)x\(height - liveTop)")
        }
        let liveRows = band.height == 0 ? [] : try Self.encodeRows(band, quality: quality).rows
        var frame = Data(capacity: header.count + (stillRows.first?.count ?? 0) * (stillRows.count + liveRows.count) * 2)
        frame.append(header)
        for (index, row) in (stillRows + liveRows).enumerated() {
            if index > 0 { frame.append(contentsOf: [0xFF, 0xD0 + UInt8((index - 1) % 8)]) }
            frame.append(row)
        }
        frame.append(contentsOf: [0xFF, Marker.endOfImage])
        return frame
    }

    /// Encodes `bitmap` with a restart marker after every MCU row; returns its header (SOI up
    /// to the end of the scan's header) and each row's entropy-coded data.
    static func encodeRows(_ bitmap: Bitmap, quality: Int) throws(ImageError) -> (header: Data, rows: [Data]) {
        guard bitmap.format == .rgb, bitmap.width > 0, bitmap.height > 0 else {
            throw ImageError.unencodable.detailed("rows are encoded from RGB pictures of at least one pixel")
        }
        var output: UnsafeMutablePointer<UInt8>? = nil
        var size = 0
        var message = [CChar](repeating: 0, count: 200)
        let status = bitmap.pixels.withUnsafeBufferPointer { pixels in
            cjpegrows_encode_rgb(
                pixels.baseAddress, Int32(bitmap.width), Int32(bitmap.height), Int32(min(max(quality, 1), 100)), &output, &size,
                &message, message.count)
        }
        guard status == 0, let output else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw ImageError.unencodable.detailed("libjpeg cannot encode the picture: \(text)")
        }
        defer { cjpegrows_free(output) }
        let bytes = UnsafeBufferPointer(start: output, count: size)
        let scan = try scanStart(in: bytes)
        var rows: [Data] = []
        var rowStart = scan
        var position = scan
        while position + 1 < bytes.count {
            guard bytes[position] == 0xFF, bytes[position + 1] != 0x00 else {
                position += 1
                continue
            }
            rows.append(Data(bytes[rowStart..<position]))
            position += 2
            rowStart = position
        }
        let expected = (bitmap.height + rowHeight - 1) / rowHeight
        guard rows.count == expected else {
            throw ImageError.unencodable.detailed("libjpeg wrote \(rows.count) MCU rows for \(expected)")
        }
        return (Data(bytes[0..<scan]), rows)
    }

    /// Where the entropy-coded data starts: after the start-of-scan segment's header.
    private static func scanStart(in bytes: UnsafeBufferPointer<UInt8>) throws(ImageError) -> Int {
        var position = 2
        while position + 4 <= bytes.count, bytes[position] == 0xFF {
            let length = Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            if bytes[position + 1] == Marker.startOfScan { return position + 2 + length }
            position += 2 + length
        }
        throw ImageError.unencodable.detailed("libjpeg wrote no scan")
    }
}
