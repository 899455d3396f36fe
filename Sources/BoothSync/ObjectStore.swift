import AsyncHTTPClient
import BoothCore
import BoothSystem
import Crypto
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import Synchronization

/// A bucket of an S3-compatible store (AWS S3, Backblaze B2, Cloudflare R2, Garage, MinIO,
/// SeaweedFS), through the few requests the booth needs: put, get, delete, list.
///
/// Every request is signed with Signature V4. Every upload sends `Content-MD5` and its SHA-256
/// as `x-amz-content-sha256`, both of which the store checks: a payload damaged on the way is
/// refused, never stored.
///
/// The Pi has no real-time clock and may run with a stale time until NTP syncs; S3 refuses
/// signatures more than 15 minutes off. Every answer's `Date` header tells the booth's
/// ``CorrectedClock`` the store's time, which signs the requests (and dates the booth's
/// photos); a refusal for a skewed clock sets it from the error's `ServerTime` and the request
/// is signed again.
///
/// What comes back is read with a limit per request: an answer longer than the caller takes is
/// refused before it is read (its `Content-Length`) or as soon as it passes the limit, so that
/// memory never holds more than the limit. Every byte of every answer is counted
/// (``received``).
package final class ObjectStore: Sendable {
    package let endpoint: URL
    package let bucket: String
    package let region: String
    package let pathStyle: Bool
    private let credentials: Mutex<StoreCredentials>
    private let client: HTTPClient
    /// The payload a request with a body sends at most a second; `nil` for no limit.
    private let bytesPerSecond: Int?
    private let timeout: TimeAmount
    /// The booth's clock, which the store's answers correct (tests give a wrong one).
    package let clock: CorrectedClock
    /// Told, once per answer, how many bytes of its body were read, and whether it answered a
    /// GET of an object (rather than a listing or an upload): the sync's count of what it
    /// downloads.
    private let received: @Sendable (_ bytes: Int, _ object: Bool) -> Void

    package init(
        endpoint: URL, bucket: String, region: String, pathStyle: Bool, credentials: StoreCredentials,
        bytesPerSecond: Int? = nil, timeout: Duration = .seconds(60), client: HTTPClient = .shared,
        clock: CorrectedClock = CorrectedClock(), received: @escaping @Sendable (_ bytes: Int, _ object: Bool) -> Void = { _, _ in }
    ) {
        self.clock = clock
        self.received = received
        self.endpoint = endpoint
        self.bucket = bucket
        self.region = region
        self.pathStyle = pathStyle
        self.credentials = Mutex(credentials)
        self.bytesPerSecond = bytesPerSecond
        self.timeout = .nanoseconds(Int64(timeout.components.seconds) * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000)
        self.client = client
    }

    /// Uses other credentials from now on (they were fixed while the booth ran).
    package func replaceCredentials(_ new: StoreCredentials) {
        credentials.withLock { $0 = new }
    }

    /// The correction applied to the booth's clock when signing, in seconds (zero until the
    /// store's time is known).
    package var clockCorrection: TimeInterval { clock.correction ?? 0 }

    /// Stores `data` at `key`, replacing what was there.
    package func put(_ key: String, _ data: Data, contentType: String) async throws(StoreError) {
        try await put(key, data, contentType: contentType, md5Of: data)
    }

    /// `put`, with the checksum of `checked` rather than `data`: a payload damaged on the way.
    func put(_ key: String, _ data: Data, contentType: String, md5Of checked: Data) async throws(StoreError) {
        let md5 = Data(Insecure.MD5.hash(data: checked)).base64EncodedString()
        _ = try await send(
            "PUT", key: key, body: data,
            headers: [("Content-Type", contentType), ("Content-MD5", md5), ("Content-Length", "\(data.count)")],
            expecting: [200])
    }

    /// The object at `key`; `nil` when there is none. An object of more than `limit` bytes is
    /// not read beyond the limit: ``StoreError/Kind/tooLarge``. The sync gives each kind of
    /// object its own limit (``BucketLayout/recordLimit``, ``BucketLayout/photoLimit``).
    package func get(_ key: String, limit: Int = BucketLayout.photoLimit) async throws(StoreError) -> Data? {
        let answer = try await send("GET", key: key, expecting: [200, 404], limit: limit)
        return answer.status == 404 ? nil : answer.body
    }

    /// Removes the object at `key`; removing what is not there is not an error (S3 answers 204
    /// either way).
    package func delete(_ key: String) async throws(StoreError) {
        _ = try await send("DELETE", key: key, expecting: [200, 204, 404])
    }

    /// One page of the keys under `prefix`, from `token` on (ListObjectsV2).
    package func list(prefix: String, after token: String? = nil, pageSize: Int = 1000) async throws(StoreError) -> ListPage {
        var query = [("list-type", "2"), ("prefix", prefix), ("max-keys", "\(pageSize)")]
        if let token { query.append(("continuation-token", token)) }
        let answer = try await send("GET", key: nil, query: query, expecting: [200], limit: Self.listingLimit)
        guard let page = S3Response.listing(answer.body) else {
            throw StoreError(
                .protocolError,
                "\(endpoint.absoluteString) answered a listing of \(bucket) with something that is not one; is sync.endpoint an S3-compatible store?")
        }
        return page
    }

    /// Every key under `prefix`, following continuation tokens.
    package func listAll(prefix: String, pageSize: Int = 1000) async throws(StoreError) -> [ListPage.Object] {
        var objects: [ListPage.Object] = []
        var token: String?
        repeat {
            let page = try await list(prefix: prefix, after: token, pageSize: pageSize)
            objects += page.objects
            token = page.nextToken
        } while token != nil
        return objects
    }

    /// Creates the bucket (for a self-hosted store and the tests; on AWS it is made in the
    /// console). One that exists and is the booth's is fine.
    package func createBucket() async throws(StoreError) {
        _ = try await send("PUT", key: nil, expecting: [200, 409])
    }

    /// Whether the bucket can be reached with these credentials: a listing of `prefix`.
    package func check(prefix: String) async throws(StoreError) {
        _ = try await list(prefix: prefix, pageSize: 1)
    }

    // MARK: Requests

    /// The longest listing page read: a page of 1,000 keys with their sizes and ETags is about
    /// 350 KB; 16 MiB leaves room for long keys and whatever a store adds.
    static let listingLimit = 16 << 20
    /// The longest answer to anything else (an upload's, a deletion's, an error document).
    static let answerLimit = 1 << 20

    private struct Answer {
        let status: Int
        let body: Data
    }

    /// Sends a signed request; a `RequestTimeTooSkewed` refusal corrects the clock and sends it
    /// once more.
    private func send(
        _ method: String, key: String?, query: [(String, String)] = [], body: Data? = nil, headers: [(String, String)] = [],
        expecting: Set<Int>, limit: Int = ObjectStore.answerLimit
    ) async throws(StoreError) -> Answer {
        do {
            return try await sendOnce(method, key: key, query: query, body: body, headers: headers, expecting: expecting, limit: limit)
        } catch  where error.kind == .clockSkew {
            return try await sendOnce(method, key: key, query: query, body: body, headers: headers, expecting: expecting, limit: limit)
        }
    }

    private func sendOnce(
        _ method: String, key: String?, query: [(String, String)], body: Data?, headers: [(String, String)],
        expecting: Set<Int>, limit: Int
    ) async throws(StoreError) -> Answer {
        let (url, host, path) = address(of: key, query: query)
        let payloadHash = SignatureV4.hash(body ?? Data())
        let signer = SignatureV4(credentials: credentials.withLock { $0 }, region: region)
        let signed = signer.sign(
            SignatureV4.Request(method: method, path: path, query: query, headers: [("Host", host)] + headers, payloadHash: payloadHash),
            at: clock.now, signingPayloadHeader: true)
        var request = HTTPClientRequest(url: url)
        request.method = HTTPMethod(rawValue: method)
        for (name, value) in headers + signed.headers where name != "Content-Length" {
            request.headers.add(name: name, value: value)
        }
        if let body {
            request.body = Self.paced(body, bytesPerSecond: bytesPerSecond)
        }
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, timeout: timeout)
        } catch {
            throw transportError(error, method: method, key: key)
        }
        if let date = response.headers.first(name: "Date").flatMap(HTTPDateParser.date(from:)) {
            clock.observe(storeTime: date, at: clock.system())
        }
        let status = Int(response.status.code)
        // Only an object's own body may be long; an error document is read with the usual limit.
        let object = method == "GET" && key != nil && status == 200
        let data = try await read(response, limit: object ? limit : min(limit, Self.answerLimit), object: object, method: method, key: key)
        if expecting.contains(status) { return Answer(status: status, body: data) }
        throw refusal(status: status, body: data, headers: response.headers, method: method, key: key)
    }

    /// The answer's body, refused as soon as it is known to pass `limit`: from its
    /// `Content-Length` before anything is read, else once the bytes read pass it. Memory holds
    /// at most `limit` bytes and one piece of the network's; what was read is counted either way.
    private func read(_ response: HTTPClientResponse, limit: Int, object: Bool, method: String, key: String?) async throws(StoreError) -> Data {
        var body = Data()
        var count = 0
        defer { received(count, object) }
        let tooLarge = { (size: String) in
            StoreError(
                .tooLarge,
                "\(method) \(key.map(LogText.quoted) ?? "of the bucket") answered \(size), more than the \(limit) the booth reads; it is not read.")
        }
        if let length = response.headers.first(name: "Content-Length").flatMap(Int.init), length > limit {
            throw tooLarge("\(length) bytes")
        }
        do {
            for try await piece in response.body {
                count += piece.readableBytes
                // Leaving the loop drops the rest of the answer: the client closes the connection.
                guard count <= limit else { throw tooLarge("more than \(count) bytes") }
                body.append(contentsOf: piece.readableBytesView)
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw transportError(error, method: method, key: key)
        }
        return body
    }

    /// The URL of `key` (the bucket itself when `nil`), the Host header, and the decoded path
    /// that is signed.
    private func address(of key: String?, query: [(String, String)]) -> (url: String, host: String, path: String) {
        let scheme = endpoint.scheme?.lowercased() ?? "https"
        let port = endpoint.port.map { ":\($0)" } ?? ""
        let base = endpoint.path.hasSuffix("/") ? String(endpoint.path.dropLast()) : endpoint.path
        let objectPath = key.map { "/" + $0 } ?? "/"
        let host: String
        let path: String
        if pathStyle {
            host = (endpoint.host ?? "") + port
            path = base + "/" + bucket + (key.map { "/" + $0 } ?? "")
        } else {
            host = bucket + "." + (endpoint.host ?? "") + port
            path = base + objectPath
        }
        var url = "\(scheme)://\(host)\(SignatureV4.encoded(path.isEmpty ? "/" : path, keepingSlash: true))"
        if !query.isEmpty {
            url +=
                "?"
                + query.map { "\(SignatureV4.encoded($0.0, keepingSlash: false))=\(SignatureV4.encoded($0.1, keepingSlash: false))" }
                .joined(separator: "&")
        }
        return (url, host, path.isEmpty ? "/" : path)
    }

    /// The body, sent in pieces no faster than `bytesPerSecond` allows.
    private static func paced(_ body: Data, bytesPerSecond: Int?) -> HTTPClientRequest.Body {
        guard let bytesPerSecond, bytesPerSecond > 0 else { return .bytes(ByteBuffer(bytes: body)) }
        let piece = max(1024, min(64 * 1024, bytesPerSecond / 8))
        let pieces = AsyncStream<ByteBuffer> { continuation in
            let task = Task {
                let clock = ContinuousClock()
                let start = clock.now
                var sent = 0
                while sent < body.count, !Task.isCancelled {
                    let next = min(body.count, sent + piece)
                    continuation.yield(ByteBuffer(bytes: body[body.startIndex + sent..<body.startIndex + next]))
                    sent = next
                    // Sleep until the bytes sent so far are due at this rate.
                    let due = start + .seconds(Double(sent) / Double(bytesPerSecond))
                    if due > clock.now { try? await Task.sleep(until: due, clock: clock) }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
        return .stream(pieces, length: .known(Int64(body.count)))
    }

    // MARK: Failures

    private func location(of key: String?) -> String {
        "\(endpoint.absoluteString), bucket \(bucket)\(key.map { ", key \(LogText.quoted($0))" } ?? "")"
    }

    /// What a refusal means, from its status and S3 error code.
    private func refusal(status: Int, body: Data, headers: HTTPHeaders, method: String, key: String?) -> StoreError {
        let parsed = S3Response.error(body)
        let code = parsed?.code
        // The store's words go into log lines: escaped, as anything that comes from outside.
        let message =
            parsed.map { $0.message.isEmpty ? LogText.escaped($0.code) : "\(LogText.escaped($0.code)): \(LogText.escaped($0.message))" }
            ?? "HTTP \(status)"
        let place = location(of: key)
        switch code {
        case "RequestTimeTooSkewed"?:
            let storeTime =
                parsed?.serverTime.flatMap { try? Date($0, strategy: .iso8601) }
                ?? headers.first(name: "Date").flatMap(HTTPDateParser.date(from:))
            if let storeTime {
                let local = clock.system()
                clock.correct(to: storeTime, at: local)
                return StoreError(
                    .clockSkew, code: code,
                    """
                    The booth's clock is \(CorrectedClock.describe(storeTime.timeIntervalSince(local))) \
                    (\(place)); signing with the store's time from now on. Check NTP (timedatectl).
                    """)
            }
            return StoreError(
                .clockSkew, code: code,
                "The store refuses the booth's clock as too far off (\(place)) and did not say its own time. Check NTP (timedatectl).")
        case "InvalidAccessKeyId"?, "SignatureDoesNotMatch"?, "AccessDenied"?, "InvalidToken"?, "ExpiredToken"?, "InvalidSecurity"?:
            return StoreError(
                .credentials, code: code,
                """
                The store refuses the booth's credentials (\(message); \(place)). Check the key and secret \
                (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY or sync.credentials_file) and that the key may read, \
                write and delete under the event's folder.
                """)
        case "NoSuchBucket"?:
            return StoreError(
                .noBucket, code: code, "The bucket \(bucket) does not exist at \(endpoint.absoluteString). Create it, or correct sync.bucket.")
        case "SlowDown"?, "TooManyRequests"?, "ServiceUnavailable"?:
            return StoreError(.throttled, code: code, "The store asks the booth to slow down (\(message); \(place)).")
        case "BadDigest"?, "InvalidDigest"?, "XAmzContentSHA256Mismatch"?, "IncompleteBody"?:
            return StoreError(.corrupted, code: code, "The store refused a \(method) whose content was damaged on the way (\(message); \(place)).")
        default:
            break
        }
        switch status {
        case 401, 403:
            return StoreError(
                .credentials, code: code,
                "The store refuses the booth's credentials (\(message); \(place)). Check the key, the secret and the key's permissions.")
        case 429:
            return StoreError(.throttled, code: code, "The store asks the booth to slow down (HTTP 429; \(place)).")
        case 500...599:
            return StoreError(.unavailable, code: code, "The store failed (\(message); \(place)).")
        case _ where [301, 307].contains(status) || code == "AuthorizationHeaderMalformed" || code == "PermanentRedirect":
            return StoreError(
                .refused, code: code,
                "The store says the bucket is in another region or at another address (\(message)); set sync.region or sync.endpoint to the bucket's."
            )
        default:
            return StoreError(.refused, code: code, "The store refused a \(method) (\(message); \(place)).")
        }
    }

    /// What went wrong below HTTP: name resolution, TLS, the connection.
    private func transportError(_ error: any Error, method: String, key: String?) -> StoreError {
        let type = String(reflecting: Swift.type(of: error))
        let text = "\(error)"
        let host = endpoint.host ?? endpoint.absoluteString
        if type.contains("NIOSSL") || text.localizedCaseInsensitiveContains("certificate") || text.contains("handshake") {
            return StoreError(
                .tls,
                "The TLS handshake with \(host) failed (\(text)). Check the endpoint's certificate, and the booth's clock: a certificate is refused by a clock outside its validity."
            )
        }
        let lookupFailures = ["dnsA", "DNS error", "UnknownHost", "not known", "name resolution", "resolve", "EAI_", "NXDOMAIN"]
        if lookupFailures.contains(where: { text.localizedCaseInsensitiveContains($0) }) {
            return StoreError(.dns, "The store's name \(host) does not resolve (\(text)). Check the network and sync.endpoint.")
        }
        if text.contains("remoteConnectionClosed") || text.contains("readTimeout") || text.contains("EOF") {
            // Connected, then cut off: a transfer half done, which the store does not keep.
            return StoreError(
                .unavailable,
                "The connection to \(endpoint.absoluteString) broke off during \(method) \(key.map(LogText.quoted) ?? "of the bucket") (\(text)).")
        }
        return StoreError(.unavailable, "The store at \(endpoint.absoluteString) cannot be reached (\(text)).")
    }
}
