import BoothCore
import BoothImaging
import BoothSystem
import Foundation
import Logging
import Synchronization

/// The booth's screen as JPEG pictures for the web (`/screen.mjpg`): on hardware the operator
/// sees what the guests see, but for the guest's deletion key (anyone on the network may
/// watch: the saved screen's code links to the photo's page alone); with `--simulate` it is
/// the booth's screen.
///
/// The mirror draws with the same painter as the framebuffer, off-screen, at 1280x720 by
/// default whatever the display's size, on a thread of its own at ``BackgroundPriority``: at
/// once when the content changes, the live preview at most `picturesPerSecond` times per
/// second, and nothing at all while nobody watches ``pictures``. The framebuffer's own drawing
/// is never delayed by a viewer.
///
/// A viewer who arrives gets the last picture at once while it still shows the screen (a
/// screen that stays still, a page reloaded); otherwise their arrival wakes the thread, which
/// draws the screen for them. A picture of a screen without the camera is published twice, so
/// that browsers show it without waiting for the next change.
package final class ScreenMirror: Screen {
    /// The rendered screen, latest picture only.
    package let pictures: LatestValue<Data>
    private let requests: RenderRequests
    private let thread: DedicatedThread
    /// How many times the thread woke and found nobody watching, for tests.
    var wakeupsWithoutViewers: Int { idleWakeups.unwatched.load(ordering: .relaxed) }
    private let idleWakeups: IdleWakeups

    /// A mirror `width` x `height` pixels. Fonts are loaded here, so a mirror that cannot draw
    /// text fails now rather than when someone watches; this blocks until they are: call it
    /// from a thread of your own.
    ///
    /// - Parameter reviews: the pictures of the shots just taken, which the mirror shows as the
    ///   booth's screen does (it registers its size there).
    package init(
        width: Int = 1280, height: Int = 720, fonts: ScreenFonts = .dejaVu, theme: ScreenTheme = .standard, keys: KeyLabels = .keyboard,
        texts: BoothTexts = .english, reviews: ReviewPictures? = nil, guides: PoseGuides? = nil,
        picturesPerSecond: Int = 5, logger: Logger
    ) throws(ScreenError) {
        precondition(picturesPerSecond > 0, "the mirror needs a positive picture rate")
        let requests = RenderRequests(previewInterval: .seconds(1) / picturesPerSecond)
        self.requests = requests
        let idleWakeups = IdleWakeups()
        self.idleWakeups = idleWakeups
        // A picture stays until the screen changes: the thread withdraws it then, or draws anew.
        let pictures = LatestValue<Data>(staleness: .whenWithdrawn) { requests.wakeup.signal() }
        self.pictures = pictures
        // The renderer and the encoder belong to the thread that uses them: it makes them, and
        // the mirror exists once it has. Only a web viewer needs the mirror: the booth's own
        // threads come first.
        thread = try DedicatedThread(name: "screen mirror", priority: .background, wakeup: requests.wakeup) {
            (_, started) throws(ScreenError) in
            var renderer = try ScreenRenderer(
                width: width, height: height, fonts: fonts, theme: theme, keys: keys, texts: texts, reviews: reviews, audience: .anyone,
                guides: guides, logger: logger)
            let encoder = try Self.makeEncoder()
            reviews?.register(screen: PixelSize(width: width, height: height)) { requests.redraw(showingPhoto: $0) }
            started()
            Self.run(renderer: &renderer, encoder: encoder, requests: requests, pictures: pictures, idleWakeups: idleWakeups, logger: logger)
        }
    }

    private static func makeEncoder() throws(ScreenError) -> JPEGEncoder {
        do {
            return try JPEGEncoder()
        } catch {
            throw ScreenError("The screen mirror cannot encode pictures: \(error)")
        }
    }

    /// Anyone on the web's network may watch: the mirror never shows the guest's deletion key.
    package var audience: ScreenAudience { .anyone }

    package func show(_ content: ScreenContent) {
        requests.show(content)
    }

    package func showPrinterNotice(_ fault: PrinterFault?) {
        requests.show(notice: fault)
    }

    /// Takes `frame` as the live preview, replacing one not drawn yet.
    package func showPreview(_ frame: CameraFrame) {
        requests.receive(frame)
    }

    /// Stops the mirror's thread; viewers see the stream end.
    package func stop() async {
        await thread.stop()
        pictures.close()
    }

    // MARK: Mirror thread

    /// Counts the thread's wake-ups that found nobody watching.
    private final class IdleWakeups: Sendable {
        let unwatched = Atomic(0)
    }

    private static func run(
        renderer: inout ScreenRenderer, encoder: borrowing JPEGEncoder, requests: RenderRequests, pictures: LatestValue<Data>,
        idleWakeups: IdleWakeups, logger: Logger
    ) {
        let clock = MonotonicClock()
        let wakeup = requests.wakeup
        var failures = 0
        // The picture of a screen without the camera, until it is published a second time.
        var unrepeated: Data?
        while !wakeup.isStopping {
            guard pictures.isWatched else {
                // Nobody watches: nothing is drawn. The last picture stays for the next viewer
                // while it shows the screen as it is, and is withdrawn once something changed,
                // so that nobody sees a stale screen first. A change or a viewer wakes the thread.
                idleWakeups.unwatched.add(1, ordering: .relaxed)
                if !requests.isUpToDate {
                    pictures.withdraw()
                    unrepeated = nil
                }
                wakeup.wait(until: nil)
                continue
            }
            // A viewer with no picture to get (the first, or one after a change nobody watched)
            // gets the screen drawn for them.
            switch requests.next(at: clock.now, redraw: pictures.latest == nil) {
            case .render(let content, let frame):
                requests.drawn(changingAt: renderer.render(content, newFrame: frame, notice: requests.notice, at: clock.now))
                do {
                    let picture = try encoder.encode(renderer.canvas.bitmap, quality: 80)
                    pictures.publish(picture)
                    unrepeated = content.showsLivePreview ? nil : picture
                } catch {
                    failures += 1
                    if failures % 100 == 1 { logger.error("The screen mirror cannot encode a picture: \(error) (\(failures) times so far).") }
                    // Without a picture the next turn would draw again at once: not in a loop.
                    wakeup.wait(until: clock.now + .seconds(1))
                }
            case .wait(let deadline):
                wakeup.wait(until: deadline)
            case .sleep:
                // The screen stays still: its picture goes once more, since a browser shows a
                // Motion JPEG part only once the next one begins. The camera's next frame does
                // that for a screen that shows it.
                if let picture = unrepeated {
                    pictures.publish(picture)
                    unrepeated = nil
                } else {
                    wakeup.wait(until: nil)
                }
            }
        }
    }
}
