import BoothCore
import BoothImaging
import BoothStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

@testable import BoothWeb

/// A photo library in a fresh temporary folder, a live booth the test controls, and the
/// gallery's server over them.
final class WebFixture: Sendable {
    let directory: URL
    let library: PhotoLibrary
    let live: BoothFeeds
    /// What `live.status()` says about the camera.
    let camera = CameraSwitch()
    /// What `live.status()` says about the printer; none, as on a booth that does not print.
    let printer = PrinterSwitch()
    /// What `live.metrics()` returns.
    static var boothMetrics: PrometheusText {
        var text = PrometheusText()
        text.add("photobooth_photos_taken_total", .counter, help: "Photos saved since the booth started.", value: 7)
        return text
    }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("photobooth-web-tests-\(UUID().lowercased)")
        library = try PhotoLibrary(directory: directory, thumbnailer: JPEGThumbnailer(), logger: Logger(label: "test"), create: true)
        let camera = self.camera
        let printer = self.printer
        live = BoothFeeds(
            status: {
                var status = BoothStatus(state: "idle", cameraConnected: camera.isConnected, since: Date(timeIntervalSince1970: 1_790_000_000.5))
                status.printer = printer.report
                return status
            },
            metrics: { Self.boothMetrics })
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// The gallery's server with `settings` (admin token "secret" unless told otherwise), to
    /// run on a port of its own.
    func server(
        _ settings: WebSettings = WebSettings(boothName: "Test Booth", adminToken: "secret"), eventKeepAlive: Duration = .seconds(15),
        logger: Logger = Logger(label: "test")
    ) -> ServedGallery {
        ServedGallery(library: library, live: live, settings: settings, eventKeepAlive: eventKeepAlive, logger: logger)
    }

    /// A JPEG of the test pattern.
    static func jpeg(frame: UInt64 = 1, width: Int = 320, height: Int = 240) throws -> Data {
        try JPEGEncoder().encode(TestPattern(width: width, height: height).render(frame: frame, at: Date()), quality: 85)
    }

    /// Adds a photo the way the booth does, `secondsAgo` seconds in the past.
    @discardableResult
    func add(caption: String? = nil, secondsAgo: Double = 0, width: Int = 320, height: Int = 240) throws -> Photo {
        let jpeg = try Self.jpeg(width: width, height: height)
        let number = library.reservePhotoNumber()
        let (photo, _) = try library.add(
            jpeg, thumbnail: try JPEGThumbnailer().thumbnail(of: jpeg), id: UUID(), number: number,
            caption: caption.flatMap { Caption(sanitizing: $0) } ?? .placeholder(number: number),
            createdAt: Date(timeIntervalSinceNow: -secondsAgo))
        return photo
    }

    /// Adds `count` photos, one second apart; returns them newest first.
    func add(count: Int) throws -> [Photo] {
        try (0..<count).map { try add(secondsAgo: Double(count - $0)) }.reversed()
    }
}

/// Whether the test's camera is connected; tests unplug it.
final class CameraSwitch: Sendable {
    private let connected = Mutex(true)

    var isConnected: Bool {
        get { connected.withLock { $0 } }
        set { connected.withLock { $0 = newValue } }
    }
}

final class PrinterSwitch: Sendable {
    private let value = Mutex<PrinterReport?>(nil)

    var report: PrinterReport? {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}

/// A ``GalleryServer``, the booth's own, for the length of a test: it listens on a port of its
/// own on localhost (whatever its settings say), and the test's client is connected to it.
struct ServedGallery {
    let library: PhotoLibrary
    let live: BoothFeeds
    let settings: WebSettings
    let eventKeepAlive: Duration
    let logger: Logger

    /// Runs `test` with a client of the running server, then shuts the server down gracefully.
    func test<Value: Sendable>(_ test: @Sendable (GalleryClient) async throws -> Value) async throws -> Value {
        let (ports, listening) = AsyncStream.makeStream(of: Int.self)
        let server = GalleryServer(
            library: library, live: live, settings: settings, logger: logger, eventKeepAlive: eventKeepAlive,
            listeningOn: ("localhost", 0), onListening: { listening.yield($0) })
        let group = ServiceGroup(configuration: .init(services: [server], logger: logger))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var waiting = ports.makeAsyncIterator()
            guard let port = await waiting.next() else { throw ServedGalleryError.notListening }
            // The timeout only ends a test that hangs. The web's threads run at nice 10
            // (WebThreads), below the full lane's booth processes: while those take both cores,
            // an answer can wait tens of seconds, as the web waits for the booth on a Pi.
            let client = TestClient(host: "localhost", port: port, configuration: .init(timeout: .seconds(120)))
            client.connect()
            let result: Result<Value, any Error>
            do {
                result = .success(try await test(GalleryClient(client: client, port: port)))
            } catch {
                result = .failure(error)
            }
            try await client.shutdown()
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
            return try result.get()
        }
    }
}

enum ServedGalleryError: Error {
    case notListening
}

/// The client of a test: one connection to the gallery, kept alive between requests.
struct GalleryClient: Sendable {
    let client: TestClient
    /// The port of the server it is connected to.
    let port: Int?

    /// The answer to one request.
    @discardableResult
    func execute(
        uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil, authority: String = "localhost"
    ) async throws -> GalleryResponse {
        var headers = headers
        headers[.connection] = "keep-alive"
        let response = try await client.execute(TestClient.Request(uri, method: method, authority: authority, headers: headers, body: body))
        return GalleryResponse(head: response.head, body: response.body ?? ByteBuffer())
    }
}

/// An answer as the test's client read it.
struct GalleryResponse: Sendable {
    let head: HTTPResponse
    let body: ByteBuffer

    var status: HTTPResponse.Status { head.status }
    var headers: HTTPFields { head.headerFields }
}
