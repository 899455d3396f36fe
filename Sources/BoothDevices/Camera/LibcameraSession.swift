import BoothCore
import BoothImaging
import BoothSystem
import CLibcameraShim
import Foundation
import Logging
import Synchronization
import SystemPackage

// libcamera itself, used in the camera process (`photobooth libcamera-camera`) and by
// `photobooth doctor`'s listing, never in the booth's own process: libcamera 0.0.3 aborts the
// process that hosts it when a camera's device goes away while it streams.

/// libcamera's camera manager, started for the length of one use: libcamera allows one a
/// process, so the uses take turns.
enum LibcameraManager {
    private static let turn = Mutex(())

    /// Starts the manager, runs `body` with it (on the caller's thread, which may block), and
    /// stops it.
    static func withManager<Result>(_ body: (OpaquePointer) throws(DeviceError) -> Result) throws(DeviceError) -> Result {
        try turn.withLock { _ throws(DeviceError) -> Result in
            var error = [CChar](repeating: 0, count: 512)
            guard let manager = pb_lc_manager_start(&error, error.count) else {
                throw DeviceError.unsupported.detailed(LibcameraManager.string(error))
            }
            defer { pb_lc_manager_stop(manager) }
            return try body(manager)
        }
    }

    /// The ids of the cameras libcamera found, in its order.
    static func cameraIDs(_ manager: OpaquePointer) -> [String] {
        (0..<max(0, pb_lc_camera_count(manager))).compactMap { index in
            text(512) { pb_lc_camera_id(manager, index, $0, $1) }
        }
    }

    /// Text a shim call writes into a buffer of `size`; `nil` when it returns an error.
    static func text(_ size: Int, _ call: (UnsafeMutablePointer<CChar>, Int) -> Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: size)
        guard call(&buffer, size) == 0 else { return nil }
        return string(buffer)
    }

    /// The text of a C string in `buffer`.
    static func string(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// One camera acquired, configured and, once started, streaming into a ``FrameSink``.
final class LibcameraSession {
    let cameraID: String
    let model: String?
    /// The stream as libcamera configured it, in its words.
    let description: String
    private let camera: OpaquePointer
    /// Keeps the sink alive while libcamera may call it: released at ``close()``.
    private let sink: Unmanaged<FrameSink>

    init(_ manager: OpaquePointer, choice: LibcameraCamera.Choice, settings: V4L2Camera.Settings, sink: FrameSink) throws(DeviceError) {
        let ids = LibcameraManager.cameraIDs(manager)
        let found: String?
        switch choice {
        case .index(let index): found = index < ids.count ? ids[index] : nil
        case .id(let id): found = ids.contains(id) ? id : nil
        }
        guard let id = found else {
            let known = ids.isEmpty ? "libcamera finds no camera" : "libcamera finds " + ids.map { "\"\($0)\"" }.joined(separator: ", ")
            throw DeviceError.disconnected.detailed("there is no camera \(choice) (\(known)).")
        }
        cameraID = id
        let named = LibcameraManager.text(256) { pb_lc_camera_model(manager, id, $0, $1) }
        model = named?.isEmpty == false ? named : nil
        let codes = LibcameraCamera.formats.map(\.code)
        var error = [CChar](repeating: 0, count: 512)
        let retained = Unmanaged.passRetained(sink)
        let opened = codes.withUnsafeBufferPointer { codes in
            pb_lc_open(
                manager, id, UInt32(settings.width), UInt32(settings.height), codes.baseAddress, codes.count,
                { context, frame in
                    guard let context, let frame else { return }
                    Unmanaged<FrameSink>.fromOpaque(context).takeUnretainedValue().receive(frame.pointee)
                }, retained.toOpaque(), &error, error.count)
        }
        guard let opened else {
            retained.release()
            throw DeviceError.unsupported.detailed("camera \(choice): \(LibcameraManager.string(error)).")
        }
        camera = opened
        self.sink = retained
        var (width, height, format, stride) = (UInt32(0), UInt32(0), UInt32(0), UInt32(0))
        pb_lc_stream(opened, &width, &height, &format, &stride)
        description =
            LibcameraManager.text(256) { text, size in
                pb_lc_stream_text(opened, text, size)
                return 0
            } ?? ""
        let shape = FrameShape(width: Int(width), height: Int(height), stride: Int(stride), format: format)
        guard shape.encoding != nil, shape.isReadable else {
            close()
            let names = LibcameraCamera.formats.map(\.name).joined(separator: ", ")
            throw DeviceError.unsupported.detailed("camera \(choice) offers none of \(names) at a size the booth takes (it chose \(description)).")
        }
        sink.start(shape, model: CameraModel(make: nil, model: model ?? id), settling: settings.settleFrames)
    }

    /// Starts streaming at `framesPerSecond` where the camera lets it be set.
    func start(framesPerSecond: Int) throws(DeviceError) {
        let status = pb_lc_start(camera, UInt32(max(0, framesPerSecond)))
        guard status == 0 else {
            throw DeviceError.disconnected.detailed("the camera would not start: \(String(cString: strerror(-status))).")
        }
    }

    /// Whether the camera's device went away.
    var isGone: Bool { pb_lc_gone(camera) != 0 }

    private var closed = false

    /// Stops the camera and gives it back; frames in flight come back cancelled.
    func close() {
        guard !closed else { return }
        closed = true
        pb_lc_close(camera)
        sink.release()
    }
}

/// The frames of a libcamera stream as the booth reads them.
struct FrameShape: Sendable, Hashable {
    let width: Int
    let height: Int
    let stride: Int
    /// DRM fourcc.
    let format: UInt32

    var encoding: CameraFrame.Encoding? {
        switch format {
        case LibcameraCamera.fourcc("YU12"): .yuv420(bytesPerRow: max(stride, width))
        // libcamera's BGR888 is red, green, blue in memory.
        case LibcameraCamera.fourcc("BG24"): .rgb24(bytesPerRow: max(stride, width * 3))
        case LibcameraCamera.fourcc("MJPG"): .mjpeg
        default: nil
        }
    }

    /// Whether the booth takes frames of this size: no side of 0 pixels or longer than
    /// ``JPEGHeader/maximumSide``.
    var isReadable: Bool {
        let sides = 1...JPEGHeader.maximumSide
        return sides.contains(width) && sides.contains(height)
    }
}

/// Where libcamera's thread hands frames: copied out of the camera's buffer into a
/// ``CameraFrame`` for `deliver`; a camera that fails is noted for the session's thread.
final class FrameSink: Sendable {

    private let deliver: @Sendable (CameraFrame) -> Void
    private let wakeup: Wakeup
    private let drops: FrameDrops
    private let logger: Logger
    private let state = Mutex<(shape: FrameShape?, model: CameraModel?, settling: Int, failure: String?)>((nil, nil, 0, nil))

    init(deliver: @escaping @Sendable (CameraFrame) -> Void, wakeup: Wakeup, drops: FrameDrops, logger: Logger) {
        self.deliver = deliver
        self.wakeup = wakeup
        self.drops = drops
        self.logger = logger
    }

    /// Frames from now on are of `shape`; the first `settling` are dropped while exposure and
    /// white balance settle.
    func start(_ shape: FrameShape, model: CameraModel, settling: Int) {
        state.withLock { $0 = (shape, model, settling, nil) }
    }

    /// Why the camera stopped, once it has.
    var failure: String? { state.withLock { $0.failure } }

    /// On libcamera's thread: one finished (or failed) buffer.
    func receive(_ frame: pb_lc_frame) {
        switch frame.status {
        case 0: break
        case 1: return
        case 3:
            state.withLock { $0.failure = "libcamera would not take a buffer back: \(String(cString: strerror(frame.error)))" }
            wakeup.signal()
            return
        default:
            drop("flagged as failed by libcamera")
            return
        }
        let (shape, model, settling) = state.withLock { state -> (FrameShape?, CameraModel?, Bool) in
            let settling = state.settling > 0
            if settling { state.settling -= 1 }
            return (state.shape, state.model, settling)
        }
        guard let shape, let encoding = shape.encoding, !settling else { return }
        var bytes = Data()
        withUnsafeBytes(of: frame.planes) { planes in
            withUnsafeBytes(of: frame.lengths) { lengths in
                let starts = planes.bindMemory(to: UnsafePointer<UInt8>?.self)
                let counts = lengths.bindMemory(to: Int.self)
                let total = (0..<Int(frame.plane_count)).reduce(0) { $0 + counts[$1] }
                bytes.reserveCapacity(total)
                for plane in 0..<Int(frame.plane_count) {
                    if let start = starts[plane] { bytes.append(start, count: counts[plane]) }
                }
            }
        }
        if bytes.isEmpty { return drop("empty") }
        if let needed = encoding.bytesNeeded(width: shape.width, height: shape.height), bytes.count < needed {
            return drop("short: \(bytes.count) of \(needed) bytes")
        }
        deliver(
            CameraFrame(
                bytes: bytes, encoding: encoding, width: shape.width, height: shape.height,
                timestamp: MonotonicInstant(nanoseconds: frame.timestamp), sequence: UInt64(frame.sequence), source: model))
    }

    private func drop(_ reason: String) {
        let count = drops.count(reason)
        if count == 1 || count % 100 == 0 {
            logger.warning("A libcamera camera dropped a frame (\(reason)); \(count) so far for this reason.")
        }
    }
}

// MARK: - The camera process

extension LibcameraCamera {
    /// The camera process's work (`photobooth libcamera-camera`): opens the camera here and
    /// writes every frame to `output` as ``LibcameraWire`` records until the booth closes the
    /// pipe (returns); throws when the camera cannot be opened or fails. A camera whose device
    /// goes away ends the process at once (exit status 3), since libcamera 0.0.3 cannot close it.
    package func serve(to output: FileDescriptor) throws(DeviceError) {
        let wakeup = Wakeup()
        let writer = WireWriter(output: output, wakeup: wakeup)
        try LibcameraManager.withManager { manager throws(DeviceError) in
            let sink = FrameSink(deliver: writer.write, wakeup: wakeup, drops: drops, logger: logger)
            let session = try LibcameraSession(manager, choice: choice, settings: settings, sink: sink)
            defer { session.close() }
            logger.info("Camera \(name) (\(session.cameraID)\(session.model.map { ", \($0)" } ?? "")): \(session.description).")
            try session.start(framesPerSecond: settings.framesPerSecond)
            while !wakeup.isStopping {
                wakeup.wait(until: MonotonicClock().now + .seconds(1))
                if let failure = sink.failure { throw DeviceError.disconnected.detailed("\(name) stopped: \(failure).") }
                if session.isGone {
                    logger.error("Camera \(name) went away (its device was removed).")
                    exit(3)
                }
            }
        }
    }
}

/// Writes frames to the booth's pipe from libcamera's thread; a pipe the booth closed stops
/// the camera process.
private final class WireWriter: Sendable {
    private let output: FileDescriptor
    private let wakeup: Wakeup
    private let broken = Atomic(false)

    init(output: FileDescriptor, wakeup: Wakeup) {
        self.output = output
        self.wakeup = wakeup
    }

    func write(_ frame: CameraFrame) {
        guard !broken.load(ordering: .relaxed), let (header, model) = LibcameraWire.record(of: frame) else { return }
        do {
            try output.writeAll(header)
            try output.writeAll(model)
            try output.writeAll(frame.bytes)
        } catch {
            broken.store(true, ordering: .relaxed)
            wakeup.requestStop()
        }
    }
}
