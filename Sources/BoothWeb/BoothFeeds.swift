import BoothCore
import Foundation

/// What the running booth shows the web, as values and feeds the web only reads: the live
/// camera picture, the booth's screen, its state and its measurements.
package struct BoothFeeds: Sendable {
    /// The camera's frames as JPEG, latest only. The booth fills it only while someone
    /// watches (``LatestValue/isWatched``).
    package var preview: LatestValue<Data>
    /// The booth's screen as rendered, as JPEG, a few times per second while watched.
    package var screen: LatestValue<Data>
    /// The id of each photo as it is saved, for pages that show new photos as they come: every
    /// one, in order.
    package var photoAdded: EventBroadcast<UUID>
    /// The booth's state right now.
    package var status: @Sendable () -> BoothStatus
    /// The booth's own metrics (photos taken, save durations, dropped frames, camera
    /// reconnects, state, disk free), which `/metrics` shows before the web's.
    package var metrics: @Sendable () -> PrometheusText

    /// The booth as the web sees it; feeds not given are empty and never publish.
    package init(
        preview: LatestValue<Data> = LatestValue(), screen: LatestValue<Data> = LatestValue(),
        photoAdded: EventBroadcast<UUID> = EventBroadcast(), status: @escaping @Sendable () -> BoothStatus,
        metrics: @escaping @Sendable () -> PrometheusText = { PrometheusText() }
    ) {
        self.preview = preview
        self.screen = screen
        self.photoAdded = photoAdded
        self.status = status
        self.metrics = metrics
    }
}

/// The booth's state as `/api/status` reports it.
package struct BoothStatus: Sendable, Hashable, Codable {
    /// The state machine's state: "idle", "countdown", "naming", "fault(cameraMissing)"...
    package var state: String
    /// Whether the camera delivers frames.
    package var cameraConnected: Bool
    /// When the booth entered this state.
    package var since: Date
    /// Why photos cannot be saved now (the disk is below the reserve, or cannot be written), in
    /// words for the operator; `nil` when they can.
    package var storageProblem: String?
    /// The event sync, when the booth syncs.
    package var sync: SyncReport?
    /// The printer, when the booth prints.
    package var printer: PrinterReport?
    /// The booth's own Wi-Fi, when it runs one.
    package var hotspot: HotspotReport?

    /// A status with the given values.
    package init(state: String, cameraConnected: Bool, since: Date, storageProblem: String? = nil) {
        self.state = state
        self.cameraConnected = cameraConnected
        self.since = since
        self.storageProblem = storageProblem
    }
}

/// The booth's own Wi-Fi, as `/api/status` reports it.
package struct HotspotReport: Sendable, Hashable, Codable {
    /// hostapd's state of the access point: `ENABLED` while it runs; `unreachable` when hostapd
    /// does not answer.
    package var state: String
    /// Phones joined now.
    package var clients: Int
    /// Bytes the radio received and sent since it came up.
    package var receivedBytes: UInt64
    package var sentBytes: UInt64
    /// Why hostapd cannot be asked, when it cannot.
    package var problem: String?

    package init(state: String, clients: Int, receivedBytes: UInt64, sentBytes: UInt64, problem: String?) {
        self.state = state
        self.clients = clients
        self.receivedBytes = receivedBytes
        self.sentBytes = sentBytes
        self.problem = problem
    }
}

/// The printer and the print queue, as `/api/status` reports them.
package struct PrinterReport: Sendable, Hashable, Codable {
    /// idle, printing, stopped or unreachable.
    package var state: String
    /// What is wrong (`media-empty`, `paused`), the most serious first.
    package var faults: [String]
    /// What the printer or CUPS says.
    package var message: String
    /// What the operator does about the most serious fault.
    package var fix: String?
    /// Print requests in each state (pending, sending, printing, done, failed, canceled).
    package var jobs: [String: Int]
    package var pagesPrinted: Int

    package init(state: String, faults: [String], message: String, fix: String?, jobs: [String: Int], pagesPrinted: Int) {
        self.state = state
        self.faults = faults
        self.message = message
        self.fix = fix
        self.jobs = jobs
        self.pagesPrinted = pagesPrinted
    }

    /// Whether the printer holds prints: a fault that is not a warning.
    package var isHoldingPrints: Bool { state == "stopped" || state == "unreachable" }
}

/// How far the event sync is, as `/api/status` reports it.
package struct SyncReport: Sendable, Hashable, Codable {
    /// Photos waiting to be uploaded.
    package var pending: Int
    /// Since when the oldest of them waits.
    package var oldestPending: Date?
    /// When the store last confirmed an upload or a listing.
    package var lastSuccess: Date?
    /// The last failure, or why the booth does not sync at all; `nil` when all is well.
    package var lastError: String?
    /// The store's clock minus the booth's, in seconds (what dates the booth's photos); `nil`
    /// until the store has said its time.
    package var clockOffset: TimeInterval?

    package init(pending: Int, oldestPending: Date?, lastSuccess: Date?, lastError: String?, clockOffset: TimeInterval? = nil) {
        self.pending = pending
        self.oldestPending = oldestPending
        self.lastSuccess = lastSuccess
        self.lastError = lastError
        self.clockOffset = clockOffset
    }
}
