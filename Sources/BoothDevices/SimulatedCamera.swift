import BoothCore
import BoothImaging
import BoothSystem
import Foundation
import Synchronization

/// A camera made of software: it films ``TestPattern`` and delivers Motion JPEG the way a USB
/// webcam does, at a steady frame rate, with monotonic timestamps and without Huffman tables
/// in the frames, so the simulated booth runs the same capture path as the real one.
package struct SimulatedCamera: Camera {
    public let width: Int
    public let height: Int
    public let framesPerSecond: Int

    /// A camera of the given size and rate; the defaults are a common 720p webcam.
    package init(width: Int = 1280, height: Int = 720, framesPerSecond: Int = 30) {
        self.width = width
        self.height = height
        self.framesPerSecond = framesPerSecond
    }

    /// What photos from this camera say took them.
    static let model = CameraModel(make: "photobooth", model: "simulated camera")

    package var name: String { "simulated camera (\(width)x\(height) MJPEG, \(framesPerSecond) fps)" }

    /// Starts a thread that renders, encodes and delivers frames until the stream is dropped.
    package func frames() -> AsyncThrowingStream<CameraFrame, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: CameraFrame.self, bufferingPolicy: .bufferingNewest(FrameRing().capacity))
        let wakeup = Wakeup()
        continuation.onTermination = { _ in wakeup.requestStop() }
        let camera = self
        _ = DedicatedThread(name: "simulated camera", wakeup: wakeup) { wakeup in
            camera.stream(into: continuation, until: wakeup)
        }
        return stream
    }

    /// The camera's loop: one frame per period, paced by absolute deadlines on the monotonic
    /// clock so that the rate does not drift. When encoding falls behind, frames are skipped
    /// (their sequence numbers too), as a real camera drops frames nobody reads in time.
    ///
    /// The still part of the picture is encoded once; each frame encodes only the band that
    /// moves (``RowSplicedEncoder``), about a tenth of the picture, so that the simulated booth
    /// idles almost as cheaply as one whose camera does its own encoding.
    private func stream(into continuation: AsyncThrowingStream<CameraFrame, any Error>.Continuation, until wakeup: Wakeup) {
        let pattern = TestPattern(width: width, height: height)
        let encoder: RowSplicedEncoder
        do {
            encoder = try RowSplicedEncoder(still: pattern.still, liveTop: pattern.liveTop, quality: 85, huffmanTables: false)
        } catch {
            continuation.finish(throwing: error)
            return
        }
        let clock = MonotonicClock()
        let period = Duration.seconds(1) / framesPerSecond
        let start = clock.now
        var sequence: UInt64 = 0
        // Drawn into frame after frame: each frame's plate covers the one before.
        var band = pattern.stillBand
        var zone = LocalTimeOffset()
        while !wakeup.isStopping {
            let exposure = start + period * Int(sequence)
            // Only a stop wakes the camera before its exposure.
            if wakeup.wait(until: exposure) { break }
            do {
                let time = clock.date(of: exposure)
                pattern.drawLive(frame: sequence, at: time, secondsFromGMT: zone.secondsFromGMT(at: time), into: &band)
                let jpeg = try encoder.frame(live: band)
                let frame = CameraFrame(
                    bytes: jpeg, encoding: .mjpeg, width: width, height: height, timestamp: exposure, sequence: sequence,
                    source: Self.model)
                continuation.yield(frame)
            } catch {
                continuation.finish(throwing: error)
                return
            }
            let late = exposure.duration(to: clock.now)
            sequence += 1 + UInt64(max(0, late.inNanoseconds / period.inNanoseconds))
        }
        continuation.finish()
    }
}

/// The local time's offset from UTC, asked of the time zone once a minute rather than for each
/// frame (daylight saving time changes it on a minute's boundary).
private struct LocalTimeOffset {
    private var minute = Int.min
    private var offset = 0

    mutating func secondsFromGMT(at time: Date) -> Int {
        let now = Int((time.timeIntervalSince1970 / 60).rounded(.down))
        if now != minute {
            minute = now
            offset = TimeZone.current.secondsFromGMT(for: time)
        }
        return offset
    }
}
