import BoothCore
import BoothPrint
import BoothStore
import BoothSync
import BoothWeb
import Foundation
import Synchronization

/// What the operator sees of the running booth: its status (`/api/status`, `/healthz`) and
/// its metrics (`/metrics`: photos taken, how long saves take, the
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
        var frames: UInt64 = 0
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
    /// The print thread's figures, when the booth prints.
    private let printing = Mutex<(@Sendable () -> PrintFigures)?>(nil)
    /// The hotspot's figures, when the booth runs its own Wi-Fi.
    private let hotspot = Mutex<(@Sendable () -> HotspotFigures)?>(nil)

    /// A monitor for a booth whose library is in `dataDirectory` (for the free space).
    init(dataDirectory: URL) {
        self.dataDirectory = dataDirectory
    }

    /// Reports the event sync's figures from now on.
    func attach(_ metrics: SyncMetrics) {
        sync.withLock { $0 = metrics }
    }

    /// Reports the printer and the print queue from now on.
    func attach(printing figures: @escaping @Sendable () -> PrintFigures) {
        printing.withLock { $0 = figures }
    }

    /// Reports the booth's own Wi-Fi from now on.
    func attach(hotspot figures: @escaping @Sendable () -> HotspotFigures) {
        hotspot.withLock { $0 = figures }
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

    func frameDelivered() {
        counts.withLock { $0.frames += 1 }
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
        if let figures = printing.withLock({ $0 })?() {
            let printer = figures.printer
            status.printer = PrinterReport(
                state: printer.state.rawValue, faults: printer.faults.map(\.rawValue), message: printer.message, fix: printer.fault?.fix,
                jobs: Dictionary(uniqueKeysWithValues: figures.requests.map { ($0.key.rawValue, $0.value) }), pagesPrinted: figures.pages)
        }
        if let figures = hotspot.withLock({ $0 })?() {
            status.hotspot = figures.report
        }
        return status
    }

    /// The booth's metrics for `/metrics`. Reads the free disk space now
    /// (``StorageHealth/check(_:reserveBytes:probing:)``, which writes nothing).
    func exposition() -> PrometheusText {
        let counts = counts.withLock { $0 }
        var text = PrometheusText()
        text.add("photobooth_photos_taken_total", .counter, help: "Photos saved since the booth started.", value: counts.photosTaken)
        text.addHistogram(
            "photobooth_save_duration_seconds", help: "From the chosen frame to the photo committed to disk and catalog.",
            buckets: Array(zip(Self.saveBuckets, counts.saveBucketCounts)), sum: counts.saveSum, count: counts.photosTaken)
        text.add(
            "photobooth_camera_frames_total", .counter, help: "Frames the camera delivered (their rate is the camera's frame rate).",
            value: counts.frames)
        text.add(
            "photobooth_camera_dropped_frames_total", .counter,
            help: "Frames the camera or the booth dropped (gaps in the camera's frame counter).", value: counts.droppedFrames)
        text.add(
            "photobooth_camera_reconnects_total", .counter, help: "Times the camera was reopened after it failed or went away.",
            value: counts.cameraReconnects)
        text.add(
            "photobooth_state", .gauge, help: "The booth's current state (1 for the state it is in).",
            samples: [.init(labels: ["state": counts.state.description], value: 1)])
        if let free = StorageHealth.check(dataDirectory, reserveBytes: 0).freeBytes {
            text.add("photobooth_disk_free_bytes", .gauge, help: "Free space for the photo library.", value: free)
        }
        if let storage = counts.storage {
            text.add(
                "photobooth_storage_reserve_bytes", .gauge, help: "Free space the booth keeps; below it, it takes no photos.",
                value: storage.reserveBytes)
            text.add(
                "photobooth_storage_ok", .gauge,
                help: "1 when photos can be saved, 0 when the disk is below the reserve or cannot be written.",
                value: storage.problem == nil ? 1 : 0)
        }
        if let figures = printing.withLock({ $0 })?() {
            let states: [PrinterStatus.State] = [.idle, .printing, .stopped, .unreachable]
            text.add(
                "photobooth_printer_state", .gauge, help: "The printer's state (1 for the state it is in).",
                samples: states.map { .init(labels: ["state": $0.rawValue], value: figures.printer.state == $0 ? 1 : 0) })
            text.add(
                "photobooth_printer_fault", .gauge, help: "What is wrong with the printer (1 for each fault it has now).",
                samples: PrinterFault.allCases.map { .init(labels: ["fault": $0.rawValue], value: figures.printer.faults.contains($0) ? 1 : 0) })
            text.add(
                "photobooth_print_jobs", .gauge, help: "Print requests in each state.",
                samples: PrintRequest.State.allCases.map { .init(labels: ["state": $0.rawValue], value: figures.requests[$0] ?? 0) })
            text.add("photobooth_printed_pages_total", .counter, help: "Pages printed, as CUPS counts them.", value: figures.pages)
        }
        if let figures = hotspot.withLock({ $0 })?() {
            text.add(
                "photobooth_hotspot_up", .gauge, help: "1 while the booth's own Wi-Fi access point runs (hostapd says ENABLED).",
                value: figures.isRunning ? 1 : 0)
            text.add("photobooth_hotspot_clients", .gauge, help: "Phones joined to the booth's own Wi-Fi now.", value: figures.clients)
            text.add(
                "photobooth_hotspot_bytes_total", .counter, help: "Bytes the hotspot's radio received and sent.",
                samples: [
                    .init(labels: ["direction": "received"], value: figures.receivedBytes),
                    .init(labels: ["direction": "sent"], value: figures.sentBytes),
                ])
        }
        if let figures = sync.withLock({ $0 })?.snapshot {
            text.add("photobooth_sync_outbox_photos", .gauge, help: "Photos waiting to be uploaded to the event's bucket.", value: figures.pending)
            let age = figures.oldestPending.map { max(0, Date().timeIntervalSince($0)) } ?? 0
            text.add(
                "photobooth_sync_oldest_pending_seconds", .gauge, help: "How long the oldest photo in the outbox has waited.",
                value: age.rounded())
            text.add(
                "photobooth_sync_objects_total", .counter, help: "Objects uploaded to and imported from the event's bucket.",
                samples: [
                    .init(labels: ["direction": "uploaded"], value: figures.objectsUploaded),
                    .init(labels: ["direction": "imported"], value: figures.objectsImported),
                ])
            text.add(
                "photobooth_sync_bytes_total", .counter, help: "Bytes uploaded to and imported from the event's bucket.",
                samples: [
                    .init(labels: ["direction": "uploaded"], value: figures.bytesUploaded),
                    .init(labels: ["direction": "imported"], value: figures.bytesImported),
                ])
            text.add(
                "photobooth_sync_failures_total", .counter, help: "Failed requests to the event's bucket, by kind.",
                samples: StoreError.Kind.allCases.map { .init(labels: ["kind": $0.rawValue], value: figures.failures[$0] ?? 0) })
            text.add(
                "photobooth_sync_clock_correction_seconds", .gauge,
                help: "Seconds added to the booth's clock to date photos and sign requests (from the store's time).",
                value: figures.clockCorrection.rounded())
        }
        return text
    }
}

extension SyncReport {
    /// What the status says of the event sync's figures: the last failure, or why the booth
    /// does not sync at all.
    init(_ figures: SyncMetrics.Snapshot) {
        self.init(
            pending: figures.pending, oldestPending: figures.oldestPending, lastSuccess: figures.lastSuccess,
            lastError: figures.notSyncing ?? figures.lastError?.description, clockOffset: figures.clockKnown ? figures.clockCorrection : nil)
    }
}
