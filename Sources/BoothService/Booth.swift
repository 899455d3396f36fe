import BoothCore
import BoothDevices
import BoothImaging
import BoothStore
import Foundation
import Logging
import ServiceLifecycle

/// How to run the booth.
public struct BoothConfiguration: Sendable {
    /// The photo library's folder.
    public var dataDirectory: URL
    /// How long each part of the cycle lasts.
    public var settings: BoothSettings
    /// Run on simulated hardware: the test-pattern camera and the terminal.
    public var simulate: Bool

    public init(dataDirectory: URL, settings: BoothSettings = BoothSettings(), simulate: Bool) {
        self.dataDirectory = dataDirectory
        self.settings = settings
        self.simulate = simulate
    }
}

/// The booth as a whole: library, devices, state machine and photo writer in one service group.
public enum Booth {
    /// Runs the booth until its input ends (a piped script), or SIGTERM/SIGINT. Returns once every
    /// photo it reported as saved is on disk and in the catalog.
    public static func run(_ configuration: BoothConfiguration, logger: Logger) async throws {
        guard configuration.simulate else { throw BoothError.realHardwareNotAvailable }
        let thumbnailer = JPEGThumbnailer()
        // Locking, opening, migrating and reconciling the library block (fsync, decoding
        // orphans): done on a thread of their own, not on the cooperative pool.
        let (lock, library) = try await onOwnThread {
            let lock = try LibraryLock(directory: configuration.dataDirectory)
            let library = try PhotoLibrary(
                directory: configuration.dataDirectory, thumbnailer: thumbnailer, logger: logger, create: true)
            for action in try library.reconcile() {
                logger.notice("Library: \(action)")
            }
            return (lock, library)
        }
        defer { withExtendedLifetime(lock) {} }
        logger.info("Photo library in \(library.directory.path)")

        let console = try TerminalConsole(logger: logger)
        let camera = SimulatedCamera()
        let frames = RecentFrames()
        let runtime = BoothRuntime(
            settings: configuration.settings, frames: frames, button: console, keypad: console, screen: console,
            library: library, thumbnailer: thumbnailer, logger: logger)
        let cameraService = CameraService(camera: camera, frames: frames, logger: logger) { runtime.post($0) }

        console.start()
        // The group stops services in reverse order: the booth (which finishes its saves) first,
        // the camera last.
        let group = ServiceGroup(configuration: .init(
            services: [
                .init(service: cameraService, serviceName: "camera"),
                .init(service: runtime, successTerminationBehavior: .gracefullyShutdownGroup, serviceName: "booth"),
            ],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger))
        try await group.run()
        await console.flush()
    }
}

/// Runs blocking `work` on a Dispatch thread and waits for it without holding a thread of
/// Swift's cooperative pool.
func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global(qos: .userInitiated).async {
            continuation.resume(with: Result { try work() })
        }
    }
}

/// Why the booth could not start.
public struct BoothError: Error, CustomStringConvertible {
    public let description: String

    /// Real hardware support arrives with the V4L2, GPIO, serial and framebuffer devices.
    public static let realHardwareNotAvailable = BoothError(description: """
        This build drives simulated hardware only. Run `photobooth run --simulate`; \
        support for a real camera, button, keypad and screen is not built yet.
        """)
}
