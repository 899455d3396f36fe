import BoothCore
import BoothDevices
import BoothImaging
import BoothScreen
import BoothSystem
import Logging

/// The booth's screen on a Linux framebuffer: the live preview and every booth screen, drawn
/// off-screen by BoothScreen's renderer and copied to the display (BoothDevices' `Framebuffer`,
/// which only presents pixels) in one pass.
///
/// Drawing happens on a thread of its own, never on Swift's cooperative pool: ``show(_:)``
/// and ``showPreview(_:)`` only leave a note and return. The thread draws new content at once
/// and preview frames at most `previewFPS` times per second, the latest frame only, so the
/// capture path keeps the CPU; with nothing new it sleeps. That thread opens the device, owns
/// it, and gives it and the text console back when the screen stops: call ``stop()`` when the
/// booth ends.
final class FramebufferScreen: Screen {
    private let requests: RenderRequests
    private let thread: DedicatedThread

    /// Opens the framebuffer `device`, loads the fonts and shows "Starting the camera...".
    /// Blocks until the device is open (or failed to open), like any device opening: call it
    /// from a thread of your own.
    ///
    /// - Parameters:
    ///   - console: the text console to switch to graphics mode while the booth draws, so that
    ///     its cursor does not blink over the screen; `nil` to leave it alone.
    ///   - previewFPS: the most preview frames drawn per second.
    ///   - keys: what the keypad's keys are called, for the screens' hints.
    ///   - texts: the words the screens say, in the booth's language.
    ///   - reviews: the pictures of the shots just taken, for the naming and saved screens; the
    ///     screen registers its size there once the display is open.
    init(
        device: String = "/dev/fb0", console: String? = "/dev/tty0", fonts: ScreenFonts = .dejaVu,
        previewFPS: Int = 15, keys: KeyLabels = .keyboard, texts: BoothTexts = .english, reviews: ReviewPictures? = nil,
        guides: PoseGuides? = nil, logger: Logger
    ) throws(DeviceError) {
        precondition(previewFPS > 0, "the preview needs a positive frame rate")
        let requests = RenderRequests(previewInterval: .seconds(1) / previewFPS)
        self.requests = requests
        let renderLoop = FramebufferRenderLoop(
            device: device, console: console, fonts: fonts, keys: keys, texts: texts, reviews: reviews, guides: guides,
            requests: requests, logger: logger)
        // The render thread opens the device, owns it, and gives it back when it ends.
        thread = try DedicatedThread(name: "framebuffer screen", wakeup: requests.wakeup) { (wakeup, started) throws(DeviceError) in
            try renderLoop.run(started: started)
        }
        logger.info("Screen on \(device), preview at most \(previewFPS) frames per second.")
    }

    /// Opens and maps the framebuffer `device` as the screen would, and says what it found
    /// ("/dev/fb0: 1920x1080 XRGB8888, two pages"), drawing nothing: for `photobooth doctor`.
    static func check(device: String = "/dev/fb0") throws(DeviceError) -> String {
        try Framebuffer(device: device, logger: Logger(label: "photobooth.doctor")).summary
    }

    /// The booth's display: only the guest at the booth sees it.
    var audience: ScreenAudience { .guest }

    func show(_ content: ScreenContent) {
        requests.show(content)
    }

    func showPrinterNotice(_ fault: PrinterFault?) {
        requests.show(notice: fault)
    }

    /// Shows `frame` as the live preview on the screens that have one. Returns at once; a frame
    /// that arrives before the previous one was drawn replaces it.
    func showPreview(_ frame: CameraFrame) {
        requests.receive(frame)
    }

    /// Stops drawing and returns once the render thread has released the framebuffer and given
    /// the text console back (after the frame being drawn, if any).
    func stop() async {
        await thread.stop()
    }
}

/// What the framebuffer's render thread does, from opening the device to giving it back.
private struct FramebufferRenderLoop: Sendable {
    let device: String
    let console: String?
    let fonts: ScreenFonts
    let keys: KeyLabels
    let texts: BoothTexts
    let reviews: ReviewPictures?
    let guides: PoseGuides?
    let requests: RenderRequests
    let logger: Logger

    /// Opens the device and draws until the screen stops. When the device's node does not
    /// exist (no display connected at boot), the booth starts anyway (`started`) and this
    /// waits for the display; a failure from then on is logged, and the booth runs without
    /// its screen.
    func run(started: () -> Void) throws(DeviceError) {
        // Fonts first: a booth that cannot draw text must not start.
        _ = try Self.drawing { () throws(ScreenError) in
            try ScreenPainter(fonts: fonts, keys: keys, texts: texts)
        }
        let framebuffer: Framebuffer
        do {
            framebuffer = try Framebuffer(device: device, logger: logger)
        } catch  where error == .disconnected {
            logger.error("Screen: \(error) Waiting for a display.")
            started()
            do {
                guard let framebuffer = try waitForDevice() else { return }
                try draw(on: framebuffer, started: started)
            } catch {
                logger.error("Screen: \(error) The booth runs without its screen.")
            }
            return
        }
        try draw(on: framebuffer, started: started)
    }

    /// Opens the framebuffer, trying every 2 s, until the display is there or the screen stops
    /// (then `nil`).
    private func waitForDevice() throws(DeviceError) -> Framebuffer? {
        let clock = MonotonicClock()
        while true {
            requests.wakeup.wait(until: clock.now + .seconds(2))
            if requests.wakeup.isStopping { return nil }
            do {
                return try Framebuffer(device: device, logger: logger)
            } catch  where error == .disconnected {
                continue
            }
        }
    }

    /// Makes the renderer for `framebuffer` and takes the console (then the booth has started),
    /// draws what the schedule says until the screen stops, and gives both back.
    private func draw(on framebuffer: consuming Framebuffer, started: () -> Void) throws(DeviceError) {
        let layout = framebuffer.layout
        var renderer = try Self.drawing { () throws(ScreenError) in
            try ScreenRenderer(
                width: layout.width, height: layout.height, fonts: fonts, keys: keys, texts: texts, reviews: reviews,
                audience: .guest, guides: guides, logger: logger)
        }
        reviews?.register(screen: PixelSize(width: layout.width, height: layout.height)) { [requests] in
            requests.redraw(showingPhoto: $0)
        }
        let graphicsMode: VirtualConsole? =
            if let console { VirtualConsole(graphicsModeOn: console, logger: logger) } else { nil }
        started()
        logger.debug("Drawing on \(framebuffer.summary).")
        let wakeup = requests.wakeup
        let clock = MonotonicClock()
        while !wakeup.isStopping {
            switch requests.next(at: clock.now) {
            case .render(let content, let frame):
                requests.drawn(changingAt: renderer.render(content, newFrame: frame, notice: requests.notice, at: clock.now))
                let canvas = renderer.canvas
                framebuffer.present(xrgb: canvas.pixels, width: canvas.width, height: canvas.height)
            case .wait(let deadline):
                wakeup.wait(until: deadline)
            case .sleep:
                wakeup.wait(until: nil)
            }
        }
        // The device first, then the console, which redraws its text over the framebuffer.
        _ = consume framebuffer
        _ = consume graphicsMode
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
}
