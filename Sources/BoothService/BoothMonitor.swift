import BoothCore
import BoothStore
import BoothSync
import BoothWeb
import Foundation
import Synchronization

/// What the operator sees of the running booth: its status (`/api/status`, `/healthz`) and
/// its metrics (`/metrics`, in Prometheus' text format: photos taken, how long saves take, the
/// camera's dropped frames and reconnects, the current state, free disk).
///
/// It is told from the booth's loop, the photo writer's queue and the camera's task; one mutex
/// keeps it consistent, and nobody holds it for more than a few additions.
final class BoothMonitor: Sendable {
    /// Upper bounds of the save-duration histogram, in seconds: a save normally takes tens of
    /// milliseconds; seconds mean a struggling SD card.
    static let saveBuckets: [Double] = [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private struct Counts {
        var photosTaken = 0
        var saveBucketCounts = Array(repeating: 0, count: BoothMonitor.saveBuckets.count)
        var saveSum = 0.0
        var droppedFrames: UInt64 = 0
        var cameraReconnects = 0
        var state = BoothState.Kind.starting
        var stateSince = Date()
        var cameraConnected = false
        var storage: StorageHealth?
    }

    private let counts = Mutex(Counts())
    private let dataDirectory: URL
    /// The event sync's figures, when the booth syncs.
    private let sync = Mutex<SyncMetrics?>(nil)

    /// A monitor for a booth whose library is in `dataDirectory` (for the free space).
    init(dataDirectory: URL) {
        self.dataDirectory = dataDirectory
    }

    /// Reports the event sync's figures from now on.
    func attach(_ metrics: SyncMetrics) {
        sync.withLock { $0 = metrics }
    }

    func photoStored(after duration: Duration) {
        let seconds = duration.inSeconds
        counts.withLock { counts in
            counts.photosTaken += 1
            counts.saveSum += seconds
            for (index, bound) in Self.saveBuckets.enumerated() where seconds <= bound {
                counts.saveBucketCounts[index] += 1
            }
        }
    }

    func framesDropped(_ count: UInt64) {
        counts.withLock { $0.droppedFrames += count }
    }

    func cameraReconnected() {
        counts.withLock { $0.cameraReconnects += 1 }
    }

    func stateChanged(to state: BoothState) {
        counts.withLock { counts in
            guard counts.state != state.kind else { return }
            counts.state = state.kind
            counts.stateSince = Date()
        }
    }

    /// Follows the camera's reports to the booth (``BoothEvent/cameraReady``,
    /// ``BoothEvent/cameraLost``).
    func cameraReported(_ event: BoothEvent) {
        switch event {
        case .cameraReady: counts.withLock { $0.cameraConnected = true }
        case .cameraLost: counts.withLock { $0.cameraConnected = false }
        default: break
        }
    }

    /// Follows the checks of the library's disk.
    func storageChecked(_ health: StorageHealth) {
        counts.withLock { $0.storage = health }
    }

    /// The booth's state right now.
    var status: BoothStatus {
        var status = counts.withLock { counts in
            BoothStatus(
                state: counts.state.description, cameraConnected: counts.cameraConnected, since: counts.stateSince,
                storageProblem: counts.storage.flatMap { $0.problem == nil ? nil : $0.description })
        }
        if let figures = sync.withLock({ $0 })?.snapshot {
            status.sync = SyncReport(figures)
        }
        return status
    }

    /// The metrics as Prometheus' text exposition format (version 0.0.4). Reads the free disk
    /// space now (``StorageHealth/check(_:reserveBytes:probing:)``, which writes nothing).
    func exposition() -> String {
        let counts = counts.withLock { $0 }
        var lines: [String] = []
        func metric(_ name: String, _ type: String, _ help: String, _ samples: [(String, String)]) {
            lines.append("# HELP \(name) \(help)")
            lines.append("# TYPE \(name) \(type)")
            for (labels, value) in samples { lines.append("\(name)\(labels) \(value)") }
        }
        metric("photobooth_photos_taken_total", "counter", "Photos saved since the booth started.", [("", "\(counts.photosTaken)")])
        let buckets = zip(Self.saveBuckets, counts.saveBucketCounts).map { bound, count in
            ("_bucket{le=\"\(bound.formatted(.number.grouping(.never)))\"}", "\(count)")
        }
        lines.append("# HELP photobooth_save_duration_seconds From the chosen frame to the photo committed to disk and catalog.")
        lines.append("# TYPE photobooth_save_duration_seconds histogram")
        for (suffix, value) in buckets + [("_bucket{le=\"+Inf\"}", "\(counts.photosTaken)")] {
            lines.append("photobooth_save_duration_seconds\(suffix) \(value)")
        }
        lines.append("photobooth_save_duration_seconds_sum \(counts.saveSum)")
        lines.append("photobooth_save_duration_seconds_count \(counts.photosTaken)")
        metric(
            "photobooth_camera_dropped_frames_total", "counter",
            "Frames the camera or the booth dropped (gaps in the camera's frame counter).", [("", "\(counts.droppedFrames)")])
        metric(
            "photobooth_camera_reconnects_total", "counter", "Times the camera was reopened after it failed or went away.",
            [("", "\(counts.cameraReconnects)")])
        metric("photobooth_state", "gauge", "The booth's current state (1 for the state it is in).", [("{state=\"\(counts.state)\"}", "1")])
        if let free = StorageHealth.check(dataDirectory, reserveBytes: 0).freeBytes {
            metric("photobooth_disk_free_bytes", "gauge", "Free space for the photo library.", [("", "\(free)")])
        }
        if let storage = counts.storage {
            metric(
                "photobooth_storage_reserve_bytes", "gauge", "Free space the booth keeps; below it, it takes no photos.",
                [("", "\(storage.reserveBytes)")])
            metric(
                "photobooth_storage_ok", "gauge", "1 when photos can be saved, 0 when the disk is below the reserve or cannot be written.",
                [("", storage.problem == nil ? "1" : "0")])
        }
        if let figures = sync.withLock({ $0 })?.snapshot {
            metric("photobooth_sync_outbox_photos", "gauge", "Photos waiting to be uploaded to the event's bucket.", [("", "\(figures.pending)")])
            let age = figures.oldestPending.map { max(0, Date().timeIntervalSince($0)) } ?? 0
            metric(
                "photobooth_sync_oldest_pending_seconds", "gauge", "How long the oldest photo in the outbox has waited.",
                [("", String(format: "%.0f", age))])
            metric(
                "photobooth_sync_objects_total", "counter", "Objects uploaded to and imported from the event's bucket.",
                [("{direction=\"uploaded\"}", "\(figures.objectsUploaded)"), ("{direction=\"imported\"}", "\(figures.objectsImported)")])
            metric(
                "photobooth_sync_bytes_total", "counter", "Bytes uploaded to and imported from the event's bucket.",
                [("{direction=\"uploaded\"}", "\(figures.bytesUploaded)"), ("{direction=\"imported\"}", "\(figures.bytesImported)")])
            metric(
                "photobooth_sync_failures_total", "counter", "Failed requests to the event's bucket, by kind.",
                StoreError.Kind.allCases.map { ("{kind=\"\($0.rawValue)\"}", "\(figures.failures[$0] ?? 0)") })
            metric(
                "photobooth_sync_clock_correction_seconds", "gauge", "Seconds added to the booth's clock to sign requests (from the store's time).",
                [("", String(format: "%.0f", figures.clockCorrection))])
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension SyncReport {
    /// What the status says of the event sync's figures: the last failure, or why the booth
    /// does not sync at all.
    init(_ figures: SyncMetrics.Snapshot) {
        self.init(
            pending: figures.pending, oldestPending: figures.oldestPending, lastSuccess: figures.lastSuccess,
            lastError: figures.notSyncing ?? figures.lastError?.description)
    }
}
