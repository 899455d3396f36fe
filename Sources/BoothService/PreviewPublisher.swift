import BoothCore
import BoothImaging
import BoothSystem
import Foundation
import Synchronization

/// Turns the camera's frames into the JPEGs of the web's live preview (`/preview.mjpg`), only
/// while someone watches. Motion JPEG frames are passed through (with Huffman tables, which
/// browsers need); raw frames are encoded, which costs more, so at most `rawFramesPerSecond`.
///
/// The work happens on a thread of its own at ``BackgroundPriority``, one frame at a time, the
/// latest only: the camera's task only leaves a frame here, and a busy encoder never builds a
/// backlog nor takes a core from the booth.
final class PreviewPublisher: Sendable {
    private let feed: LatestValue<Data>
    private let rawInterval: Duration
    private let clock = MonotonicClock()
    private let frames: Frames
    private let thread: DedicatedThread

    /// What the camera's task leaves for the thread.
    private final class Frames: Sendable {
        struct State {
            var pending: CameraFrame?
            var lastRaw: MonotonicInstant?
        }

        let state = Mutex(State())

        /// The frame left for the thread, taken.
        func take() -> CameraFrame? {
            state.withLock { state in
                defer { state.pending = nil }
                return state.pending
            }
        }
    }

    init(feed: LatestValue<Data>, rawFramesPerSecond: Int = 10) {
        self.feed = feed
        rawInterval = .seconds(1) / rawFramesPerSecond
        let frames = Frames()
        self.frames = frames
        thread = DedicatedThread(name: "web preview", priority: .background) { wakeup in
            Self.publish(frames, to: feed, until: wakeup)
        }
    }

    /// The thread ends with the publisher (with the booth's run).
    deinit {
        thread.requestStop()
    }

    /// Offers a frame from the camera; returns at once.
    func offer(_ frame: CameraFrame) {
        guard feed.isWatched else { return }
        let now = clock.now
        let wake = frames.state.withLock { state -> Bool in
            if frame.encoding != .mjpeg {
                if let last = state.lastRaw, now < last + rawInterval { return false }
                state.lastRaw = now
            }
            defer { state.pending = frame }
            return state.pending == nil
        }
        if wake { thread.wake() }
    }

    /// The thread's loop, for as long as the booth runs.
    private static func publish(_ frames: Frames, to feed: LatestValue<Data>, until wakeup: Wakeup) {
        while !wakeup.isStopping {
            wakeup.wait(until: nil)
            guard let frame = frames.take() else { continue }
            // A damaged frame is simply not shown; the next one will be.
            if let jpeg = try? frame.photoJPEG() { feed.publish(jpeg) }
        }
    }
}
