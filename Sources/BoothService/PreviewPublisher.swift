import BoothCore
import BoothImaging
import Foundation
import Synchronization

/// Turns the camera's frames into the JPEGs of the web's live preview (`/preview.mjpg`), only
/// while someone watches. Motion JPEG frames are passed through (with Huffman tables, which
/// browsers need); raw frames are encoded, which costs more, so at most `rawFramesPerSecond`.
///
/// The work happens on a queue of its own, one frame at a time, the latest only: the camera's
/// task only leaves a frame here, and a busy encoder never builds a backlog.
final class PreviewPublisher: Sendable {
    private let feed: LatestValue<Data>
    private let queue = DispatchQueue(label: "photobooth.web-preview", qos: .utility)
    private let rawInterval: Duration
    private let clock = MonotonicClock()

    private struct State {
        var pending: CameraFrame?
        var busy = false
        var lastRaw: MonotonicInstant?
    }

    private let state = Mutex(State())

    init(feed: LatestValue<Data>, rawFramesPerSecond: Int = 10) {
        self.feed = feed
        rawInterval = .seconds(1) / rawFramesPerSecond
    }

    /// Offers a frame from the camera; returns at once.
    func offer(_ frame: CameraFrame) {
        guard feed.isWatched else { return }
        let now = clock.now
        let start = state.withLock { state -> Bool in
            if frame.encoding != .mjpeg {
                if let last = state.lastRaw, now < last + rawInterval { return false }
                state.lastRaw = now
            }
            state.pending = frame
            defer { state.busy = true }
            return !state.busy
        }
        if start { queue.async { self.publishPending() } }
    }

    private func publishPending() {
        while let frame = state.withLock({ state -> CameraFrame? in
            guard let frame = state.pending else {
                state.busy = false
                return nil
            }
            state.pending = nil
            return frame
        }) {
            // A damaged frame is simply not shown; the next one will be.
            if let jpeg = try? frame.photoJPEG() { feed.publish(jpeg) }
        }
    }
}
