import BoothCore
import BoothImaging
import BoothStore
import BoothSync
import BoothWeb
import Foundation
import Logging
import ServiceLifecycle

/// `photobooth serve`: the event's gallery without a camera, a button, a keypad or a screen,
/// fed only by the bucket. On any Linux server (a small cloud machine behind HTTPS), it imports
/// the photos every booth of the event uploads and serves them, so that the QR code on a
/// booth's "Saved as" screen (with `http.public_url` pointing here) opens the photo from mobile
/// data.
package enum PublicGallery {
    /// Serves until SIGTERM or SIGINT.
    package static func run(_ configuration: BoothConfiguration, logger: Logger) async throws {
        guard configuration.sync.isEnabled else {
            throw BoothError(
                description: """
                    photobooth serve publishes an event's bucket: set sync.endpoint, sync.bucket and sync.event (or \
                    --sync-endpoint, --sync-bucket and --sync-event).
                    """)
        }
        let stops = TrappedSignal.stop
        let thumbnailer = JPEGThumbnailer()
        let (lock, library) = try await lockAndOpenLibrary(configuration, thumbnailer: thumbnailer, logger: logger)
        defer { withExtendedLifetime(lock) {} }
        logger.info("Publishing the event \"\(configuration.sync.event ?? "")\" from \(library.directory.path)")
        let sync = EventSync(
            settings: configuration.sync, boothName: nil, library: library, tagger: PictureTagger(), thumbnailer: thumbnailer,
            logger: logger)
        let since = Date()
        let live = BoothFeeds(
            screen: LatestValue(),
            status: {
                var status = BoothStatus(state: "serving", cameraConnected: false, since: since)
                status.sync = SyncReport(sync.metrics.snapshot)
                return status
            })
        var settings = WebSettings(
            address: configuration.web.address, port: configuration.web.port, boothName: configuration.web.boothName,
            adminToken: nil, dateFormat: configuration.dateFormat, event: configuration.sync.event ?? "")
        settings.language = configuration.language
        settings.welcome = configuration.web.welcome
        // A public gallery meets the most connections of all: its limit, not the process's.
        settings.connectionLimits = raiseDescriptorLimit(logger: logger)
        let server = GalleryServer(library: library, live: live, settings: settings, logger: logger)
        let group = ServiceGroup(
            configuration: .init(
                services: [
                    .init(service: SyncService(sync: sync), serviceName: "sync"),
                    .init(
                        service: server, successTerminationBehavior: .gracefullyShutdownGroup, failureTerminationBehavior: .gracefullyShutdownGroup,
                        serviceName: "web"),
                ],
                logger: logger))
        try await runUntilStopped(group, stops: stops)
        live.preview.close()
        live.photoAdded.close()
    }
}
