import BoothCore
import BoothImaging
import BoothSystem
import Foundation
import Logging
import Synchronization

/// A V4L2 camera: a USB webcam on a Raspberry Pi, or any capture device Linux knows.
///
/// Motion JPEG is preferred (frames pass through untouched); YUYV is the fallback (encoded once,
/// for the shot); a camera offering neither (Bayer sensors, vendor formats) is read through
/// libv4l2, which converts to RGB. Frames are read on a thread of the camera's own.
public struct V4L2Camera: Camera {
    /// Which of the camera's formats to use.
    public enum FormatPreference: String, CaseIterable, Sendable {
        /// Motion JPEG if offered, else YUYV, else whatever libv4l2 can convert.
        case auto
        case mjpeg
        case yuyv
        /// libv4l2's conversion to RGB (Bayer and vendor formats).
        case converted
    }

    /// How the camera is set up.
    public struct Settings: Sendable, Hashable {
        public var device: String
        public var width: Int
        public var height: Int
        public var framesPerSecond: Int
        public var format: FormatPreference
        /// Frames thrown away after the stream starts, while exposure and white balance settle.
        package var settleFrames: Int

        public init(
            device: String = "/dev/photobooth/camera", width: Int = 1280, height: Int = 720, framesPerSecond: Int = 30,
            format: FormatPreference = .auto, settleFrames: Int = 5
        ) {
            self.device = device
            self.width = width
            self.height = height
            self.framesPerSecond = framesPerSecond
            self.format = format
            self.settleFrames = settleFrames
        }
    }

    package let settings: Settings
    /// Frames dropped since the booth started, by reason (in the log).
    let drops = FrameDrops()
    private let logger: Logger

    public init(settings: Settings, logger: Logger) {
        self.settings = settings
        self.logger = logger
    }

    package var name: String { settings.device }

    package var devicePath: String? { settings.device }

    /// Opens the device, negotiates the mode and streams on a dedicated thread until the stream
    /// is dropped, the device fails or it goes away.
    package func frames() -> AsyncThrowingStream<CameraFrame, any Error> {
        let camera = self
        return CameraThread.frames(named: "camera \(settings.device)") { wakeup, deliver in
            let session = try CameraSession(settings: camera.settings, logger: camera.logger)
            try session.stream(until: wakeup, drops: camera.drops, deliver: deliver)
        }
    }
}

/// Counts of frames the camera delivered but the booth could not use.
final class FrameDrops: Sendable {
    private let counts = Mutex<[String: Int]>([:])

    /// Counts one dropped frame; returns how many were dropped for this reason so far.
    func count(_ reason: String) -> Int {
        counts.withLock { counts in
            counts[reason, default: 0] += 1
            return counts[reason]!
        }
    }
}

/// An open camera in the chosen mode, streaming.
final class CameraSession {
    /// How the booth reads the frames of the mode it chose.
    enum Plan: Equatable {
        /// Motion JPEG (or plain JPEG) frames, kept as they are.
        case passThrough(FourCC)
        case yuyv
        /// Any other format, converted to RGB by libv4l2.
        case converted
    }

    let device: VideoDevice
    let capabilities: VideoDevice.Capabilities
    let mode: VideoDevice.NegotiatedFormat
    let plan: Plan
    let framesPerSecond: Double?
    /// The camera as photos name it: the card name, and the USB manufacturer where there is one.
    let model: CameraModel
    private let stream: CaptureStream
    private let settings: V4L2Camera.Settings
    private let logger: Logger

    init(settings: V4L2Camera.Settings, logger: Logger) throws(DeviceError) {
        self.settings = settings
        self.logger = logger
        var device = try VideoDevice(path: settings.device)
        let capabilities = try device.capabilities()
        guard capabilities.canCapture, capabilities.canStream else {
            throw DeviceError.unsupported.detailed(
                "\(settings.device) (\(capabilities.card)) is not a video capture device with streaming; "
                    + "pick the camera's capture node with --camera.")
        }
        let offered = try device.formats()
        let plan = try Self.plan(for: offered, preference: settings.format, device: settings.device)
        let fourCC: FourCC
        switch plan {
        case .passThrough(let format): fourCC = format
        case .yuyv: fourCC = .yuyv
        case .converted:
            device = try VideoDevice(path: settings.device, access: .converting)
            fourCC = .rgb24
        }
        let mode = try device.setFormat(fourCC, width: settings.width, height: settings.height)
        guard Self.accepts(mode, asked: fourCC) else {
            throw DeviceError.unsupported.detailed(
                "\(settings.device) would not deliver \(fourCC) at \(settings.width)x\(settings.height) (it chose \(mode.fourCC) \(mode.width)x\(mode.height); the booth takes sides of 1 to \(JPEGHeader.maximumSide) pixels)."
            )
        }
        self.device = device
        self.capabilities = capabilities
        self.mode = mode
        self.plan = plan
        self.model = CameraModel(make: Self.manufacturer(of: settings.device), model: capabilities.card)
        self.framesPerSecond = try device.setFrameRate(settings.framesPerSecond)
        self.stream = try CaptureStream(device: device)
        let rate = framesPerSecond.map { String(format: "%.1f fps", $0) } ?? "driver's frame rate"
        logger.info(
            "Camera \(settings.device) (\(capabilities.card), \(capabilities.driver)): \(mode.fourCC) \(mode.width)x\(mode.height) at \(rate)\(plan == .converted ? " through libv4l2" : "")."
        )
    }

    /// The manufacturer string of the USB device behind the video node `path` (through udev's
    /// symbolic links), as sysfs has it; `nil` for a camera that is not on USB or names none.
    static func manufacturer(of path: String) -> String? {
        let node = URL(fileURLWithPath: path).resolvingSymlinksInPath().lastPathComponent
        // videoN/device is the USB interface; its parent, the USB device, has the strings.
        let file = "/sys/class/video4linux/\(node)/device/../manufacturer"
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// Chooses how to read the camera from the formats it offers.
    static func plan(for offered: [OfferedFormat], preference: V4L2Camera.FormatPreference, device: String)
        throws(DeviceError) -> Plan
    {
        let codes = Set(offered.map(\.fourCC))
        let jpeg = [FourCC.mjpeg, .jpeg].first { codes.contains($0) }
        switch preference {
        case .auto:
            if let jpeg { return .passThrough(jpeg) }
            if codes.contains(.yuyv) { return .yuyv }
            guard !offered.isEmpty else {
                throw DeviceError.unsupported.detailed("\(device) offers no capture format at all.")
            }
            return .converted
        case .mjpeg:
            if let jpeg { return .passThrough(jpeg) }
        case .yuyv:
            if codes.contains(.yuyv) { return .yuyv }
        case .converted:
            return .converted
        }
        let names = offered.map(\.fourCC.description).joined(separator: ", ")
        throw DeviceError.unsupported.detailed(
            "\(device) does not offer \(preference.rawValue) (it offers \(names.isEmpty ? "nothing" : names)); set the camera format to auto.")
    }

    /// Whether the booth can use the mode the driver chose when asked for `fourCC`: that
    /// format, with no side of 0 pixels or longer than ``JPEGHeader/maximumSide``. The driver's
    /// sizes are its device's word, checked as its frames are: a device that claims 4294967295
    /// rows would overflow the size check of every frame (the fuzz target `rawframe` found it).
    static func accepts(_ mode: VideoDevice.NegotiatedFormat, asked fourCC: FourCC) -> Bool {
        let sides = 1...JPEGHeader.maximumSide
        return mode.fourCC == fourCC && sides.contains(mode.width) && sides.contains(mode.height)
    }

    /// The encoding of the frames this session delivers.
    var encoding: CameraFrame.Encoding { Self.encoding(of: plan, in: mode) }

    /// The encoding of the frames `plan` delivers in `mode`: rows at least as long as their
    /// pixels, whatever the driver says of them.
    static func encoding(of plan: Plan, in mode: VideoDevice.NegotiatedFormat) -> CameraFrame.Encoding {
        switch plan {
        case .passThrough: .mjpeg
        case .yuyv: .yuyv(bytesPerRow: max(mode.bytesPerRow, mode.width * 2))
        case .converted: .rgb24(bytesPerRow: max(mode.bytesPerRow, mode.width * 3))
        }
    }

    /// Delivers frames to `deliver` until `wakeup` is asked to stop (or `deadline` passes); throws
    /// when the device fails or goes away. Damaged, empty and short frames are dropped and
    /// counted, and so are the first frames while the picture settles.
    func stream(
        until wakeup: Wakeup, deadline: MonotonicInstant? = nil, drops: FrameDrops, deliver: (CameraFrame) -> Void
    ) throws(DeviceError) {
        let clock = MonotonicClock()
        var settling = settings.settleFrames
        while true {
            var until = clock.now + .seconds(1)
            if let deadline {
                if clock.now >= deadline { return }
                until = min(until, deadline)
            }
            switch try wakeup.wait(for: device.descriptor, until: until, device: device.path) {
            case .woken: return
            case .timedOut: continue
            case .ready(let hangUp):
                guard let buffer = try stream.dequeue() else {
                    if hangUp { throw DeviceError.disconnected.detailed("\(device.path) hung up.") }
                    continue
                }
                if settling > 0 {
                    settling -= 1
                    continue
                }
                if let reason = Self.problem(with: buffer, encoding: encoding, width: mode.width, height: mode.height) {
                    let count = drops.count(reason)
                    if count == 1 || count % 100 == 0 {
                        logger.warning("Camera \(device.path) dropped a frame (\(reason)); \(count) so far for this reason.")
                    }
                    continue
                }
                deliver(
                    CameraFrame(
                        bytes: buffer.bytes, encoding: encoding, width: mode.width, height: mode.height,
                        timestamp: buffer.timestamp ?? clock.now, sequence: UInt64(buffer.sequence), source: model))
            }
        }
    }

    /// Why a buffer cannot be a frame, or `nil` when it can.
    ///
    /// A Motion JPEG frame must start a JPEG (SOI) and end one (EOI near its end, before any
    /// padding): a frame cut short by lost USB packets lacks the EOI, which cannot occur inside
    /// the compressed data. Decoding every frame to be sure would cost the Pi's CPU.
    static func problem(with buffer: CaptureStream.Buffer, encoding: CameraFrame.Encoding, width: Int, height: Int)
        -> String?
    {
        if buffer.damaged { return "flagged as damaged by the driver" }
        if buffer.bytes.isEmpty { return "empty" }
        switch encoding {
        case .mjpeg:
            if !buffer.bytes.starts(with: [0xFF, 0xD8]) { return "not a JPEG" }
            let tail = buffer.bytes.suffix(4096)
            let ended = zip(tail, tail.dropFirst()).contains { $0 == 0xFF && $1 == 0xD9 }
            if !ended { return "cut short (no end-of-image marker)" }
        case .yuyv, .rgb24, .yuv420:
            if let needed = encoding.bytesNeeded(width: width, height: height), buffer.bytes.count < needed {
                return "short: \(buffer.bytes.count) of \(needed) bytes"
            }
        }
        return nil
    }

    /// Waits up to `timeout` for the first frame the session delivers (for `photobooth doctor`).
    func firstFrame(timeout: Duration) throws(DeviceError) -> CameraFrame? {
        let wakeup = Wakeup()
        var first: CameraFrame?
        try stream(until: wakeup, deadline: MonotonicClock().now + timeout, drops: FrameDrops()) { frame in
            first = frame
            wakeup.requestStop()
        }
        return first
    }
}

// MARK: - Checks for `photobooth doctor`

extension V4L2Camera {
    /// What a camera is and offers, in words.
    package struct Inspection: Sendable {
        /// "vivid (Vivid driver)".
        package let identity: String
        /// One line per format: "MJPG Motion-JPEG: 1280x720 640x480".
        package let formats: [String]
        /// How the booth would read it: "MJPG passed through".
        package let plan: String
    }

    /// Opens the device and lists its formats and sizes, and how the booth would use them.
    package static func inspect(_ settings: Settings) throws(DeviceError) -> Inspection {
        let device = try VideoDevice(path: settings.device)
        let capabilities = try device.capabilities()
        guard capabilities.canCapture, capabilities.canStream else {
            throw DeviceError.unsupported.detailed("\(settings.device) (\(capabilities.card)) cannot stream video.")
        }
        var lines: [String] = []
        let offered = try device.formats()
        for format in offered {
            let sizes = try device.frameSizes(for: format.fourCC).map { ": \($0)" } ?? ""
            lines.append("\(format.fourCC) \(format.name)\(sizes)")
        }
        let chosen = try CameraSession.plan(for: offered, preference: settings.format, device: settings.device)
        var plan =
            switch chosen {
            case .passThrough(let format): "\(format) passed through"
            case .yuyv: "YUYV, encoded for the shot"
            case .converted: "converted to RGB by libv4l2"
            }
        let native: FourCC? =
            switch chosen {
            case .passThrough(let format): format
            case .yuyv: .yuyv
            case .converted: nil
            }
        if let native {
            let rates = try device.frameRates(for: native, width: settings.width, height: settings.height)
            if !rates.isEmpty {
                plan +=
                    "; at \(settings.width)x\(settings.height) it offers " + rates.map { String(format: "%g", $0) }.joined(separator: ", ") + " fps"
            }
        }
        return Inspection(identity: "\(capabilities.card) (\(capabilities.driver))", formats: lines, plan: plan)
    }

    /// Opens the camera in the configured mode and waits up to `timeout` for a frame it can use.
    package func captureOneFrame(timeout: Duration) throws(DeviceError) -> CameraFrame? {
        try CameraSession(settings: settings, logger: logger).firstFrame(timeout: timeout)
    }
}
