import Foundation

/// The marker segments of a JPEG file, found by walking its structure without decoding it.
///
/// Webcams that stream Motion JPEG commonly leave the Huffman tables (DHT) out of every frame,
/// because the MJPEG format implies the standard tables. Such frames decode in most software
/// but are not standard JPEG files; ``repairedMJPEG(_:)`` turns a frame into one.
package struct JPEGSegments: Sendable {
    /// One segment: its marker code (the byte after `0xFF`) and where it lies in the data. A
    /// start-of-scan segment includes the entropy-coded data that follows its header.
    struct Segment: Sendable, Hashable {
        let marker: UInt8
        let range: Range<Int>
    }

    /// The data the segments point into, starting with SOI.
    let data: Data
    /// The segments in order, from SOI to EOI; bytes after EOI (buffer padding) are not part of
    /// any segment.
    let segments: [Segment]

    /// Walks the structure of `data`; throws unless it is a complete JPEG image: SOI, a frame
    /// header, at least one scan and EOI.
    package init(_ data: Data) throws(ImageError) {
        let bytes = [UInt8](data)
        guard bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == Marker.startOfImage else { throw .notJPEG }
        var segments = [Segment(marker: Marker.startOfImage, range: 0..<2)]
        var position = 2
        while segments.last?.marker != Marker.endOfImage {
            // Markers may be preceded by any number of 0xFF fill bytes.
            guard position < bytes.count, bytes[position] == 0xFF else {
                throw position >= bytes.count
                    ? .truncated
                    : ImageError.malformed.detailed(
                        "expected a JPEG marker at byte \(position)")
            }
            while position < bytes.count && bytes[position] == 0xFF { position += 1 }
            guard position < bytes.count else { throw .truncated }
            let marker = bytes[position]
            // 0xFF 0x00 is a stuffed byte inside a scan, never a marker: read as one, a table
            // removed before it would make the bytes around it part of the scan before.
            guard marker != 0x00 else {
                throw ImageError.malformed.detailed("a stuffed zero byte at \(position) where a JPEG marker belongs")
            }
            let start = position - 1
            position += 1
            if Marker.standsAlone(marker) {
                segments.append(Segment(marker: marker, range: start..<position))
                continue
            }
            guard position + 2 <= bytes.count else { throw .truncated }
            let length = Int(bytes[position]) << 8 | Int(bytes[position + 1])
            guard length >= 2 else { throw ImageError.malformed.detailed("segment 0x\(String(marker, radix: 16)) has length \(length)") }
            position += length
            guard position <= bytes.count else { throw .truncated }
            if marker == Marker.startOfScan { position = try Self.endOfEntropyData(in: bytes, from: position) }
            segments.append(Segment(marker: marker, range: start..<position))
        }
        guard segments.contains(where: { Marker.isFrameHeader($0.marker) }),
            segments.contains(where: { $0.marker == Marker.startOfScan })
        else {
            throw ImageError.malformed.detailed("the JPEG image has no frame header or no scan")
        }
        self.data = data
        self.segments = segments
    }

    /// Whether the image carries its own Huffman tables.
    package var hasHuffmanTables: Bool {
        segments.contains { $0.marker == Marker.huffmanTable }
    }

    /// The image as a standard JPEG file: the camera's own bytes, with the standard Huffman
    /// tables inserted before the first scan when the camera left them out, and without any
    /// padding after the end marker. No pixel is decoded or re-encoded.
    package static func repairedMJPEG(_ frame: Data) throws(ImageError) -> Data {
        let structure = try JPEGSegments(frame)
        guard !structure.hasHuffmanTables else { return structure.joined(skipping: []) }
        return structure.joined(skipping: [], beforeFirstScan: StandardHuffmanTables.segments)
    }

    /// The image without its Huffman table segments, as many webcams send their frames. The
    /// simulated camera uses it so that the repair path runs in every simulated session.
    package func removingHuffmanTables() -> Data {
        joined(skipping: [Marker.huffmanTable])
    }

    private func joined(skipping skipped: Set<UInt8>, beforeFirstScan insertion: Data = Data()) -> Data {
        var result = Data(capacity: (segments.last?.range.upperBound ?? 0) + insertion.count)
        var inserted = insertion.isEmpty
        for segment in segments where !skipped.contains(segment.marker) {
            if !inserted && segment.marker == Marker.startOfScan {
                result.append(insertion)
                inserted = true
            }
            result.append(data[data.startIndex + segment.range.lowerBound..<data.startIndex + segment.range.upperBound])
        }
        return result
    }

    /// The position of the first marker after entropy-coded data that starts at `start`. In that
    /// data a 0xFF byte is followed by 0x00 (a stuffed byte) or a restart marker; anything else
    /// is the next marker.
    private static func endOfEntropyData(in bytes: [UInt8], from start: Int) throws(ImageError) -> Int {
        var position = start
        while true {
            guard let next = bytes[position...].firstIndex(of: 0xFF), next + 1 < bytes.count else {
                throw ImageError.truncated
            }
            let following = bytes[next + 1]
            if following == 0x00 || Marker.isRestart(following) || following == 0xFF {
                position = next + 1
            } else {
                return next
            }
        }
    }
}

/// The JPEG marker codes this module looks at (ITU T.81, table B.1).
enum Marker {
    static let startOfImage: UInt8 = 0xD8
    static let endOfImage: UInt8 = 0xD9
    static let startOfScan: UInt8 = 0xDA
    static let huffmanTable: UInt8 = 0xC4

    static func isRestart(_ marker: UInt8) -> Bool { (0xD0...0xD7).contains(marker) }

    /// SOF0...SOF15 except DHT (C4), JPG (C8) and DAC (CC).
    static func isFrameHeader(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
    }

    /// Markers without a length field.
    static func standsAlone(_ marker: UInt8) -> Bool {
        marker == startOfImage || marker == endOfImage || isRestart(marker) || marker == 0x01
    }
}
