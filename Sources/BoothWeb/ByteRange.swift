import Foundation

/// What a `Range` header asks of a file of known size (RFC 9110, section 14): the gallery
/// answers one range of bytes; several ranges are answered with the whole file, which the RFC
/// allows.
enum ByteRange: Equatable, Sendable {
    /// No usable `Range` header: send the whole file (200).
    case whole
    /// One range inside the file: send it (206 with `Content-Range`).
    case part(ClosedRange<Int>)
    /// A range that starts past the end of the file: 416 with `Content-Range: bytes */size`.
    case unsatisfiable

    /// Reads a `Range` header for a file of `size` bytes. A header that does not parse, or asks
    /// for another unit than bytes, is ignored, as the RFC says.
    init(header: String?, size: Int) {
        guard let header else {
            self = .whole
            return
        }
        let text = header.trimmingCharacters(in: .whitespaces)
        guard text.lowercased().hasPrefix("bytes=") else {
            self = .whole
            return
        }
        let specification = text.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        guard !specification.contains(","), let dash = specification.firstIndex(of: "-") else {
            self = .whole
            return
        }
        let first = specification[..<dash]
        let last = specification[specification.index(after: dash)...]
        switch (Self.number(first), Self.number(last)) {
        case (let start?, let end?) where start <= end:
            self = start < size ? .part(start...min(end, size - 1)) : .unsatisfiable
        case (let start?, nil) where last.isEmpty:
            self = start < size ? .part(start...(size - 1)) : .unsatisfiable
        case (nil, let suffix?) where first.isEmpty:
            // The last `suffix` bytes; a suffix longer than the file is the whole file.
            self = suffix > 0 && size > 0 ? .part(max(size - suffix, 0)...(size - 1)) : .unsatisfiable
        default:
            self = .whole
        }
    }

    /// A non-negative decimal number, digits only (no sign, no spaces); nil for anything else or
    /// a number too large to matter.
    static func number(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return Int(text) ?? Int.max
    }
}
