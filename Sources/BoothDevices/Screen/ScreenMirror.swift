import BoothCore
import BoothImaging
import Foundation
import Logging
import Synchronization

/// The booth's screen as JPEG pictures for the web (`/screen.mjpg`): on hardware the operator
/// sees what the guests see; with `--simulate` it is the booth's screen.
///
/// The mirror draws with the same painter as the framebuffer, off-screen, on a thread of its
/// own: at once when the content changes, the live preview at most `picturesPerSecond` times
/// per second, and nothing at all while nobody watches ``pictures``. The framebuffer's own
/// drawing is never delayed by a viewer.
public final class ScreenMirror: Screen {
    /// The rendered screen, latest picture only.
    public let pictures = LatestValue<Data>()
    private let state: Mutex<State>
    private let wakeup = DispatchSemaphore(value: 0)
    private let logger: Logger
    /// How many times the thread looked and found nobody watching, for tests.
    let unwatchedLooks = Atomic(0)

    private struct State {
        var schedule: RenderSchedule
        var watched = false
        var finished = false
        var stopWaiters: [CheckedContinuation<Void, Never>] = []
    }

    /// A mirror `width` x `height` pixels. Fonts are loaded here, so a mirror that cannot draw
    /// text fails now rather than when someone watches; this blocks until they are: call it
    /// from a thread of your own.
    public init(
        width: Int = 1280, height: Int = 720, fonts: ScreenFonts = .dejaVu, viewKeyLabel: String,
        galleryKeys: GalleryKeys = .keyboard, picturesPerSecond: Int = 5, logger: Logger
    ) throws(DeviceError) {
        precondition(picturesPerSecond > 0, "the mirror needs a positive picture rate")
        state = Mutex(State(schedule: RenderSchedule(previewInterval: .seconds(1) / picturesPerSecond)))
        self.logger = logger
        // The renderer and the encoder belong to the thread that uses them: it makes them and
        // says how that went.
        let startup = Mutex<Result<Void, DeviceError>?>(nil)
        let started = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            do throws(DeviceError) {
                var renderer = try ScreenRenderer(
                    width: width, height: height, fonts: fonts, viewKeyLabel: viewKeyLabel, galleryKeys: galleryKeys,
                    logger: logger)
                let encoder = try Self.makeEncoder()
                startup.withLock { $0 = .success(()) }
                started.signal()
                run(renderer: &renderer, encoder: encoder)
            } catch {
                startup.withLock { $0 = .failure(error) }
                started.signal()
            }
        }
        thread.name = "screen mirror"
        thread.start()
        started.wait()
        if case .failure(let error) = startup.withLock({ $0 }) { throw error }
    }

    private static func makeEncoder() throws(DeviceError) -> JPEGEncoder {
        do {
            return try JPEGEncoder()
        } catch {
            throw DeviceError.unavailable.detailed("The screen mirror cannot encode pictures: \(error)")
        }
    }

    public func show(_ content: ScreenContent) {
        if state.withLock({ $0.schedule.show(content) }) { wakeup.signal() }
    }

    /// Takes `frame` as the live preview, replacing one not drawn yet.
    public func showPreview(_ frame: CameraFrame) {
        if state.withLock({ $0.schedule.receive(frame) }) { wakeup.signal() }
    }

    /// Stops the mirror's thread; viewers see the stream end.
    public func stop() async {
        await withCheckedContinuation { continuation in
            let finished = state.withLock { state in
                state.schedule.stop()
                if !state.finished { state.stopWaiters.append(continuation) }
                return state.finished
            }
            if finished { continuation.resume() } else { wakeup.signal() }
        }
        pictures.close()
    }

    // MARK: Mirror thread

    private func run(renderer: inout ScreenRenderer, encoder: borrowing JPEGEncoder) {
        let clock = MonotonicClock()
        var failures = 0
        loop: while true {
            // Nobody watching: look again twice a second, which costs nothing measurable.
            let watched = pictures.isWatched
            if !watched { unwatchedLooks.add(1, ordering: .relaxed) }
            let step = state.withLock { state -> RenderSchedule.Step in
                if watched && !state.watched { state.schedule.redraw() }
                state.watched = watched
                return watched || state.schedule.isStopping ? state.schedule.next(at: clock.now) : .wait(until: clock.now + .milliseconds(500))
            }
            switch step {
            case .render(let content, let frame):
                renderer.render(content, newFrame: frame)
                do {
                    pictures.publish(try encoder.encode(renderer.canvas.bitmap, quality: 80))
                } catch {
                    failures += 1
                    if failures % 100 == 1 { logger.error("The screen mirror cannot encode a picture: \(error) (\(failures) times so far).") }
                }
            case .wait(let deadline):
                let remaining = clock.now.duration(to: deadline).inNanoseconds
                _ = wakeup.wait(timeout: .now() + .nanoseconds(Int(max(0, remaining))))
            case .sleep:
                // Wake up now and then to notice that the last viewer left.
                _ = wakeup.wait(timeout: .now() + .milliseconds(500))
            case .finish:
                break loop
            }
        }
        let waiters = state.withLock { state in
            state.finished = true
            defer { state.stopWaiters = [] }
            return state.stopWaiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
