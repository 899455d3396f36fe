import BoothCore
import BoothImaging
import BoothSystem
import Foundation
import Logging
import Synchronization

/// The booth's screen as JPEG pictures for the web (`/screen.mjpg`): on hardware the operator
/// sees what the guests see; with `--simulate` it is the booth's screen.
///
/// The mirror draws with the same painter as the framebuffer, off-screen, at 1280x720 by
/// default whatever the display's size, on a thread of its own at ``BackgroundPriority``: at
/// once when the content changes, the live preview at most `picturesPerSecond` times per
/// second, and nothing at all while nobody watches ``pictures``. The framebuffer's own drawing
/// is never delayed by a viewer.
public final class ScreenMirror: Screen {
    /// The rendered screen, latest picture only.
    public let pictures = LatestValue<Data>()
    private let requests: RenderRequests
    private let logger: Logger
    /// How many times the thread looked and found nobody watching, for tests.
    let unwatchedLooks = Atomic(0)

    /// A mirror `width` x `height` pixels. Fonts are loaded here, so a mirror that cannot draw
    /// text fails now rather than when someone watches; this blocks until they are: call it
    /// from a thread of your own.
    public init(
        width: Int = 1280, height: Int = 720, fonts: ScreenFonts = .dejaVu, keys: KeyLabels = .keyboard, picturesPerSecond: Int = 5, logger: Logger
    ) throws(ScreenError) {
        precondition(picturesPerSecond > 0, "the mirror needs a positive picture rate")
        requests = RenderRequests(previewInterval: .seconds(1) / picturesPerSecond)
        self.logger = logger
        // The renderer and the encoder belong to the thread that uses them: it makes them and
        // says how that went.
        let startup = Mutex<Result<Void, ScreenError>?>(nil)
        let started = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            // Only a web viewer needs the mirror: the booth's own threads come first.
            BackgroundPriority.lowerCallingThread()
            do throws(ScreenError) {
                var renderer = try ScreenRenderer(
                    width: width, height: height, fonts: fonts, keys: keys,
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

    private static func makeEncoder() throws(ScreenError) -> JPEGEncoder {
        do {
            return try JPEGEncoder()
        } catch {
            throw ScreenError("The screen mirror cannot encode pictures: \(error)")
        }
    }

    public func show(_ content: ScreenContent) {
        requests.show(content)
    }

    /// Takes `frame` as the live preview, replacing one not drawn yet.
    public func showPreview(_ frame: CameraFrame) {
        requests.receive(frame)
    }

    /// Stops the mirror's thread; viewers see the stream end.
    public func stop() async {
        await requests.stop()
        pictures.close()
    }

    // MARK: Mirror thread

    private func run(renderer: inout ScreenRenderer, encoder: borrowing JPEGEncoder) {
        let clock = MonotonicClock()
        var failures = 0
        var wasWatched = false
        defer { requests.finished() }
        while true {
            let watched = pictures.isWatched
            // Nobody watching: look again twice a second, which costs nothing measurable.
            guard watched || requests.isStopping else {
                unwatchedLooks.add(1, ordering: .relaxed)
                wasWatched = false
                requests.wait(until: clock.now + .milliseconds(500), on: clock)
                continue
            }
            // A new viewer gets the screen as it is now, drawn for them.
            switch requests.next(at: clock.now, redraw: watched && !wasWatched) {
            case .render(let content, let frame):
                renderer.render(content, newFrame: frame)
                do {
                    pictures.publish(try encoder.encode(renderer.canvas.bitmap, quality: 80))
                } catch {
                    failures += 1
                    if failures % 100 == 1 { logger.error("The screen mirror cannot encode a picture: \(error) (\(failures) times so far).") }
                }
            case .wait(let deadline):
                requests.wait(until: deadline, on: clock)
            case .sleep:
                // Wake up now and then to notice that the last viewer left.
                requests.wait(until: clock.now + .milliseconds(500), on: clock)
            case .finish:
                return
            }
            wasWatched = watched
        }
    }
}
