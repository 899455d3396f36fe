import CQRencode
import Foundation

/// A QR code as a square of modules, made with libqrencode: the photo page's address on the
/// "Saved as" screen, for a guest's phone.
///
/// Error correction is level M (15% of the code may be unreadable), which survives the glare of
/// a screen; the version is the smallest that holds the text. The quiet zone (four light
/// modules on every side, which scanners need) is not part of the matrix: whoever draws the
/// code adds it.
package struct QRCode: Sendable, Hashable {
    /// The light border a scanner needs around the code, in modules.
    package static let quietZone = 4

    /// The text the code holds.
    public let text: String
    /// The symbol version, 1 (21x21 modules) to 40 (177x177).
    package let version: Int
    /// Modules per side: `17 + 4 * version`.
    package let size: Int
    /// `size * size` modules, rows top to bottom; `true` is a dark module.
    private let modules: [Bool]

    /// Encodes `text` in 8-bit mode with error correction level M. The corresponding C function
    /// is `QRcode_encodeString`.
    ///
    /// - Throws: ``ImageError/unencodable`` when `text` is too long for a QR code (more than
    ///   2331 bytes at level M) or holds a NUL character.
    package init(encoding text: String) throws(ImageError) {
        guard !text.utf8.contains(0) else {
            throw ImageError.unencodable.detailed("a QR code cannot hold a NUL character")
        }
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else {
            let code = errno
            let reason = code == ERANGE ? "the text is too long for a QR code" : String(cString: strerror(code))
            throw ImageError.unencodable.detailed("cannot encode \(text.utf8.count) bytes as a QR code: \(reason)")
        }
        defer { QRcode_free(code) }
        let size = Int(code.pointee.width)
        // Bit 0 of each byte is the module's colour; the other bits say what libqrencode
        // placed there (finder pattern, timing, data), which a drawing does not need.
        let data = UnsafeBufferPointer(start: code.pointee.data, count: size * size)
        self.text = text
        version = Int(code.pointee.version)
        self.size = size
        modules = data.map { $0 & 1 == 1 }
    }

    /// Whether the module at column `x`, row `y` is dark; modules outside the code (in the quiet
    /// zone and beyond) are light.
    package subscript(x: Int, y: Int) -> Bool {
        guard (0..<size).contains(x), (0..<size).contains(y) else { return false }
        return modules[y * size + x]
    }
}
