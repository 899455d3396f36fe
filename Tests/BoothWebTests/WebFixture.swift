import BoothCore
import BoothImaging
import BoothStore
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization

@testable import BoothWeb

/// A photo library in a fresh temporary folder, a live booth the test controls, and the
/// gallery's application over them.
final class WebFixture: Sendable {
    let directory: URL
    let library: PhotoLibrary
    let live: LiveBooth
    /// What `live.status()` says about the camera.
    let camera = CameraSwitch()
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
        live = LiveBooth(
            status: {
                BoothStatus(state: "idle", cameraConnected: camera.isConnected, since: Date(timeIntervalSince1970: 1_790_000_000.5))
            },
            metrics: { Self.boothMetrics })
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// The gallery's application with `settings` (admin token "secret" unless told otherwise).
    func application(
        _ settings: WebSettings = WebSettings(boothName: "Test Booth", adminToken: "secret"), eventKeepAlive: Duration = .seconds(15),
        logger: Logger = Logger(label: "test")
    ) -> some ApplicationProtocol {
        GalleryServer.buildApplication(library: library, live: live, settings: settings, logger: logger, eventKeepAlive: eventKeepAlive)
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
            jpeg, thumbnail: try JPEGThumbnailer().thumbnail(forJPEG: jpeg), id: UUID(), number: number,
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
