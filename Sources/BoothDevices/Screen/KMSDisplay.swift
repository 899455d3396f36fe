import BoothSystem
import CDRM
import Glibc
import Logging
import SystemPackage

/// A display driven through kernel modesetting (`/dev/dri/card0`), with atomic commits.
///
/// The display shows two planes: the primary plane at the bottom, which carries the live
/// preview (in the camera's decoded YUV where the plane takes it, scaled by the display
/// hardware) or the whole screen, and, where the card has one, an overlay plane above it in
/// premultiplied ARGB, which carries the booth's words and pictures with the preview showing
/// through. Each plane has two buffers: the one being scanned out and a hidden one, drawn into and
/// then shown by an atomic commit that returns once the display shows it, at a vertical blank,
/// so nothing is ever drawn into the picture on screen and no frame is made of two.
///
/// The display owns its descriptor and buffers and releases them exactly once, when dropped;
/// it belongs to the thread that draws.
package struct KMSDisplay: ~Copyable {
    package let device: String
    private let descriptor: FileDescriptor
    private let pipeline: KMSPipeline
    /// The mode, as a property blob the CRTC's `MODE_ID` names.
    private let modeBlob: UInt32
    /// The primary plane's buffers: screen-sized XRGB, or a preview's size and format.
    private var primary: KMSBufferPair
    /// The overlay plane's buffers (screen-sized ARGB), where there is an overlay plane.
    private var overlay: KMSBufferPair?
    /// Shapes of preview the primary plane refused (a format, a size, a scaling).
    private var refusedPreviews: Set<KMSPreviewShape> = []
    /// Captures of what the display shows, where asked for (a test of the display driver).
    private var writeback: KMSWriteback?
    private let logger: Logger

    /// Opens `device`, finds a connected display, and sets its preferred mode with both planes
    /// blank. The corresponding C calls are `open`, `drmSetClientCap` and `drmModeAtomicCommit`.
    ///
    /// - Parameter captureFolder: where to write what the display shows through the card's
    ///   writeback connector, when asked (``KMSWriteback``); `nil`: never.
    package init(device: String, captureFolder: String? = nil, logger: Logger) throws(DeviceError) {
        let descriptor = try DisplayNode.open(device, missing: Self.missingAdvice)
        let card = descriptor.rawValue
        let found: (KMSPipeline, UInt32, KMSBufferPair, KMSBufferPair?, KMSWriteback?)
        do throws(DeviceError) {
            found = try Self.prepare(card: card, device: device, captureFolder: captureFolder, logger: logger)
        } catch {
            try? descriptor.close()
            throw error
        }
        (pipeline, modeBlob, primary, overlay, writeback) = found
        self.device = device
        self.descriptor = descriptor
        self.logger = logger
        // The mode, and both planes with their first (blank) buffers.
        //XX try show(primary: true, overlay: true, modeset: true)
    }

    /// Turns atomic modesetting on, finds the display and makes its mode blob and first buffers.
    private static func prepare(
        card: Int32, device: String, captureFolder: String?, logger: Logger
    ) throws(DeviceError) -> (KMSPipeline, UInt32, KMSBufferPair, KMSBufferPair?, KMSWriteback?) {
        guard drmSetClientCap(card, UInt64(DRM_CLIENT_CAP_UNIVERSAL_PLANES), 1) == 0,
            drmSetClientCap(card, UInt64(DRM_CLIENT_CAP_ATOMIC), 1) == 0
        else {
            throw DeviceError.unsupported.detailed(
                "\(device): the driver has no atomic modesetting; set screen.device to /dev/fb0 to draw on its framebuffer.")
        }
        if captureFolder != nil, drmSetClientCap(card, UInt64(DRM_CLIENT_CAP_WRITEBACK_CONNECTORS), 1) != 0 {
            logger.warning("\(device): the driver has no writeback connectors; what the display shows is not captured.")
        }
        let pipeline = try KMSPipeline(card: card, device: device)
        var mode = pipeline.mode
        var blob: UInt32 = 0
        let status = drmModeCreatePropertyBlob(card, &mode, MemoryLayout<drmModeModeInfo>.size, &blob)
        guard status == 0 else { throw DeviceError.systemCall("drmModeCreatePropertyBlob", on: device, errno: -status) }
        let screen = KMSRectangle(x: 0, y: 0, width: pipeline.width, height: pipeline.height)
        do {
            var primary = try KMSBufferPair(
                card: card, device: device, shape: KMSPreviewShape(format: .xrgb8888, width: screen.width, height: screen.height),
                at: screen)
            var overlay =
                pipeline.overlay == nil
                ? nil
                : try KMSBufferPair(
                    card: card, device: device, shape: KMSPreviewShape(format: .argb8888, width: screen.width, height: screen.height),
                    at: screen)
            var writeback: KMSWriteback?
            if let captureFolder, let connector = pipeline.writeback {
                writeback = KMSWriteback(
                    connector: connector, properties: KMSProperties(card: card, object: connector, type: DRM_MODE_OBJECT_CONNECTOR),
                    buffer: try KMSBuffer(card: card, device: device, width: screen.width, height: screen.height, format: .xrgb8888),
                    folder: captureFolder)
                logger.notice("\(device): what the display shows is captured to \(captureFolder) when \(captureFolder)/count asks.")
            }
            // The mode, and both planes with their first (blank) buffers.
            _ = try commit(
                card: card, device: device, pipeline: pipeline, modeBlob: blob, primary: primary, overlay: overlay,
                writeback: writeback, modeset: true, testOnly: false)
            primary.flip()
            overlay?.flip()
            return (pipeline, blob, primary, overlay, writeback)
        } catch {
            _ = drmModeDestroyPropertyBlob(card, blob)
            throw error
        }
    }

    deinit {
        // Closing the card gives the display back to the console (the kernel's own client
        // restores its picture once the last master is gone).
        _ = drmModeDestroyPropertyBlob(descriptor.rawValue, modeBlob)
        try? descriptor.close()
    }

    package var width: Int { pipeline.width }
    package var height: Int { pipeline.height }

    /// Whether an overlay plane carries the booth's words over the preview. Without one, the
    /// booth draws the whole screen into the primary plane, as on a framebuffer.
    package var hasOverlay: Bool { overlay != nil }

    /// What the booth draws on, for logs: "/dev/dri/card0: HDMI-A-1 1920x1080 at 60 Hz, preview
    /// and overlay planes".
    package var summary: String {
        "\(device): \(pipeline.connectorName) \(width)x\(height) at \(pipeline.refreshRate) Hz, "
            + (hasOverlay ? "a preview plane under an overlay plane" : "one plane")
    }

    /// Whether the connector still has a display (no probe: what the kernel learnt from
    /// hot-plug).
    package var isConnected: Bool {
        KMSPipeline.isConnected(card: descriptor.rawValue, connector: pipeline.connector)
    }

    /// The primary plane's hidden buffer as a screen-sized XRGB picture: the whole screen drawn
    /// by the booth (no overlay plane), or a preview the plane cannot show as it is.
    package mutating func screenPicture() throws(DeviceError) -> KMSPicture {
        try reshapePrimary(KMSPreviewShape(format: .xrgb8888, width: width, height: height), at: fullScreen)
        return primary.hidden.picture
    }

    /// The primary plane's hidden buffer for a preview of `shape` shown at `rectangle` of the
    /// screen, scaled by the display; `nil` when the plane does not take that format or cannot
    /// scale it so (an atomic test says; the answer is kept), and then the booth fits the
    /// preview itself into ``screenPicture()``.
    package mutating func previewPicture(_ shape: KMSPreviewShape, at rectangle: KMSRectangle) throws(DeviceError) -> KMSPicture? {
        if primary.shape == shape, primary.rectangle == rectangle { return primary.hidden.picture }
        guard pipeline.primary.formats.contains(shape.format.fourcc), !refusedPreviews.contains(shape) else { return nil }
        let candidate = try KMSBufferPair(card: descriptor.rawValue, device: device, shape: shape, at: rectangle)
        do {
            try test(primary: candidate, overlay: nil)
        } catch  where error == .unsupported {
            logger.info("\(device): the display cannot show a \(shape) preview at \(rectangle) itself (\(error)); the booth fits it.")
            refusedPreviews.insert(shape)
            return nil
        }
        primary = candidate.keeping(primary)
        return primary.hidden.picture
    }

    /// The overlay plane's hidden buffer (screen-sized, premultiplied ARGB); `nil` without an
    /// overlay plane.
    package var overlayPicture: KMSPicture? { overlay?.hidden.picture }

    /// Shows the hidden buffers of the planes named, in one atomic commit that returns once
    /// they are on screen; they become the shown ones and the others are hidden. The
    /// corresponding C function is `drmModeAtomicCommit`.
    package mutating func show(primary showsPrimary: Bool, overlay showsOverlay: Bool) throws(DeviceError) {
        let fence = try Self.commit(
            card: descriptor.rawValue, device: device, pipeline: pipeline, modeBlob: modeBlob, primary: showsPrimary ? primary : nil,
            overlay: showsOverlay ? overlay : nil, writeback: writeback, modeset: false, testOnly: false)
        if showsPrimary { primary.flip() }
        if showsOverlay { overlay?.flip() }
        if let fence { writeback?.save(fence: fence) }
    }

    private var fullScreen: KMSRectangle { KMSRectangle(x: 0, y: 0, width: width, height: height) }

    /// Makes the primary plane's buffers of `shape` (the screen's XRGB is always accepted).
    private mutating func reshapePrimary(_ shape: KMSPreviewShape, at rectangle: KMSRectangle) throws(DeviceError) {
        guard primary.shape != shape || primary.rectangle != rectangle else { return }
        // The buffer on screen stays until the next commit has replaced it: removing a
        // framebuffer that is scanned out would turn the plane off.
        primary = try KMSBufferPair(card: descriptor.rawValue, device: device, shape: shape, at: rectangle)
            .keeping(primary)
    }

    /// An atomic test of the primary plane's and the overlay's hidden buffers, where given.
    private func test(primary: KMSBufferPair?, overlay: KMSBufferPair?) throws(DeviceError) {
        _ = try Self.commit(
            card: descriptor.rawValue, device: device, pipeline: pipeline, modeBlob: modeBlob, primary: primary, overlay: overlay,
            writeback: nil, modeset: false, testOnly: true)
    }

    /// One atomic commit: the mode (with `modeset`), the primary plane's and the overlay's hidden
    /// buffers where given, and a writeback job where one is wanted. It returns once the display
    /// shows them (at a vertical blank), with the writeback job's fence when there is one.
    private static func commit(
        card: Int32, device: String, pipeline: KMSPipeline, modeBlob: UInt32, primary: KMSBufferPair?, overlay: KMSBufferPair?,
        writeback: KMSWriteback?, modeset: Bool, testOnly: Bool
    ) throws(DeviceError) -> Int32? {
        let request = KMSAtomicRequest(device: device)
        if modeset {
            try request.set(pipeline.connector, pipeline.connectorProperties, "CRTC_ID", UInt64(pipeline.crtc))
            try request.set(pipeline.crtc, pipeline.crtcProperties, "MODE_ID", UInt64(modeBlob))
            try request.set(pipeline.crtc, pipeline.crtcProperties, "ACTIVE", 1)
            if let writeback { try request.set(writeback.connector, writeback.properties, "CRTC_ID", UInt64(pipeline.crtc)) }
        }
        if let primary { try place(primary, on: pipeline.primary, crtc: pipeline.crtc, request) }
        if let overlay, let plane = pipeline.overlay { try place(overlay, on: plane, crtc: pipeline.crtc, request) }
        // The kernel writes the job's fence here during the commit.
        let fence = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        defer { fence.deallocate() }
        fence.pointee = -1
        if !modeset, !testOnly, let writeback, let framebuffer = writeback.wanted {
            try request.set(writeback.connector, writeback.properties, "WRITEBACK_FB_ID", UInt64(framebuffer))
            try request.set(writeback.connector, writeback.properties, "WRITEBACK_OUT_FENCE_PTR", UInt64(UInt(bitPattern: fence)))
        }
        var flags = UInt32(modeset ? DRM_MODE_ATOMIC_ALLOW_MODESET : 0)
        if testOnly { flags |= UInt32(DRM_MODE_ATOMIC_TEST_ONLY) }
        let status = drmModeAtomicCommit(card, request.request, flags, nil)
        guard status == 0 else {
            let code = Errno(rawValue: -status)
            switch code {
            case .invalidArgument, .outOfRange:
                throw DeviceError.unsupported.detailed("\(device): the display refused the picture (\(code)).")
            case .permissionDenied:
                throw DeviceError.unavailable.detailed(
                    "\(device): another program drives the display (a desktop or a kiosk browser); stop it, or set screen.device to /dev/fb0."
                )
            default:
                throw DeviceError.systemCall("drmModeAtomicCommit", on: device, errno: code)
            }
        }
        return fence.pointee >= 0 ? fence.pointee : nil
    }

    /// Sets `plane` to show `buffers`' hidden buffer at their rectangle of the screen.
    private static func place(
        _ buffers: KMSBufferPair, on plane: KMSPipeline.Plane, crtc: UInt32, _ request: borrowing KMSAtomicRequest
    ) throws(DeviceError) {
        let picture = buffers.hidden.picture
        let properties = plane.properties
        try request.set(plane.id, properties, "FB_ID", UInt64(buffers.hidden.framebuffer))
        try request.set(plane.id, properties, "CRTC_ID", UInt64(crtc))
        // The source in 16.16 fixed point, the destination in pixels.
        try request.set(plane.id, properties, "SRC_X", 0)
        try request.set(plane.id, properties, "SRC_Y", 0)
        try request.set(plane.id, properties, "SRC_W", UInt64(picture.width) << 16)
        try request.set(plane.id, properties, "SRC_H", UInt64(picture.height) << 16)
        try request.set(plane.id, properties, "CRTC_X", UInt64(UInt32(bitPattern: Int32(buffers.rectangle.x))))
        try request.set(plane.id, properties, "CRTC_Y", UInt64(UInt32(bitPattern: Int32(buffers.rectangle.y))))
        try request.set(plane.id, properties, "CRTC_W", UInt64(buffers.rectangle.width))
        try request.set(plane.id, properties, "CRTC_H", UInt64(buffers.rectangle.height))
        if picture.format.isYUV {
            // A JPEG's YUV is BT.601 over the full range of values (JFIF).
            if let encoding = properties.value(of: "ITU-R BT.601 YCbCr", in: "COLOR_ENCODING") {
                try request.set(plane.id, properties, "COLOR_ENCODING", encoding)
            }
            if let range = properties.value(of: "YCbCr full range", in: "COLOR_RANGE") {
                try request.set(plane.id, properties, "COLOR_RANGE", range)
            }
        }
    }
}

/// A rectangle of the screen, in pixels.
package struct KMSRectangle: Sendable, Hashable, CustomStringConvertible {
    package let x: Int
    package let y: Int
    package let width: Int
    package let height: Int

    package init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    package var description: String { "\(width)x\(height)+\(x)+\(y)" }
}

/// The pixels a plane's buffer holds: a format and a size.
package struct KMSPreviewShape: Sendable, Hashable, CustomStringConvertible {
    package let format: KMSPixelFormat
    package let width: Int
    package let height: Int

    package init(format: KMSPixelFormat, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }

    package var description: String { "\(width)x\(height) \(format)" }
}

/// A plane's two buffers, the one shown and the one hidden, and where on the screen they go.
private struct KMSBufferPair {
    let shape: KMSPreviewShape
    let rectangle: KMSRectangle
    private(set) var shown: KMSBuffer
    private(set) var hidden: KMSBuffer
    /// The pair this one replaces, kept until this one is on screen.
    private var replaced: [KMSBuffer] = []

    init(card: Int32, device: String, shape: KMSPreviewShape, at rectangle: KMSRectangle) throws(DeviceError) {
        self.shape = shape
        self.rectangle = rectangle
        shown = try KMSBuffer(card: card, device: device, width: shape.width, height: shape.height, format: shape.format)
        hidden = try KMSBuffer(card: card, device: device, width: shape.width, height: shape.height, format: shape.format)
    }

    /// This pair, holding on to `previous`'s buffers until its own is first shown.
    func keeping(_ previous: KMSBufferPair) -> KMSBufferPair {
        var pair = self
        pair.replaced = [previous.shown, previous.hidden]
        return pair
    }

    /// The hidden buffer is on screen now: the other one becomes the hidden one.
    mutating func flip() {
        swap(&shown, &hidden)
        replaced = []
    }
}

/// An atomic request being built, freed once.
private struct KMSAtomicRequest: ~Copyable {
    let request: drmModeAtomicReqPtr
    let device: String

    init(device: String) {
        // drmModeAtomicAlloc fails only without memory.
        request = drmModeAtomicAlloc()!
        self.device = device
    }

    deinit { drmModeAtomicFree(request) }

    /// Sets property `name` of `object` to `value`; an object without it cannot be driven.
    func set(_ object: UInt32, _ properties: KMSProperties, _ name: String, _ value: UInt64) throws(DeviceError) {
        guard let id = properties.id(name) else {
            throw DeviceError.unsupported.detailed("\(device): object \(object) has no \(name) property for atomic modesetting.")
        }
        guard drmModeAtomicAddProperty(request, object, id, value) >= 0 else {
            throw DeviceError.unavailable.detailed("\(device): cannot build an atomic request (out of memory).")
        }
    }
}
