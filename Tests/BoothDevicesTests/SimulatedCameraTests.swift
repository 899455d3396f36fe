import BoothCore
import BoothImaging
import BoothSystem
import Foundation
import Testing

@testable import BoothDevices

@Suite("Simulated camera", .timeLimit(.minutes(1)))
struct SimulatedCameraTests {
    @Test("Streams MJPEG frames without Huffman tables, on a steady monotonic schedule")
    func streams() async throws {
        let camera = SimulatedCamera(width: 320, height: 240, framesPerSecond: 30)
        var frames: [CameraFrame] = []
        for try await frame in camera.frames() {
            frames.append(frame)
            if frames.count == 5 { break }
        }
        #expect(frames.count == 5)
        for (earlier, later) in zip(frames, frames.dropFirst()) {
            #expect(later.sequence > earlier.sequence)
            // Frame n is exposed at start + n periods; skipped frames skip whole periods.
            let period = Duration.seconds(1) / 30
            let expected = (period * Int(later.sequence)).inNanoseconds - (period * Int(earlier.sequence)).inNanoseconds
            let gap = earlier.timestamp.duration(to: later.timestamp).inNanoseconds
            #expect(abs(gap - expected) <= 1, "frames are a whole number of periods apart")
            #expect(earlier.bytes != later.bytes, "consecutive frames differ")
        }
        for frame in frames {
            #expect(frame.encoding == .mjpeg && frame.width == 320 && frame.height == 240)
            #expect(try !JPEGSegments(frame.bytes).hasHuffmanTables)
            let repaired = try JPEGSegments.repairedMJPEG(frame.bytes)
            #expect(try JPEGDecoder().decode(repaired).width == 320)
        }
    }

    @Test("Frames are stamped with the monotonic clock")
    func timestampsAreMonotonic() async throws {
        let before = MonotonicClock().now
        var iterator = SimulatedCamera(width: 160, height: 120).frames().makeAsyncIterator()
        let frame = try #require(try await iterator.next())
        #expect(frame.timestamp >= before)
        #expect(frame.timestamp <= MonotonicClock().now)
    }
}
