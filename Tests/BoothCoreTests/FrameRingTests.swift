import Foundation
import Testing

@testable import BoothCore

private func frame(at milliseconds: Int64, sequence: UInt64 = 0) -> CameraFrame {
    CameraFrame(
        bytes: Data([UInt8(truncatingIfNeeded: milliseconds)]), encoding: .mjpeg, width: 2, height: 2,
        timestamp: MonotonicInstant(nanoseconds: milliseconds * 1_000_000), sequence: sequence)
}

private func at(_ milliseconds: Int64) -> MonotonicInstant {
    MonotonicInstant(nanoseconds: milliseconds * 1_000_000)
}

@Suite("Frame ring")
struct FrameRingTests {
    @Test("Keeps only the newest frames")
    func capacity() {
        var ring = FrameRing(capacity: 3)
        for milliseconds in stride(from: 0, through: 200, by: 33) { ring.append(frame(at: Int64(milliseconds))) }
        #expect(ring.frames.map(\.timestamp) == [at(132), at(165), at(198)])
        #expect(ring.newest?.timestamp == at(198))
    }

    @Test("The shot is the frame exposed nearest the shutter instant, then the next nearest")
    func nearest() {
        var ring = FrameRing()
        for milliseconds: Int64 in [900, 933, 966, 1000, 1033] { ring.append(frame(at: milliseconds)) }
        #expect(ring.nearest(to: at(970)).map(\.timestamp) == [at(966), at(1000), at(933), at(1033), at(900)])
        #expect(ring.nearest(to: at(2000)).first?.timestamp == at(1033))
        #expect(ring.nearest(to: at(0)).first?.timestamp == at(900))
    }

    @Test("On a tie the earlier frame wins")
    func tie() {
        var ring = FrameRing()
        ring.append(frame(at: 1000))
        ring.append(frame(at: 1040))
        #expect(ring.nearest(to: at(1020)).first?.timestamp == at(1000))
    }

    @Test("The frame nearest an instant to come is expected at the camera's pace, a dropped frame or not")
    func expectedExposure() {
        var ring = FrameRing()
        #expect(ring.expectedExposure(near: at(5000)) == nil, "no pace without frames")
        // About 10 frames a second, 100.5 ms apart on average as a timestamp in whole
        // milliseconds gives them, one of them dropped.
        for milliseconds: Int64 in [1000, 1100, 1201, 1301, 1502, 1603] { ring.append(frame(at: milliseconds)) }
        // 3 s on: 30 periods of 100.5 ms (3015 ms); the median gap (101 ms) would say 3030.
        #expect(ring.expectedExposure(near: at(4580)) == at(4618))
        #expect(ring.expectedExposure(near: at(4660)) == at(4618))
        #expect(ring.expectedExposure(near: at(4670)) == MonotonicInstant(nanoseconds: 4_718_500_000))
        // An instant the ring covers: the frame it holds.
        #expect(ring.expectedExposure(near: at(1280)) == at(1301))
        // Frames out of order give no pace.
        var disordered = FrameRing()
        for milliseconds: Int64 in [1000, 1100, 1050, 1200] { disordered.append(frame(at: milliseconds)) }
        #expect(disordered.expectedExposure(near: at(3000)) == nil)
    }

    @Test("Covers an instant once a frame at or after it has arrived")
    func covers() {
        var ring = FrameRing()
        #expect(!ring.covers(at(10)))
        ring.append(frame(at: 5))
        #expect(!ring.covers(at(10)))
        ring.append(frame(at: 10))
        #expect(ring.covers(at(10)))
    }
}

@Suite("Monotonic time")
struct MonotonicTimeTests {
    @Test("Instants and durations add up in nanoseconds")
    func arithmetic() {
        let start = MonotonicInstant(seconds: 12, nanoseconds: 500)
        #expect(start.nanoseconds == 12_000_000_500)
        #expect((start + .milliseconds(1500)).nanoseconds == 13_500_000_500)
        #expect((start - .seconds(2)).nanoseconds == 10_000_000_500)
        #expect(start.duration(to: start + .seconds(3)) == .seconds(3))
        #expect(Duration.seconds(-1.5).inNanoseconds == -1_500_000_000)
        #expect(Duration.seconds(Int64.max).inNanoseconds == .max)
    }
}
