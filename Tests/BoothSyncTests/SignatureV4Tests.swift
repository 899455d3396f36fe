import BoothCore
import Foundation
import Testing

@testable import BoothSync

@Suite("Signature V4 against AWS's published test suite")
struct SignatureV4Tests {
    /// One case of the suite: a folder of SignatureV4Vectors.
    struct Vector: CustomTestStringConvertible, Sendable {
        let name: String
        let folder: URL
        var testDescription: String { name }

        func text(_ file: String) throws -> String {
            try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
        }
    }

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("SignatureV4Vectors")

    static let vectors: [Vector] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { !$0.hasSuffix(".md") }.sorted().map { Vector(name: $0, folder: folder.appendingPathComponent($0)) }
    }()

    @Test("The suite is there: 38 requests")
    func suitePresent() {
        #expect(Self.vectors.count == 38)
    }

    @Test("Canonical request, string to sign and signature match AWS's", arguments: vectors)
    func matches(_ vector: Vector) throws {
        let context = try #require(try JSONSerialization.jsonObject(with: Data(try vector.text("context.json").utf8)) as? [String: Any])
        let credentials = try #require(context["credentials"] as? [String: String])
        let signer = SignatureV4(
            credentials: StoreCredentials(
                accessKeyID: try #require(credentials["access_key_id"]), secretAccessKey: try #require(credentials["secret_access_key"]),
                // A token added after signing (as STS once did) is not part of what is signed.
                sessionToken: context["omit_session_token"] as? Bool == true ? nil : credentials["token"]),
            region: try #require(context["region"] as? String), service: try #require(context["service"] as? String),
            normalizesPath: context["normalize"] as? Bool ?? true)
        let request = try Self.parse(try vector.text("request.txt"))
        let timestamp = try #require(context["timestamp"] as? String)
        let date = try Date(timestamp, strategy: .iso8601)
        let signed = signer.sign(request, at: date, signingPayloadHeader: context["sign_body"] as? Bool ?? false)
        #expect(signed.canonicalRequest == (try vector.text("header-canonical-request.txt")))
        #expect(signed.stringToSign == (try vector.text("header-string-to-sign.txt")))
        #expect(signed.signature == (try vector.text("header-signature.txt")).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test("A changed secret, region, day or payload gives another signature")
    func everyPartCounts() throws {
        let request = SignatureV4.Request(
            method: "PUT", path: "/bucket/event/booth/photos/a.jpg", headers: [("Host", "store.example")],
            payloadHash: SignatureV4.hash(Data("photo".utf8)))
        let credentials = StoreCredentials(accessKeyID: "AKID", secretAccessKey: "secret")
        let date = Date(timeIntervalSince1970: 1_795_000_000)
        let signature = SignatureV4(credentials: credentials, region: "us-east-1").sign(request, at: date).signature
        var other = credentials
        other.secretAccessKey = "secreT"
        #expect(SignatureV4(credentials: other, region: "us-east-1").sign(request, at: date).signature != signature)
        #expect(SignatureV4(credentials: credentials, region: "eu-west-1").sign(request, at: date).signature != signature)
        #expect(SignatureV4(credentials: credentials, region: "us-east-1").sign(request, at: date + 86_400).signature != signature)
        var changed = request
        changed.payloadHash = SignatureV4.hash(Data("photO".utf8))
        #expect(SignatureV4(credentials: credentials, region: "us-east-1").sign(changed, at: date).signature != signature)
    }

    /// The suite's `request.txt`: a request line, headers (a line starting with spaces continues
    /// the header before it), an empty line and the body. The path and query are given encoded;
    /// the signer takes them decoded.
    static func parse(_ text: String) throws -> SignatureV4.Request {
        let parts = text.components(separatedBy: "\n\n")
        let lines = parts[0].components(separatedBy: "\n")
        let requestLine = lines[0].split(separator: " ")
        let method = String(requestLine[0])
        // The target may contain spaces ("/example space/"): everything between the method and
        // the protocol.
        let target = requestLine.dropFirst().dropLast().joined(separator: " ")
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() where !line.isEmpty {
            if line.first == " " || line.first == "\t", let last = headers.popLast() {
                headers.append((last.name, last.value + " " + line.trimmingCharacters(in: .whitespaces)))
            } else if let colon = line.firstIndex(of: ":") {
                headers.append((String(line[..<colon]), String(line[line.index(after: colon)...])))
            }
        }
        let body = parts.count > 1 ? parts.dropFirst().joined(separator: "\n\n") : ""
        let pathPart = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(pathPart[0]).removingPercentEncoding ?? String(pathPart[0])
        var query: [(name: String, value: String)] = []
        if pathPart.count > 1 {
            for item in pathPart[1].split(separator: "&") {
                let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                query.append(
                    (
                        String(pair[0]).removingPercentEncoding ?? String(pair[0]),
                        pair.count > 1 ? (String(pair[1]).removingPercentEncoding ?? String(pair[1])) : ""
                    ))
            }
        }
        return SignatureV4.Request(method: method, path: path, query: query, headers: headers, payloadHash: SignatureV4.hash(Data(body.utf8)))
    }
}
