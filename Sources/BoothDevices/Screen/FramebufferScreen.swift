import BoothCore
import BoothScreen
import BoothSystem
import Foundation
import Logging
import Synchronization

/// The booth's screen on a Linux framebuffer: the live preview and every booth screen, drawn
/// off-screen and copied to the display in one pass.
///
/// Drawing happens on a thread of its own, never on Swift's cooperative pool: ``show(_:)``
/// and ``showPreview(_:)`` only leave a note and return. The thread draws new content at once
/// and preview frames at most `previewFPS` times per second, the latest frame only, so the
/// capture path keeps the CPU; with nothing new it sleeps. That thread opens the device, owns
/// it, and gives it and the text console back when the screen stops: call ``stop()`` when the
/// booth ends (the thread keeps the screen alive until then).
public final class FramebufferScreen: Screen {
    private let requests: RenderRequests
    /// How opening the device went; `nil` until the render thread knows.
    private let startup = Mutex<Result<Void, DeviceError>?>(nil)
    private let logger: Logger

    /// Opens the framebuffer `device`, loads the fonts and shows "Starting the camera...".
    /// Blocks until the device is open (or failed to open), like any device opening: call it
    /// from a thread of your own.
    ///
    /// - Parameters:
    ///   - console: the text console to switch to graphics mode while the booth draws, so that
    ///     its cursor does not blink over the screen; `nil` to leave it alone.
    ///   - previewFPS: the most preview frames drawn per second.
    ///   - keys: what the keypad's keys are called, for the screens' hints.
    public init(
        device: String = "/dev/fb0", console: String? = "/dev/tty0", fonts: ScreenFonts = .dejaVu,
        previewFPS: Int = 15, keys: KeyLabels = .keyboard, logger: Logger
    ) throws(DeviceError) {
        precondition(previewFPS > 0, "the preview needs a positive frame rate")
        requests = RenderRequests(previewInterval: .seconds(1) / previewFPS)
        self.logger = logger
        let opened = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            run(
                device: device, console: console, fonts: fonts, keys: keys,
                opened: opened)
        }
        thread.name = "framebuffer screen"
        thread.start()
        opened.wait()
        if case .failure(let error) = startup.withLock({ $0 }) { throw error }
        logger.info("Screen on \(device), preview at most \(previewFPS) frames per second.")
    }

    /// Opens and maps the framebuffer `device` as the screen would, and says what it found
    /// ("/dev/fb0: 1920x1080 XRGB8888, two pages"), drawing nothing: for `photobooth doctor`.
    public static func check(device: String = "/dev/fb0") throws(DeviceError) -> String {
        try Framebuffer(device: device, logger: Logger(label: "photobooth.doctor")).summary
    }

    public func show(_ content: ScreenContent) {
        requests.show(content)
    }

    /// Shows `frame` as the live preview on the screens that have one. Returns at once; a frame
    /// that arrives before the previous one was drawn replaces it.
    public func showPreview(_ frame: CameraFrame) {
        requests.receive(frame)
    }

    /// Stops drawing and returns once the render thread has released the framebuffer and given
    /// the text console back (after the frame being drawn, if any).
    public func stop() async {
        await requests.stop()
    }

    // MARK: Render thread

    private func run(
        device: String, console: String?, fonts: ScreenFonts, keys: KeyLabels,
        opened: DispatchSemaphore
    ) {
        do throws(DeviceError) {
            // Fonts first: a booth that cannot draw text must not start.
            _ = try Self.drawing { () throws(ScreenError) in
                try ScreenPainter(fonts: fonts, keys: keys)
            }
            guard var framebuffer = try waitForDevice(device, opened: opened) else {
                finish(startup: nil)
                return
            }
            let layout = framebuffer.layout
            var renderer = try Self.drawing { () throws(ScreenError) in
                try ScreenRenderer(
                    width: layout.width, height: layout.height, fonts: fonts, keys: keys, logger: logger)
            }
            let graphicsMode: VirtualConsole? =
                if let console { VirtualConsole(graphicsModeOn: console, logger: logger) } else { nil }
            if startup.withLock({ $0 == nil }) {
                startup.withLock { $0 = .success(()) }
                opened.signal()
            }
            logger.debug("Drawing on \(framebuffer.summary).")

            draw(with: &renderer, on: &framebuffer)

            // The device first, then the console, which redraws its text over the framebuffer.
            _ = consume framebuffer
            _ = consume graphicsMode
            finish(startup: nil)
        } catch {
            if startup.withLock({ $0 != nil }) {
                // The booth started while waiting for a display that then could not be used.
                logger.error("Screen: \(error) The booth runs without its screen.")
            }
            finish(startup: .failure(error))
            opened.signal()
        }
    }

    /// Opens the framebuffer. When its node does not exist (no display connected at boot), the
    /// booth starts anyway and this waits, trying every 2 s, until the display is there or the
    /// screen stops (then `nil`).
    private func waitForDevice(_ device: String, opened: DispatchSemaphore) throws(DeviceError) -> Framebuffer? {
        while true {
            do {
                return try Framebuffer(device: device, logger: logger)
            } catch  where error == .disconnected {
                if startup.withLock({ $0 == nil }) {
                    logger.error("Screen: \(error) Waiting for a display.")
                    startup.withLock { $0 = .success(()) }
                    opened.signal()
                }
            }
            let clock = MonotonicClock()
            requests.wait(until: clock.now + .seconds(2), on: clock)
            if requests.isStopping { return nil }
        }
    }

    /// Draws what the schedule says until the screen stops.
    private func draw(with renderer: inout ScreenRenderer, on framebuffer: inout Framebuffer) {
        let clock = MonotonicClock()
        while true {
            switch requests.next(at: clock.now) {
            case .render(let content, let frame):
                renderer.render(content, newFrame: frame)
                framebuffer.present(renderer.canvas)
            case .wait(let deadline):
                requests.wait(until: deadline, on: clock)
            case .sleep:
                requests.wait(until: nil, on: clock)
            case .finish:
                return
            }
        }
    }

    /// What `make` returns; a screen that cannot be drawn (fonts, a codec) is a device that
    /// cannot be used.
    private static func drawing<T: ~Copyable>(_ make: () throws(ScreenError) -> T) throws(DeviceError) -> T {
        do {
            return try make()
        } catch {
            throw DeviceError.unavailable.detailed(error.description)
        }
    }

    /// Marks the render thread as done and resumes whoever waits in ``stop()``.
    private func finish(startup result: Result<Void, DeviceError>?) {
        if let result { startup.withLock { $0 = result } }
        requests.finished()
    }
}
