import BoothCore
import BoothDevices
import BoothImaging
import BoothScreen
import Foundation
import Logging

/// The booth's screen on a KMS display (BoothDevices' ``KMSDisplay``).
///
/// With an overlay plane, a preview frame costs only its decode: a Motion JPEG frame's YUV
/// planes are decoded at the scale the screen needs straight into the preview plane's hidden
/// buffer (a 4:2:0 frame's, a libcamera camera's, are copied there), and the display scales
/// and converts them; the booth's words are painted on the transparent layer above only when
/// the content changes (a countdown's second, a new screen). Where the plane cannot show the
/// frame so (a YUYV or RGB frame, a display that cannot scale), the frame is decoded and fitted
/// to the screen into the plane's screen-sized buffer. Without an overlay plane the whole screen
/// is composed on the CPU, as on a framebuffer, and shown tear-free.
struct KMSScreenTarget: ~Copyable, DisplayTarget {
    private var display: KMSDisplay
    private let decoder: JPEGDecoder
    /// What the layer above the preview shows, once painted.
    private var painted: (content: ScreenContent, notice: PrinterFault?)?
    /// When the layer changes by itself (an animation), as the renderer last said.
    private var layerChange: MonotonicInstant?
    /// The size of the preview on screen, once a frame was shown.
    private var previewSize: PixelSize?
    private var undecodableFrames = 0
    private let logger: Logger

    init(device: String, logger: Logger) throws(DeviceError) {
        // Both made before either is kept: a half-made target cannot be taken apart.
        let decoder: JPEGDecoder
        do {
            decoder = try JPEGDecoder()
        } catch {
            throw DeviceError.unavailable.detailed("The screen cannot decode preview frames: \(error)")
        }
        // A test of the display driver asks for captures of what the display shows (vkms's
        // writeback connector); a booth never needs them.
        let captures = ProcessInfo.processInfo.environment["PHOTOBOOTH_SCREEN_CAPTURE"]
        let display = try KMSDisplay(device: device, captureFolder: captures, logger: logger)
        self.decoder = decoder
        self.display = display
        self.logger = logger
    }

    var width: Int { display.width }
    var height: Int { display.height }
    var summary: String { display.summary }
    var isConnected: Bool { display.isConnected }

    mutating func draw(
        _ content: ScreenContent, frame: CameraFrame?, notice: PrinterFault?, at now: MonotonicInstant,
        with renderer: inout ScreenRenderer
    ) throws(DeviceError) -> MonotonicInstant? {
        guard let layer = display.overlayPicture else {
            // One plane: the whole screen composed here, as on a framebuffer.
            let change = renderer.render(content, newFrame: frame, notice: notice, at: now)
            let canvas = renderer.canvas
            try display.screenPicture().copy(pixels: canvas.pixels, width: canvas.width, height: canvas.height)
            try display.show(primary: true, overlay: false)
            return change
        }
        let previousSize = previewSize
        var showsFrame = false
        if let frame, content.showsLivePreview {
            showsFrame = try showPreview(frame)
        }
        // A frame alone leaves the layer as it is; anything else paints it again (new content, a
        // notice, an animation's next frame, a preview of another size).
        let repaint = painted.map { $0.content != content || $0.notice != notice } ?? true || frame == nil || previewSize != previousSize
        if repaint {
            layerChange = renderer.renderLayer(content, previewBelow: content.showsLivePreview ? previewSize : nil, notice: notice, at: now)
            let canvas = renderer.canvas
            layer.copy(pixels: canvas.pixels, width: canvas.width, height: canvas.height)
            painted = (content, notice)
        }
        if showsFrame || repaint {
            try display.show(primary: showsFrame, overlay: repaint)
        }
        return layerChange
    }

    /// Puts `frame` in the preview plane's hidden buffer: its YUV planes where the display
    /// scales them, else the frame fitted to the screen. Returns false (and the last frame
    /// stays) when the frame cannot be decoded.
    private mutating func showPreview(_ frame: CameraFrame) throws(DeviceError) -> Bool {
        let plan: PlanePreview?
        do {
            plan = try frame.planePreview(fitting: display.width, display.height, decoder: decoder)
        } catch {
            return cannotShow(frame, error)
        }
        if let plan,
            let picture = try display.previewPicture(
                KMSPreviewShape(format: KMSPixelFormat(plan.shape.sampling), width: plan.shape.width, height: plan.shape.height),
                at: KMSRectangle(x: plan.x, y: plan.y, width: plan.width, height: plan.height))
        {
            do {
                try frame.writePlanes(plan.shape, into: picture.planes, decoder: decoder)
            } catch {
                return cannotShow(frame, error)
            }
            previewSize = PixelSize(width: plan.width, height: plan.height)
            return true
        }
        let bitmap: Bitmap
        do {
            bitmap = try frame.previewBitmap(fitting: display.width, display.height, decoder: decoder)
        } catch {
            return cannotShow(frame, error)
        }
        try display.screenPicture().showCentred(bitmap)
        previewSize = PixelSize(width: bitmap.width, height: bitmap.height)
        return true
    }

    /// Logs that `frame` cannot be shown, the first time and then every 100th (a camera that
    /// sends damaged frames sends many); the last good picture stays. Returns false.
    private mutating func cannotShow(_ frame: CameraFrame, _ error: ImageError) -> Bool {
        undecodableFrames += 1
        if undecodableFrames % 100 == 1 {
            logger.warning(
                "Preview frame \(frame.sequence) cannot be shown (\(error)); \(undecodableFrames) so far. The last good picture stays.")
        }
        return false
    }
}
