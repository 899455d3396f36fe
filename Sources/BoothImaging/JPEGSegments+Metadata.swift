import BoothCore
import Foundation

extension JPEGSegments {
    /// The APP1 marker, which carries EXIF and XMP.
    private static let app1: UInt8 = 0xE1
    /// The APP0 marker of JFIF, which must stay first.
    private static let app0: UInt8 = 0xE0
    private static let exifSignature = Data("Exif\0\0".utf8)
    private static let xmpSignature = Data("http://ns.adobe.com/xap/1.0/\0".utf8)

    /// `jpeg` with the photo's name and time in it: an EXIF and an XMP segment (APP1) after the
    /// start of the image and any JFIF header, in place of any EXIF or XMP it had. Every other
    /// byte is the camera's own: nothing is decoded or re-encoded.
    package static func tagged(_ jpeg: Data, with metadata: PhotoMetadata) throws(ImageError) -> Data {
        let structure = try JPEGSegments(jpeg)
        let size = try JPEGHeader(jpeg)
        let exif = try segment(payload: exifSignature + ExifBlock(metadata, width: size.width, height: size.height).bytes)
        let xmp = try segment(payload: xmpSignature + Data(metadata.xmp.text.utf8))
        var result = Data(capacity: jpeg.count + exif.count + xmp.count)
        var inserted = false
        for segment in structure.segments {
            let bytes = structure.bytes(of: segment)
            if segment.marker == Self.app1 && (bytes.dropFirst(4).starts(with: exifSignature) || bytes.dropFirst(4).starts(with: xmpSignature)) {
                continue
            }
            if !inserted && segment.marker != Marker.startOfImage && segment.marker != Self.app0 {
                result.append(exif)
                result.append(xmp)
                inserted = true
            }
            result.append(bytes)
        }
        return result
    }

    /// The image's entropy-coded data and the tables it needs, everything but its metadata
    /// segments (APPn and comments): what stays identical when metadata is added.
    package var imageData: Data {
        var result = Data()
        for segment in segments where !(0xE0...0xEF).contains(segment.marker) && segment.marker != 0xFE {
            result.append(bytes(of: segment))
        }
        return result
    }

    private func bytes(of segment: Segment) -> Data {
        data[data.startIndex + segment.range.lowerBound..<data.startIndex + segment.range.upperBound]
    }

    /// An APP1 segment around `payload`.
    private static func segment(payload: Data) throws(ImageError) -> Data {
        let length = payload.count + 2
        guard length <= 0xFFFF else { throw ImageError.unencodable.detailed("the metadata is \(length) bytes, more than a JPEG segment holds") }
        return Data([0xFF, app1, UInt8(length >> 8), UInt8(length & 0xFF)]) + payload
    }
}

/// An EXIF block (a TIFF structure, big-endian): the first image directory with the name, camera
/// and software, and the EXIF directory with the time the shot was taken, its fraction of a
/// second and its offset from UTC.
struct ExifBlock {
    private enum FieldType: UInt16 {
        case ascii = 2
        case short = 3
        case long = 4
        case rational = 5
        case undefined = 7
    }

    private struct Entry {
        let tag: UInt16
        let type: FieldType
        let count: UInt32
        /// The value, when it is no longer than four bytes, or the bytes its offset points to.
        let value: Data

        static func ascii(_ tag: UInt16, _ text: String) -> Entry {
            let bytes = Data(text.utf8) + [0]
            return Entry(tag: tag, type: .ascii, count: UInt32(bytes.count), value: bytes)
        }

        static func short(_ tag: UInt16, _ value: UInt16) -> Entry {
            Entry(tag: tag, type: .short, count: 1, value: bigEndian(value))
        }

        static func long(_ tag: UInt16, _ value: Int) -> Entry {
            Entry(tag: tag, type: .long, count: 1, value: bigEndian(UInt32(clamping: value)))
        }

        static func rational(_ tag: UInt16, _ numerator: UInt32, _ denominator: UInt32) -> Entry {
            Entry(tag: tag, type: .rational, count: 1, value: bigEndian(numerator) + bigEndian(denominator))
        }
    }

    let bytes: Data

    /// What EXIF 2.32 requires of a compressed image beside the booth's own fields (exiftool's
    /// `-validate` checks them): resolution (72 dpi, as cameras write when they know no
    /// better), YCbCr positioning, components, Flashpix version, colour space and pixel size.
    init(_ metadata: PhotoMetadata, width: Int, height: Int) {
        let time = metadata.localTime
        var first: [Entry] = [.ascii(0x010E, Self.asciiSafe(metadata.title))]
        if let camera = metadata.camera {
            if let make = camera.make { first.append(.ascii(0x010F, Self.asciiSafe(make))) }
            first.append(.ascii(0x0110, Self.asciiSafe(camera.model)))
        }
        first += [
            .ascii(0x0131, Self.asciiSafe(metadata.software)), .rational(0x011A, 72, 1), .rational(0x011B, 72, 1),
            .short(0x0128, 2), .short(0x0213, 1),
        ]
        let exif: [Entry] = [
            Entry(tag: 0x9000, type: .undefined, count: 4, value: Data("0232".utf8)),
            .ascii(0x9003, time.exif),
            .ascii(0x9011, time.offset),
            Entry(tag: 0x9101, type: .undefined, count: 4, value: Data([1, 2, 3, 0])),
            .ascii(0x9291, String(format: "%03d", time.millisecond)),
            Entry(tag: 0xA000, type: .undefined, count: 4, value: Data("0100".utf8)),
            .short(0xA001, 1), .long(0xA002, width), .long(0xA003, height),
        ]
        // The header is 8 bytes; the first directory follows it, the EXIF directory follows the
        // first with its values. The pointer to the EXIF directory is one more entry.
        let firstSize = Self.size(of: first.count + 1, values: first)
        let pointer = Entry(tag: 0x8769, type: .long, count: 1, value: Self.bigEndian(UInt32(8 + firstSize)))
        var block = Data("MM".utf8) + Self.bigEndian(UInt16(42)) + Self.bigEndian(UInt32(8))
        block += Self.directory(first + [pointer], at: 8)
        block += Self.directory(exif, at: 8 + firstSize)
        bytes = block
    }

    /// Bytes of a directory of `count` entries with the values of `entries` that do not fit in
    /// an entry.
    private static func size(of count: Int, values entries: [Entry]) -> Int {
        2 + 12 * count + 4 + entries.filter { $0.value.count > 4 }.reduce(0) { $0 + padded($1.value.count) }
    }

    /// A directory that starts `offset` bytes into the TIFF structure, followed by its values.
    private static func directory(_ entries: [Entry], at offset: Int) -> Data {
        let entries = entries.sorted { $0.tag < $1.tag }
        var table = bigEndian(UInt16(entries.count))
        var values = Data()
        var valueOffset = offset + 2 + 12 * entries.count + 4
        for entry in entries {
            table += bigEndian(entry.tag) + bigEndian(entry.type.rawValue) + bigEndian(entry.count)
            if entry.value.count <= 4 {
                table += entry.value + Data(count: 4 - entry.value.count)
            } else {
                table += bigEndian(UInt32(valueOffset))
                values += entry.value + Data(count: padded(entry.value.count) - entry.value.count)
                valueOffset += padded(entry.value.count)
            }
        }
        return table + bigEndian(UInt32(0)) + values
    }

    /// Values start on even offsets.
    private static func padded(_ count: Int) -> Int { count + count % 2 }

    fileprivate static func bigEndian<T: FixedWidthInteger>(_ value: T) -> Data {
        withUnsafeBytes(of: value.bigEndian) { Data($0) }
    }

    /// EXIF's text fields are ASCII: letters lose their accents and other scripts are written in
    /// Latin letters ("Zoë & 李" becomes "Zoe & li"); what has no such form becomes "?". The
    /// exact text is in the XMP segment.
    static func asciiSafe(_ text: String) -> String {
        let latin = text.applyingTransform(StringTransform("Any-Latin; Latin-ASCII"), reverse: false) ?? text
        return String(String.UnicodeScalarView(latin.unicodeScalars.map { (0x20...0x7E).contains($0.value) ? $0 : "?" }))
    }
}

/// The booth's ``PhotoTagger``: EXIF and XMP spliced into the camera's bytes, or an
/// animation's XMP into its GIF.
package struct PictureTagger: PhotoTagger {
    package init() {}

    package func tagged(_ jpeg: Data, with metadata: PhotoMetadata) throws -> Data {
        if GIFFile.isGIF(jpeg) { return try GIFFile(jpeg).tagged(with: metadata.xmp.text) }
        return try JPEGSegments.tagged(jpeg, with: metadata)
    }
}
