/// Why an image could not be read or written: ``detail`` says what exactly went wrong, for
/// people; ``code`` says which kind of failure it is, for callers and tests that act on the kind.
///
/// Two errors are equal when they have the same code, whatever their detail, so callers and
/// tests can also match on the static members (`ImageError.truncated`).
package struct ImageError: Error, Hashable, CustomStringConvertible {
    /// A kind of image error.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: Hashable, Sendable {
            case notJPEG, truncated, malformed, undecodable, unencodable
        }

        private let kind: Kind

        private init(_ kind: Kind) {
            self.kind = kind
        }

        /// The bytes do not start like a JPEG.
        package static let notJPEG = Code(.notJPEG)
        /// The JPEG ends before its end marker.
        package static let truncated = Code(.truncated)
        /// The JPEG's structure is broken.
        package static let malformed = Code(.malformed)
        /// The JPEG's structure is fine but its content cannot be decoded.
        package static let undecodable = Code(.undecodable)
        /// An image could not be encoded.
        package static let unencodable = Code(.unencodable)

        package var description: String {
            switch kind {
            case .notJPEG: "the data is not a JPEG image"
            case .truncated: "the JPEG image is truncated"
            case .malformed: "the JPEG image is malformed"
            case .undecodable: "the JPEG image cannot be decoded"
            case .unencodable: "the image cannot be encoded as JPEG"
            }
        }
    }

    /// Which kind of failure this is.
    public let code: Code
    /// What exactly went wrong, for people.
    package let detail: String

    private init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    /// The bytes do not start like a JPEG.
    package static let notJPEG = ImageError(.notJPEG, Code.notJPEG.description)
    /// The JPEG ends before its end marker.
    package static let truncated = ImageError(.truncated, Code.truncated.description)
    /// The JPEG's structure is broken.
    package static let malformed = ImageError(.malformed, Code.malformed.description)
    /// The JPEG's structure is fine but its content cannot be decoded.
    package static let undecodable = ImageError(.undecodable, Code.undecodable.description)
    /// An image could not be encoded.
    package static let unencodable = ImageError(.unencodable, Code.unencodable.description)

    /// The same kind of error with a more precise detail.
    package func detailed(_ detail: String) -> ImageError {
        ImageError(code, detail)
    }

    package var description: String { detail }

    package static func == (lhs: ImageError, rhs: ImageError) -> Bool { lhs.code == rhs.code }
    package func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
