import Foundation
import StoreFixture
import Synchronization
import Testing

@testable import BoothSync

@Suite(
    "The S3 client against a real store (SeaweedFS on loopback)", .fullLane, .enabled(if: SeaweedFS.available, Comment(rawValue: SeaweedFS.missing)))
struct ObjectStoreTests {
    @Test("Put, get, list page by page with continuation tokens, delete")
    func roundTrip() async throws {
        let server = try await SeaweedFS()
        let store = server.store()
        let keys = (0..<7).map { "gala/booth-1/records/\($0) é+ü&=?.xmp" }
        for (index, key) in keys.enumerated() {
            try await store.put(key, Data("record \(index)".utf8), contentType: "application/rdf+xml")
        }
        #expect(try await store.get(keys[3]) == Data("record 3".utf8))
        #expect(try await store.get("gala/booth-1/records/none.xmp") == nil)
        let first = try await store.list(prefix: "gala/", pageSize: 3)
        #expect(first.objects.count == 3 && first.nextToken != nil)
        let all = try await store.listAll(prefix: "gala/", pageSize: 3)
        #expect(all.map(\.key).sorted() == keys.sorted())
        #expect(Set(all.map(\.etag)).count == 7, "every object has its own ETag")
        try await store.delete(keys[0])
        try await store.delete(keys[0])
        #expect(try await store.listAll(prefix: "gala/").count == 6)
    }

    @Test("A payload damaged on the way (its checksum does not match) is refused, not stored")
    func corruptedRefused() async throws {
        let server = try await SeaweedFS()
        let store = server.store()
        await #expect(throws: StoreError(.corrupted, code: "BadDigest", "")) {
            try await store.put("gala/booth-1/photos/x.jpg", Data("damaged".utf8), contentType: "image/jpeg", md5Of: Data("sent".utf8))
        }
        #expect(try await store.get("gala/booth-1/photos/x.jpg") == nil)
    }

    @Test("Wrong credentials, a missing bucket, a name that does not resolve, a failed TLS handshake and a store that is down each say so")
    func failures() async throws {
        let server = try await SeaweedFS()
        let wrong = server.store(credentials: StoreCredentials(accessKeyID: SeaweedFS.accessKey, secretAccessKey: "not-the-secret"))
        do {
            try await wrong.put("gala/a.xmp", Data("x".utf8), contentType: "text/plain")
            Issue.record("a wrong secret was accepted")
        } catch {
            #expect(error.kind == .credentials, "\(error)")
            #expect(error.description.contains("AWS_SECRET_ACCESS_KEY"), "the message says what to check: \(error)")
        }
        let elsewhere = ObjectStore(
            endpoint: server.endpoint, bucket: "no-such-bucket", region: "us-east-1", pathStyle: true, credentials: server.credentials)
        do {
            try await elsewhere.check(prefix: "gala/")
            Issue.record("a missing bucket was listed")
        } catch {
            #expect(error.kind == .noBucket && error.description.contains("no-such-bucket"), "\(error)")
        }
        // The booth's own HTTP client, which does not try a failed connection again until the
        // request's deadline. .invalid never resolves (RFC 6761).
        let client = EventSync.makeClient()
        defer { _ = client.shutdown() }
        let unresolved = ObjectStore(
            endpoint: URL(string: "http://photobooth-store.invalid:9000")!, bucket: SeaweedFS.bucket, region: "us-east-1",
            pathStyle: true, credentials: server.credentials, timeout: .seconds(20), client: client)
        do {
            try await unresolved.check(prefix: "gala/")
            Issue.record("a store whose name does not resolve answered")
        } catch {
            #expect(error.kind == .dns && error.description.contains("photobooth-store.invalid does not resolve"), "\(error)")
        }
        // HTTPS to the store's plain HTTP port: the handshake fails.
        var secure = URLComponents(url: server.endpoint, resolvingAgainstBaseURL: false)!
        secure.scheme = "https"
        let handshake = ObjectStore(
            endpoint: secure.url!, bucket: SeaweedFS.bucket, region: "us-east-1", pathStyle: true, credentials: server.credentials,
            timeout: .seconds(20), client: client)
        do {
            try await handshake.check(prefix: "gala/")
            Issue.record("a TLS handshake with a plain HTTP server succeeded")
        } catch {
            #expect(error.kind == .tls && error.description.contains("TLS handshake with 127.0.0.1 failed"), "\(error)")
        }
        await server.stop()
        do {
            try await server.store(timeout: .seconds(2)).put("gala/a.xmp", Data("x".utf8), contentType: "text/plain")
            Issue.record("a stopped store took an upload")
        } catch {
            #expect(error.kind == .unavailable && error.clearsByItself, "\(error)")
        }
    }

    @Test("A booth clock an hour behind is corrected from the store's time, and the upload goes through")
    func clockSkew() async throws {
        let server = try await SeaweedFS()
        let store = server.store(clock: CorrectedClock(system: { Date() - 3600 }))
        try await store.put("gala/booth-1/records/skewed.xmp", Data("late".utf8), contentType: "application/rdf+xml")
        #expect(abs(store.clockCorrection - 3600) < 120, "correction \(store.clockCorrection) s")
        #expect(try await server.store().get("gala/booth-1/records/skewed.xmp") == Data("late".utf8))
    }

    @Test("Uploads can be held to a rate: 64 KB at 64 KB/s take about a second")
    func paced() async throws {
        let server = try await SeaweedFS()
        let store = ObjectStore(
            endpoint: server.endpoint, bucket: SeaweedFS.bucket, region: "us-east-1", pathStyle: true, credentials: server.credentials,
            bytesPerSecond: 64 * 1024)
        let payload = Data((0..<(64 * 1024)).map { UInt8(truncatingIfNeeded: $0) })
        let started = ContinuousClock.now
        try await store.put("gala/booth-1/photos/paced.jpg", payload, contentType: "image/jpeg")
        let took = ContinuousClock.now - started
        // The pacing is the floor: the last piece is due after 1 s. (No upper bound: a busy
        // machine may be slower, which is not what this checks.)
        #expect(took >= .milliseconds(850), "took \(took)")
        #expect(try await server.store().get("gala/booth-1/photos/paced.jpg") == payload)
    }

    @Test("An object larger than the limit asked is refused from its length, before its bytes are read; every byte read is counted")
    func limit() async throws {
        let server = try await SeaweedFS()
        let counted = Mutex<(bytes: Int, objects: Int)>((0, 0))
        let store = server.store(received: { bytes, object in
            counted.withLock {
                $0.bytes += bytes
                if object { $0.objects += 1 }
            }
        })
        let big = Data(repeating: 0x42, count: 1 << 20)
        try await store.put("gala/booth-1/records/big.xmp", big, contentType: "application/rdf+xml")
        let before = counted.withLock { $0 }
        do {
            _ = try await store.get("gala/booth-1/records/big.xmp", limit: 64 << 10)
            Issue.record("a 1 MiB object was read under a 64 KiB limit")
        } catch {
            #expect(error.kind == .tooLarge && error.description.contains("1048576 bytes"), "\(error)")
        }
        let refused = counted.withLock { $0 }
        #expect(refused.bytes - before.bytes <= 64 << 10 && refused.objects - before.objects == 1)
        #expect(try await store.get("gala/booth-1/records/big.xmp", limit: 1 << 20) == big)
        let read = counted.withLock { $0 }
        #expect(read.bytes - refused.bytes == big.count && read.objects - refused.objects == 1)
    }
}
