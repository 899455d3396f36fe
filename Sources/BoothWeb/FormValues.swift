import Foundation

/// The values of a query string or a form's body (`application/x-www-form-urlencoded`), as a
/// browser encodes them: `+` is a space, `%XX` a byte of UTF-8. A value that does not decode
/// is left out here; a query never gets this far with one (``QueryCheck``).
struct FormValues: Sendable {
    private var values: [(String, String)] = []

    init(query: String?) {
        for pair in (query ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(parts[0]) else { continue }
            let value = parts.count > 1 ? Self.decode(parts[1]) : ""
            if let value { values.append((name, value)) }
        }
    }

    /// The first value of `name`.
    subscript(name: String) -> String? {
        values.first { $0.0 == name }?.1
    }

    /// Leaves out every value of `name`.
    mutating func remove(_ name: String) {
        values.removeAll { $0.0 == name }
    }

    /// The values and `extra` as a query string, each encoded.
    func encoded(adding extra: (String, String)) -> String {
        (values + [extra]).map { "\(Self.encoded($0.0))=\(Self.encoded($0.1))" }.joined(separator: "&")
    }

    /// `text` percent-encoded for a path segment or a query value: everything but letters,
    /// digits and `-._~` is escaped.
    static func encoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    private static let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

    private static func decode(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    /// Checks that every name and value of `query` decodes: each `%` followed by two
    /// hexadecimal digits, and bytes that make UTF-8 text. A 400 that names the first that does
    /// not, rather than a search or an album taken as no filter at all.
    static func check(query: String?) throws(Malformed) {
        for pair in (query ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(parts[0]) else {
                throw malformed("A query parameter's name, \"\(parts[0].prefix(40))\",")
            }
            if parts.count > 1, decode(parts[1]) == nil {
                throw malformed("The value of the query parameter \(name.prefix(40)), \"\(parts[1].prefix(40))\",")
            }
        }
    }

    /// A query that does not decode, and what to do about it.
    struct Malformed: Error, Sendable {
        let message: String
    }

    private static func malformed(_ what: String) -> Malformed {
        Malformed(
            message: """
                \(what) is not well-formed: each % must be followed by two hexadecimal digits, and the bytes must \
                make UTF-8 text. Encode the text's UTF-8 bytes as %XX (a browser's forms and links do).
                """)
    }
}
