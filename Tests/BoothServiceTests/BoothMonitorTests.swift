import BoothCore
import BoothImaging
import Foundation
import Testing

@testable import BoothService

@Suite("What the operator sees: status, metrics and the web's live preview")
struct BoothMonitorTests {
    @Test("Metrics count photos into cumulative buckets and follow the state and the camera")
    func metrics() throws {
        let monitor = BoothMonitor(dataDirectory: URL(fileURLWithPath: NSTemporaryDirectory()))
        monitor.photoStored(after: .milliseconds(40))
        monitor.photoStored(after: .milliseconds(700))
        monitor.framesDropped(3)
        monitor.cameraReconnected()
        monitor.stateChanged(to: .idle)
        monitor.cameraReported(.cameraReady)
        let text = monitor.exposition()
        for line in [
            "photobooth_photos_taken_total 2",
            "photobooth_save_duration_seconds_bucket{le=\"0.025\"} 0",
            "photobooth_save_duration_seconds_bucket{le=\"0.05\"} 1",
            "photobooth_save_duration_seconds_bucket{le=\"1\"} 2",
            "photobooth_save_duration_seconds_bucket{le=\"+Inf\"} 2",
            "photobooth_save_duration_seconds_count 2",
            "photobooth_camera_dropped_frames_total 3",
            "photobooth_camera_reconnects_total 1",
            "photobooth_state{state=\"idle\"} 1",
        ] {
            #expect(text.split(separator: "\n").contains(Substring(line)), "missing \(line) in\n\(text)")
        }
        #expect(text.contains("photobooth_disk_free_bytes "))
        #expect(monitor.status.state == "idle" && monitor.status.cameraConnected)
        monitor.cameraReported(.cameraLost)
        #expect(!monitor.status.cameraConnected)
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
