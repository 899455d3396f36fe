import BoothCore
import BoothDevices
import BoothImaging
import BoothScreen
import BoothSystem
import Logging

/// The booth's screen on a display: the live preview and every booth screen, drawn by
/// BoothScreen's renderer and shown by a device of BoothDevices, which only presents pixels:
/// a KMS display (`/dev/dri/card0`: the preview on a plane of its own, the words on a plane
/// above it, page flips at vertical blank) or a Linux framebuffer (`/dev/fb0`, for displays
/// without KMS: the whole screen drawn off-screen and copied in one pass).
///
/// Drawing happens on a thread of its own, never on Swift's cooperative pool: ``show(_:)``
/// and ``showPreview(_:)`` only leave a note and return. The thread draws new content at once
/// and preview frames at most `previewFPS` times per second, the latest frame only, so the
/// capture path keeps the CPU; with nothing new it sleeps. That thread opens the device, owns
/// it, and gives it and the text console back when the screen stops: call ``stop()`` when the
/// booth ends.
final class DisplayScreen: Screen {
    private let requests: RenderRequests
    private let thread: DedicatedThread

    /// Opens the display `device`, loads the fonts and shows "Starting the camera...".
    /// Blocks until the device is open (or failed to open), like any device opening: call it
    /// from a thread of your own.
    ///
    /// - Parameters:
    ///   - device: a KMS card (`/dev/dri/card0`), a framebuffer (`/dev/fb0`), or `auto`: the
    ///     KMS card with a display connected (``resolve(_:)``).
    ///   - console: the text console to switch to graphics mode while the booth draws, so that
    ///     its cursor does not blink over the screen; `nil` to leave it alone.
    ///   - previewFPS: the most preview frames drawn per second.
    ///   - keys: what the keypad's keys are called, for the screens' hints.
    ///   - texts: the words the screens say, in the booth's language.
    ///   - reviews: the pictures of the shots just taken, for the naming and saved screens; the
    ///     screen registers its size there once the display is open.
    init(
        device: String = "/dev/fb0", console: String? = "/dev/tty0", fonts: ScreenFonts = .dejaVu, theme: ScreenTheme = .standard,
        previewFPS: Int = 15, keys: KeyLabels = .keyboard, texts: BoothTexts = .english, reviews: ReviewPictures? = nil,
        guides: PoseGuides? = nil, logger: Logger
    ) throws(DeviceError) {
        precondition(previewFPS > 0, "the preview needs a positive frame rate")
        let device = Self.resolve(device)
        let requests = RenderRequests(previewInterval: .seconds(1) / previewFPS)
        self.requests = requests
        let settings = DisplaySettings(
            device: device, console: console, fonts: fonts, theme: theme, keys: keys, texts: texts, reviews: reviews, guides: guides,
            requests: requests, logger: logger)
        // The render thread opens the device, owns it, and gives it back when it ends.
        if Self.drivesKMS(device) {
            thread = try DedicatedThread(name: "screen", wakeup: requests.wakeup) { (wakeup, started) throws(DeviceError) in
                try DisplayRenderLoop<KMSScreenTarget>(settings: settings).run(started: started)
            }
        } else {
            thread = try DedicatedThread(name: "screen", wakeup: requests.wakeup) { (wakeup, started) throws(DeviceError) in
                try DisplayRenderLoop<Framebuffer>(settings: settings).run(started: started)
            }
        }
        logger.info("Screen on \(device), preview at most \(previewFPS) frames per second, \(theme).")
    }

    /// Whether `device` is a KMS card (`/dev/dri/...`) rather than a framebuffer.
    static func drivesKMS(_ device: String) -> Bool {
        device.hasPrefix("/dev/dri/")
    }

    /// The display `auto` stands for: the KMS card with a display connected (else the first
    /// that drives displays), or the framebuffer `/dev/fb0` where no card drives displays.
    /// Any other setting is itself.
    static func resolve(_ device: String) -> String {
        guard device == "auto" else { return device }
        return KMSDisplay.findCard() ?? "/dev/fb0"
    }

    /// Says what the display `device` is ("/dev/fb0: 1920x1080 XRGB8888, two pages";
    /// "/dev/dri/card1: HDMI-A-1 1920x1080 at 60 Hz; ..."), drawing nothing: for `photobooth
    /// doctor`, which may run beside the booth.
    static func check(device: String = "/dev/fb0") throws(DeviceError) -> String {
        let device = resolve(device)
        return drivesKMS(device)
            ? try KMSDisplay.inspect(device: device) : try Framebuffer(device: device, logger: Logger(label: "photobooth.doctor")).summary
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

    /// Stops drawing and returns once the render thread has released the display and given
    /// the text console back (after the frame being drawn, if any).
    func stop() async {
        await thread.stop()
    }
}

/// What the render thread needs to open and draw on the display.
private struct DisplaySettings: Sendable {
    let device: String
    let console: String?
    let fonts: ScreenFonts
    let theme: ScreenTheme
    let keys: KeyLabels
    let texts: BoothTexts
    let reviews: ReviewPictures?
    let guides: PoseGuides?
    let requests: RenderRequests
    let logger: Logger
}

/// A display the render thread draws on: opened on that thread, and given back when dropped.
protocol DisplayTarget: ~Copyable {
    init(device: String, logger: Logger) throws(DeviceError)
    var width: Int { get }
    var height: Int { get }
    /// What the booth draws on, for logs.
    var summary: String { get }
    /// Whether the display is still there; checked every few seconds.
    var isConnected: Bool { get }
    /// Draws `content` with `renderer`, over `frame` when the camera delivered one since the
    /// last drawing, and shows it. Returns when the picture changes by itself, as the renderer
    /// says.
    mutating func draw(
        _ content: ScreenContent, frame: CameraFrame?, notice: PrinterFault?, at now: MonotonicInstant,
        with renderer: inout ScreenRenderer
    ) throws(DeviceError) -> MonotonicInstant?
}

/// What the render thread does, from opening the display to giving it back.
private struct DisplayRenderLoop<Target: DisplayTarget & ~Copyable> {
    let settings: DisplaySettings
    /// How often a display that is drawn on is checked for having been unplugged.
    static var connectionCheck: Duration { .seconds(2) }

    private var requests: RenderRequests { settings.requests }
    private var logger: Logger { settings.logger }

    /// Opens the device and draws until the screen stops. When there is no display yet (no
    /// node, nothing connected at boot), the booth starts anyway (`started`) and this waits for
    /// one; a display that goes away (unplugged, its driver gone) is waited for again the same
    /// way, and drawn on when it comes back.
    func run(started: () -> Void) throws(DeviceError) {
        // Fonts first: a booth that cannot draw text must not start.
        _ = try Self.drawing { () throws(ScreenError) in
            try ScreenPainter(fonts: settings.fonts, keys: settings.keys, texts: settings.texts)
        }
        var didStart = false
        func start() {
            if !didStart { started() }
            didStart = true
        }
        var target: Target
        do {
            target = try Target(device: settings.device, logger: logger)
        } catch  where error == .disconnected {
            logger.error("Screen: \(error) Waiting for a display.")
            start()
            guard let found = try waitForDevice() else { return }
            target = found
        }
        let graphicsMode: VirtualConsole? =
            if let console = settings.console { VirtualConsole(graphicsModeOn: console, logger: logger) } else { nil }
        while true {
            do {
                try draw(on: target, started: start)
                break
            } catch  where error == .disconnected {
                start()
                logger.error("Screen: \(error) Waiting for the display to come back.")
            } catch {
                // Before the booth started (a renderer that cannot be made), the booth fails.
                guard didStart else { throw error }
                logger.error("Screen: \(error) The booth runs without its screen.")
                break
            }
            guard let found = try waitForDevice() else { break }
            logger.notice("Screen: the display is back.")
            target = found
        }
        // The device first (dropped by draw), then the console, which redraws its text.
        _ = consume graphicsMode
    }

    /// Opens the display, trying every 2 s, until it is there or the screen stops (then `nil`).
    private func waitForDevice() throws(DeviceError) -> Target? {
        let clock = MonotonicClock()
        while true {
            requests.wakeup.wait(until: clock.now + .seconds(2))
            if requests.wakeup.isStopping { return nil }
            do {
                return try Target(device: settings.device, logger: logger)
            } catch  where error == .disconnected {
                continue
            }
        }
    }

    /// Makes the renderer for `target` (then the booth has started) and draws what the
    /// schedule says until the screen stops; throws ``DeviceError/disconnected`` when the
    /// display goes away.
    private func draw(on target: consuming Target, started: () -> Void) throws(DeviceError) {
        var renderer = try Self.drawing { () throws(ScreenError) in
            try ScreenRenderer(
                width: target.width, height: target.height, fonts: settings.fonts, theme: settings.theme, keys: settings.keys,
                texts: settings.texts,
                reviews: settings.reviews, audience: .guest, guides: settings.guides, logger: logger)
        }
        settings.reviews?.register(screen: PixelSize(width: target.width, height: target.height)) { [requests] in
            requests.redraw(showingPhoto: $0)
        }
        started()
        logger.debug("Drawing on \(target.summary).")
        let wakeup = requests.wakeup
        let clock = MonotonicClock()
        var nextCheck = clock.now + Self.connectionCheck
        // A display (re)opened shows the content at once, whatever was drawn before.
        var redraw = true
        while !wakeup.isStopping {
            if clock.now >= nextCheck {
                guard target.isConnected else {
                    throw DeviceError.disconnected.detailed("\(settings.device): the display was unplugged.")
                }
                nextCheck = clock.now + Self.connectionCheck
            }
            switch requests.next(at: clock.now, redraw: redraw) {
            case .render(let content, let frame):
                redraw = false
                let notice = requests.notice
                requests.drawn(changingAt: try target.draw(content, frame: frame, notice: notice, at: clock.now, with: &renderer))
            case .wait(let deadline):
                wakeup.wait(until: min(deadline, nextCheck))
            case .sleep:
                wakeup.wait(until: nextCheck)
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
}

extension Framebuffer: DisplayTarget {
    var width: Int { layout.width }
    var height: Int { layout.height }

    /// A framebuffer's node stays while the driver is loaded; it is always there to draw on.
    var isConnected: Bool { true }

    /// The whole screen drawn off-screen and copied to the framebuffer in one pass.
    mutating func draw(
        _ content: ScreenContent, frame: CameraFrame?, notice: PrinterFault?, at now: MonotonicInstant,
        with renderer: inout ScreenRenderer
    ) throws(DeviceError) -> MonotonicInstant? {
        let change = renderer.render(content, newFrame: frame, notice: notice, at: now)
        let canvas = renderer.canvas
        present(xrgb: canvas.pixels, width: canvas.width, height: canvas.height)
        return change
    }
}
