import BoothCore
import Crypto
import Foundation

/// The secret that signs requests to the store, as the S3 ecosystem names its parts.
package struct StoreCredentials: Sendable, Hashable {
    package var accessKeyID: String
    package var secretAccessKey: String
    /// The token of temporary credentials (`AWS_SESSION_TOKEN`), sent as `x-amz-security-token`.
    package var sessionToken: String?

    package init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }
}

/// AWS Signature Version 4: how a request proves that its sender holds the credentials, and that
/// nobody changed its method, path, query, signed headers or payload on the way.
///
/// The request is reduced to a canonical form, its SHA-256 is signed with a key derived from the
/// secret, the day, the region and the service (HMAC-SHA256 in a chain), and the result goes into
/// the `Authorization` header. S3 signs paths as they are (no removal of `.` segments or double
/// slashes, each byte encoded once); other services normalise them (``normalizesPath``).
package struct SignatureV4: Sendable {
    /// A request about to be signed. Path and query are decoded: the signer encodes them.
    package struct Request: Sendable {
        package var method: String
        /// The path, decoded: `/bucket/event/photo.jpg`.
        package var path: String
        /// Query parameters, decoded, in any order.
        package var query: [(name: String, value: String)]
        /// The headers to sign, `Host` among them, in any order and case.
        package var headers: [(name: String, value: String)]
        /// The payload's SHA-256 in hex, or `UNSIGNED-PAYLOAD`.
        package var payloadHash: String

        package init(
            method: String, path: String, query: [(name: String, value: String)] = [], headers: [(name: String, value: String)],
            payloadHash: String
        ) {
            self.method = method
            self.path = path
            self.query = query
            self.headers = headers
            self.payloadHash = payloadHash
        }
    }

    /// What signing produced: the intermediate forms (which the published test vectors check)
    /// and the headers to add to the request.
    package struct Signed: Sendable {
        package let canonicalRequest: String
        package let stringToSign: String
        package let signature: String
        /// `x-amz-date`, the session token and, when asked, `x-amz-content-sha256`, then
        /// `Authorization`: to be sent with the request.
        package let headers: [(name: String, value: String)]
    }

    package let credentials: StoreCredentials
    package let region: String
    package let service: String
    /// Whether the path is normalised before signing (`/a/./b//c` as `/a/b/c`): true for most
    /// services, false for S3, which signs keys exactly.
    package let normalizesPath: Bool

    package init(credentials: StoreCredentials, region: String, service: String = "s3", normalizesPath: Bool = false) {
        self.credentials = credentials
        self.region = region
        self.service = service
        self.normalizesPath = normalizesPath
    }

    /// The SHA-256 of `data`, in lowercase hex: a payload hash.
    package static func hash(_ data: some DataProtocol) -> String {
        SHA256.hash(data: data).hex
    }

    /// The SHA-256 of no payload at all.
    package static let emptyPayloadHash = hash(Data())

    /// Signs `request` at `date`. With `signingPayloadHeader`, the payload hash is also sent and
    /// signed as `x-amz-content-sha256`, which S3 requires.
    package func sign(_ request: Request, at date: Date, signingPayloadHeader: Bool = false) -> Signed {
        let time = date.civilTime(utcOffsetSeconds: 0)
        let day = String(format: "%04d%02d%02d", time.year, time.month, time.day)
        let stamp = day + String(format: "T%02d%02d%02dZ", time.hour, time.minute, time.second)
        var added: [(name: String, value: String)] = [("x-amz-date", stamp)]
        if let token = credentials.sessionToken { added.append(("x-amz-security-token", token)) }
        if signingPayloadHeader { added.append(("x-amz-content-sha256", request.payloadHash)) }

        // Headers: lowercase names, values trimmed with inner runs of spaces made one, repeated
        // headers joined by commas in their order, sorted by name.
        var values: [String: [String]] = [:]
        for (name, value) in request.headers + added {
            values[name.lowercased(), default: []].append(Self.collapsed(value))
        }
        let names = values.keys.sorted()
        let canonicalHeaders = names.map { "\($0):\(values[$0]!.joined(separator: ","))\n" }.joined()
        let signedHeaders = names.joined(separator: ";")

        // Query: names and values encoded, sorted by name, then value.
        let encodedQuery: [(name: String, value: String)] = request.query.map {
            (Self.encoded($0.name, keepingSlash: false), Self.encoded($0.value, keepingSlash: false))
        }
        let sortedQuery = encodedQuery.sorted { left, right in
            left.name == right.name ? left.value < right.value : left.name < right.name
        }
        let query = sortedQuery.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        let path = normalizesPath ? Self.normalized(request.path) : request.path
        let canonicalRequest = [
            request.method, Self.encoded(path.isEmpty ? "/" : path, keepingSlash: true), query, canonicalHeaders, signedHeaders,
            request.payloadHash,
        ].joined(separator: "\n")

        let scope = "\(day)/\(region)/\(service)/aws4_request"
        let stringToSign = ["AWS4-HMAC-SHA256", stamp, scope, Self.hash(Data(canonicalRequest.utf8))].joined(separator: "\n")
        var key = SymmetricKey(data: Data("AWS4\(credentials.secretAccessKey)".utf8))
        for part in [day, region, service, "aws4_request"] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: key)))
        }
        let signature = HMAC<SHA256>.authenticationCode(for: Data(stringToSign.utf8), using: key).hex
        let authorization =
            "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope), SignedHeaders=\(signedHeaders), Signature=\(signature)"
        return Signed(
            canonicalRequest: canonicalRequest, stringToSign: stringToSign, signature: signature,
            headers: added + [("Authorization", authorization)])
    }

    /// Each byte of `text`'s UTF-8 as it is when unreserved (letters, digits, `-._~`), else as
    /// `%XX` in uppercase hex; `/` kept in paths and encoded in query parameters.
    package static func encoded(_ text: String, keepingSlash: Bool) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: "/") where keepingSlash:
                result.append("/")
            default:
                result += String(format: "%%%02X", byte)
            }
        }
        return result
    }

    /// `value` trimmed, with each run of spaces (line folds included) made one space.
    private static func collapsed(_ value: String) -> String {
        value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).joined(separator: " ")
    }

    /// The path without empty, `.` and `..` segments (RFC 3986's removal of dot segments),
    /// keeping a trailing slash.
    private static func normalized(_ path: String) -> String {
        var segments: [Substring] = []
        for segment in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch segment {
            case ".": continue
            case "..": _ = segments.popLast()
            default: segments.append(segment)
            }
        }
        let joined = "/" + segments.joined(separator: "/")
        return path.hasSuffix("/") && joined != "/" ? joined + "/" : joined
    }
}

extension Sequence where Element == UInt8 {
    /// The bytes in lowercase hex.
    var hex: String { map { String(format: "%02x", $0) }.joined() }
}
