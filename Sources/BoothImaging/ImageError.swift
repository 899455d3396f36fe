/// Why an image could not be read or written.
///
/// Two errors are equal when they are of the same kind, whatever their detail, so callers and
/// tests can match on the static members (`ImageError.truncated`).
public struct ImageError: Error, Hashable, CustomStringConvertible {
    private enum Code: Hashable {
        case notJPEG, truncated, malformed, undecodable, unencodable
    }

    private let code: Code
    /// What exactly went wrong, for people.
    public let detail: String

    private init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    /// The bytes do not start like a JPEG.
    public static let notJPEG = ImageError(.notJPEG, "the data is not a JPEG image")
    /// The JPEG ends before its end marker.
    public static let truncated = ImageError(.truncated, "the JPEG image is truncated")
    /// The JPEG's structure is broken.
    public static let malformed = ImageError(.malformed, "the JPEG image is malformed")
    /// The JPEG's structure is fine but its content cannot be decoded.
    public static let undecodable = ImageError(.undecodable, "the JPEG image cannot be decoded")
    /// An image could not be encoded.
    public static let unencodable = ImageError(.unencodable, "the image cannot be encoded as JPEG")

    /// The same kind of error with a more precise detail.
    func detailed(_ detail: String) -> ImageError {
        ImageError(code, detail)
    }

    public var description: String { detail }

    public static func == (lhs: ImageError, rhs: ImageError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
