import BoothCore
import BoothImaging
import BoothWeb
import Foundation
import Testing

@testable import BoothService
@testable import BoothSync

@Suite("What the operator sees: status, metrics and the web's live preview")
struct BoothMonitorTests {
    @Test("Metrics count photos into cumulative buckets and follow the state and the camera")
    func metrics() throws {
        let monitor = BoothMonitor(dataDirectory: URL(fileURLWithPath: NSTemporaryDirectory()))
        monitor.photoStored(after: .milliseconds(40))
        monitor.photoStored(after: .milliseconds(700))
        monitor.frameDelivered()
        monitor.frameDelivered()
        monitor.framesDropped(3)
        monitor.cameraReconnected()
        monitor.stateChanged(to: .idle)
        monitor.cameraReported(.cameraReady)
        let lines = monitor.exposition().description.split(separator: "\n", omittingEmptySubsequences: false)
        let expected = """
            # HELP photobooth_photos_taken_total Photos saved since the booth started.
            # TYPE photobooth_photos_taken_total counter
            photobooth_photos_taken_total 2
            # HELP photobooth_save_duration_seconds From the chosen frame to the photo committed to disk and catalog.
            # TYPE photobooth_save_duration_seconds histogram
            photobooth_save_duration_seconds_bucket{le="0.025"} 0
            photobooth_save_duration_seconds_bucket{le="0.05"} 1
            photobooth_save_duration_seconds_bucket{le="0.1"} 1
            photobooth_save_duration_seconds_bucket{le="0.25"} 1
            photobooth_save_duration_seconds_bucket{le="0.5"} 1
            photobooth_save_duration_seconds_bucket{le="1"} 2
            photobooth_save_duration_seconds_bucket{le="2.5"} 2
            photobooth_save_duration_seconds_bucket{le="5"} 2
            photobooth_save_duration_seconds_bucket{le="10"} 2
            photobooth_save_duration_seconds_bucket{le="+Inf"} 2
            photobooth_save_duration_seconds_sum 0.74
            photobooth_save_duration_seconds_count 2
            # HELP photobooth_camera_frames_total Frames the camera delivered (their rate is the camera's frame rate).
            # TYPE photobooth_camera_frames_total counter
            photobooth_camera_frames_total 2
            # HELP photobooth_camera_dropped_frames_total Frames the camera or the booth dropped (gaps in the camera's frame counter).
            # TYPE photobooth_camera_dropped_frames_total counter
            photobooth_camera_dropped_frames_total 3
            # HELP photobooth_camera_reconnects_total Times the camera was reopened after it failed or went away.
            # TYPE photobooth_camera_reconnects_total counter
            photobooth_camera_reconnects_total 1
            # HELP photobooth_state The booth's current state (1 for the state it is in).
            # TYPE photobooth_state gauge
            photobooth_state{state="idle"} 1
            # HELP photobooth_disk_free_bytes Free space for the photo library.
            # TYPE photobooth_disk_free_bytes gauge
            photobooth_disk_free_bytes FREE

            """.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == expected.count, "\(lines.joined(separator: "\n"))")
        for (line, expected) in zip(lines, expected) {
            switch expected {
            case "photobooth_save_duration_seconds_sum 0.74":
                let sum = line.split(separator: " ").last.flatMap { Double($0) }
                #expect(line.hasPrefix("photobooth_save_duration_seconds_sum ") && sum.map { abs($0 - 0.74) < 1e-9 } == true, "\(line)")
            case "photobooth_disk_free_bytes FREE":
                #expect(line.hasPrefix("photobooth_disk_free_bytes ") && line.split(separator: " ").last.flatMap { Int64($0) } != nil, "\(line)")
            default:
                #expect(line == expected)
            }
        }
        #expect(monitor.status.state == "idle" && monitor.status.cameraConnected)
        monitor.cameraReported(.cameraLost)
        #expect(!monitor.status.cameraConnected)
    }

    @Test("With the event sync attached, metrics and status carry its outbox, traffic, failures by kind and clock correction")
    func syncFigures() throws {
        let monitor = BoothMonitor(dataDirectory: URL(fileURLWithPath: NSTemporaryDirectory()))
        #expect(!monitor.exposition().description.contains("photobooth_sync_"), "no sync, no sync figures")
        #expect(monitor.status.sync == nil)
        let figures = SyncMetrics()
        figures.update {
            $0.pending = 3
            $0.oldestPending = Date() - 125
            $0.objectsUploaded = 9
            $0.bytesUploaded = 1234
            $0.objectsImported = 6
            $0.bytesImported = 999
            $0.clockCorrection = 3600
        }
        figures.failed(StoreError(.throttled, "The store asks the booth to slow down."))
        figures.failed(StoreError(.throttled, "The store asks the booth to slow down."))
        figures.failed(StoreError(.credentials, "The store refused the key."))
        monitor.attach(figures)
        let lines = monitor.exposition().description.split(separator: "\n")
        for line in [
            "photobooth_sync_outbox_photos 3",
            "photobooth_sync_objects_total{direction=\"uploaded\"} 9",
            "photobooth_sync_objects_total{direction=\"imported\"} 6",
            "photobooth_sync_bytes_total{direction=\"uploaded\"} 1234",
            "photobooth_sync_bytes_total{direction=\"imported\"} 999",
            "photobooth_sync_failures_total{kind=\"throttled\"} 2",
            "photobooth_sync_failures_total{kind=\"credentials\"} 1",
            "photobooth_sync_failures_total{kind=\"dns\"} 0",
            "photobooth_sync_clock_correction_seconds 3600",
        ] {
            #expect(lines.contains(Substring(line)), "missing \(line) in\n\(lines.joined(separator: "\n"))")
        }
        let age = lines.first { $0.hasPrefix("photobooth_sync_oldest_pending_seconds ") }.flatMap { Double($0.split(separator: " ")[1]) }
        #expect(age.map { (125..<185).contains($0) } == true, "oldest pending age \(String(describing: age))")
        let status = try #require(monitor.status.sync)
        #expect(status.pending == 3 && status.lastError?.contains("The store refused the key.") == true, "\(status)")
    }

    @Test("The web's preview gets JPEGs only while watched, the camera's MJPEG made standard")
    func preview() async throws {
        let feed = LatestValue<Data>()
        let publisher = PreviewPublisher(feed: feed)
        let frame = try TestFrames.frame(number: 1, at: MonotonicInstant(nanoseconds: 1))
        publisher.offer(frame)
        #expect(feed.latest == nil, "nobody watches: nothing is made")
        let watch = feed.watch()
        publisher.offer(frame)
        let published = try #require(await feed.next(after: 0))
        #expect(try JPEGSegments(published.value).hasHuffmanTables)
        #expect(try JPEGHeader(published.value).width == frame.width)
        watch.end()
    }
}

@Suite("The photo page's link for the QR code")
struct PhotoLinksTests {
    let id = UUID(uuidString: "3F2C9A4E-0B1D-4C6E-9F8A-2D4B6C8E0A1F")!

    @Test("A public address wins; else the address the gallery listens on; never the loopback")
    func links() {
        let page = "/photos/3f2c9a4e-0b1d-4c6e-9f8a-2d4b6c8e0a1f"
        #expect(
            PhotoLinks(publicURL: "http://booth.local", address: "0.0.0.0", port: 8080, enabled: true).link(to: id)
                == "http://booth.local" + page)
        #expect(
            PhotoLinks(publicURL: nil, address: "192.168.4.1", port: 8181, enabled: true).link(to: id)
                == "http://192.168.4.1:8181" + page)
        #expect(PhotoLinks(publicURL: nil, address: "fd00::1", port: 80, enabled: true).link(to: id) == "http://[fd00::1]:80" + page)
        #expect(PhotoLinks(publicURL: nil, address: "127.0.0.1", port: 8080, enabled: true).link(to: id) == nil)
        #expect(PhotoLinks(publicURL: "http://booth.local", address: "0.0.0.0", port: 8080, enabled: false).link(to: id) == nil)
    }

    @Test("With deletion keys, the photo gets its key apart from the link, which never carries one")
    func deletionKey() throws {
        let keys = DeletionKeys(secret: Data(repeating: 7, count: 32), validity: .seconds(3600))
        let links = PhotoLinks(publicURL: "http://booth.local", address: "0.0.0.0", port: 8080, enabled: true, deletionKeys: keys)
        #expect(links.link(to: id) == "http://booth.local/photos/3f2c9a4e-0b1d-4c6e-9f8a-2d4b6c8e0a1f")
        let key = try #require(links.deletionKey(for: id))
        #expect(keys.isKey(key, of: id), "the key deletes its photo: \(key)")
        #expect(PhotoLinks(publicURL: "http://booth.local", address: "0.0.0.0", port: 8080, enabled: true).deletionKey(for: id) == nil)
    }
}
