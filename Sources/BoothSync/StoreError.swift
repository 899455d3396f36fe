import Foundation

/// Why the store did not do what was asked, sorted by what the operator can do about it. Each
/// has a message that names the store and the fix; the outbox keeps what failed either way.
package struct StoreError: Error, Hashable, CustomStringConvertible, Sendable {
    package enum Kind: String, Sendable, CaseIterable {
        /// The key or secret is wrong, or the key may not write there (403).
        case credentials
        /// The bucket does not exist.
        case noBucket = "no_bucket"
        /// The booth's clock is too far from the store's (more than 15 minutes).
        case clockSkew = "clock_skew"
        /// The store asks the booth to slow down (503 SlowDown, 429).
        case throttled
        /// The store answered with a server error, or could not be reached (refused, timed out,
        /// the connection dropped mid-transfer).
        case unavailable
        /// The store's name does not resolve.
        case dns
        /// The TLS handshake failed (certificate, protocol).
        case tls
        /// The store refused a payload whose checksum did not match: it was damaged on the way.
        case corrupted
        /// The store's answer made no sense (not S3, or a proxy in between).
        case protocolError = "protocol"
        /// An answer longer than the booth reads for what it asked (an object above its kind's
        /// limit): never read past the limit.
        case tooLarge = "too_large"
        /// Anything else the store refused.
        case refused
    }

    package let kind: Kind
    /// The S3 error code (`SignatureDoesNotMatch`), when the store sent one.
    package let code: String?
    package let description: String

    package init(_ kind: Kind, code: String? = nil, _ description: String) {
        self.kind = kind
        self.code = code
        self.description = description
    }

    /// Whether waiting and trying again can help without anyone doing anything: everything but
    /// a missing bucket or refused credentials, which need the operator (the booth still tries
    /// now and then, and reads the credentials again each time).
    package var clearsByItself: Bool {
        switch kind {
        case .credentials, .noBucket, .refused, .tooLarge: false
        default: true
        }
    }

    package static func == (left: StoreError, right: StoreError) -> Bool { left.kind == right.kind && left.code == right.code }
    package func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(code)
    }
}
