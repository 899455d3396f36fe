import BoothCore
import BoothImaging
import BoothSystem
import CLibcameraShim
import Foundation
import Logging
import Synchronization
import SystemPackage

/// A camera that libcamera drives: the Raspberry Pi's camera modules (Camera Module 3, HQ)
/// through the Pi's image pipeline, or any sensor with a pipeline libcamera knows (the kernel's
/// `vimc` in the tests). `camera.device` names it `libcamera:0` (the first camera libcamera
/// finds) or `libcamera:` and its id.
///
/// libcamera runs in a process of its own, the booth's executable as `photobooth
/// libcamera-camera`, which streams the frames to the booth through a pipe
/// (``LibcameraWire``): libcamera 0.0.3 aborts the process that hosts it when a camera's device
/// goes away while it streams, and the booth must outlive its camera. The camera process
/// reaches libcamera through a small C face of its C++ API (CLibcameraShim), copies each frame
/// out of the camera's buffer on libcamera's thread and gives the buffer back at once. Every
/// open is a new process, which starts libcamera's camera manager afresh: a camera unplugged
/// and plugged again is found without a device-event service.
///
/// A frame's time is the sensor's own (libcamera's `SensorTimestamp`, on the monotonic clock),
/// so the shot is the frame exposed nearest the end of the countdown, as with a V4L2 camera.
public struct LibcameraCamera: Camera {
    /// The prefix of `camera.device` that names a libcamera camera.
    public static let scheme = "libcamera:"

    /// Which camera `camera.device` names.
    public enum Choice: Sendable, Hashable, CustomStringConvertible {
        /// The camera at this place in libcamera's list (0: the first).
        case index(Int)
        /// The camera with this id ("/base/soc/i2c0mux/i2c@1/imx708@1a").
        case id(String)

        /// The camera `device` names, or `nil` when it names no libcamera camera.
        public init?(device: String) {
            guard device.hasPrefix(LibcameraCamera.scheme) else { return nil }
            let rest = String(device.dropFirst(LibcameraCamera.scheme.count))
            guard !rest.isEmpty else { return nil }
            if let index = Int(rest), index >= 0 { self = .index(index) } else { self = .id(rest) }
        }

        public var description: String {
            switch self {
            case .index(let index): "\(LibcameraCamera.scheme)\(index)"
            case .id(let id): "\(LibcameraCamera.scheme)\(id)"
            }
        }
    }

    /// The formats asked of the camera, best first (DRM fourcc codes, as libcamera names them):
    /// planar YUV (the Pi's pipeline), then RGB (vimc's), then Motion JPEG (a webcam's).
    static let formats: [(code: UInt32, name: String)] = [
        (fourcc("YU12"), "YUV420"), (fourcc("BG24"), "BGR888"), (fourcc("MJPG"), "MJPEG"),
    ]

    package let choice: Choice
    package let settings: V4L2Camera.Settings
    /// The booth's executable, which runs the camera process.
    let executable: String
    let drops = FrameDrops()
    let logger: Logger

    /// A camera for `settings`, whose device names a libcamera camera, run by `executable` (the
    /// booth's own); `nil` when the device names no libcamera camera.
    public init?(settings: V4L2Camera.Settings, executable: String = "/proc/self/exe", logger: Logger) {
        guard let choice = Choice(device: settings.device) else { return nil }
        self.choice = choice
        self.settings = settings
        self.executable = executable
        self.logger = logger
    }

    package var name: String { choice.description }

    /// Starts the camera process and reads its frames on a dedicated thread until the stream is
    /// dropped or the process ends (the camera failed or went away).
    package func frames() -> AsyncThrowingStream<CameraFrame, any Error> {
        let camera = self
        return CameraThread.frames(named: "camera \(name)") { wakeup, deliver in
            try camera.read(until: wakeup, deliver: deliver)
        }
    }

    /// The camera process's command line for these settings.
    var processArguments: [String] {
        [
            "photobooth", "libcamera-camera", "--camera", settings.device, "--camera-size", "\(settings.width)x\(settings.height)",
            "--camera-fps", "\(settings.framesPerSecond)", "--settle-frames", "\(settings.settleFrames)",
            "--log-level", logger.logLevel.rawValue,
        ]
    }

    /// Starts the camera process and hands every frame it sends to `deliver` until `wakeup` is
    /// asked to stop or `deadline` passes, then ends it; throws when it cannot start, ends by
    /// itself (the camera failed or went away: it said why on the booth's standard error) or
    /// sends something that is not a frame.
    private func read(until wakeup: Wakeup, deadline: MonotonicInstant? = nil, deliver: (CameraFrame) -> Void) throws(DeviceError) {
        let child: ChildProcess
        do {
            child = try ChildProcess(executable: executable, arguments: processArguments)
        } catch {
            throw DeviceError.unavailable.detailed("the camera process (\(executable) libcamera-camera) cannot start: \(error).")
        }
        defer { child.stop() }
        let clock = MonotonicClock()
        var header = [UInt8](repeating: 0, count: LibcameraWire.headerSize)
        while true {
            var until = clock.now + .seconds(1)
            if let deadline {
                if clock.now >= deadline { return }
                until = min(until, deadline)
            }
            let outcome: Wakeup.Outcome
            do {
                outcome = try wakeup.wait(for: child.output, until: until)
            } catch {
                throw DeviceError.unavailable.detailed("the camera process cannot be read: \(error).")
            }
            switch outcome {
            case .woken: return
            case .timedOut: continue
            case .ready: break
            }
            let record: Record
            do {
                record = try readRecord(from: child, header: &header)
            } catch {
                throw DeviceError.disconnected.detailed("the camera process's output broke off (\(error)); it ended with \(child.stop()).")
            }
            switch record {
            case .frame(let frame): deliver(frame)
            case .unreadable: continue
            case .end: throw DeviceError.disconnected.detailed("the camera process ended (\(child.wait())); it said why above.")
            }
        }
    }

    /// What the camera process sent.
    private enum Record {
        case frame(CameraFrame)
        /// A frame the booth cannot read (counted and dropped).
        case unreadable
        /// The end of its output: it ended.
        case end
    }

    /// Reads one record of the camera process.
    private func readRecord(from child: ChildProcess, header: inout [UInt8]) throws -> Record {
        guard try header.withUnsafeMutableBytes({ try child.read(into: $0) }) else { return .end }
        let record = try header.withUnsafeBytes { try LibcameraWire.header($0) }
        var model = [UInt8](repeating: 0, count: record.modelLength)
        var bytes = Data(count: record.length)
        guard try model.withUnsafeMutableBytes({ try child.read(into: $0) }), try bytes.withUnsafeMutableBytes({ try child.read(into: $0) })
        else { throw Errno.ioError }
        guard let frame = LibcameraWire.frame(record, model: String(decoding: model, as: UTF8.self), bytes: bytes) else {
            let count = drops.count("not a frame the booth reads")
            if count == 1 || count % 100 == 0 {
                logger.warning("Camera \(name) sent a frame the booth cannot read (\(record)); \(count) so far.")
            }
            return .unreadable
        }
        return .frame(frame)
    }

    /// Opens the camera in the configured mode and waits up to `timeout` for a frame it can use.
    package func captureOneFrame(timeout: Duration) throws(DeviceError) -> CameraFrame? {
        let wakeup = Wakeup()
        var first: CameraFrame?
        try read(until: wakeup, deadline: MonotonicClock().now + timeout) { frame in
            first = frame
            wakeup.requestStop()
        }
        return first
    }
}

extension LibcameraCamera {
    /// The DRM fourcc code `text` spells ("YU12").
    static func fourcc(_ text: StaticString) -> UInt32 {
        text.withUTF8Buffer { bytes in
            bytes.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
        }
    }
}

// MARK: - Checks for `photobooth doctor`

extension LibcameraCamera {
    /// A camera libcamera finds, and what it offers.
    package struct Listing: Sendable {
        /// "libcamera:0".
        package let name: String
        package let id: String
        /// The sensor's model, where the pipeline names it.
        package let model: String?
        /// One line per format of the still stream: "YUV420 64x64-4608x2592".
        package let modes: [String]
    }

    /// Every camera libcamera finds, with its modes.
    package static func list() throws(DeviceError) -> [Listing] {
        try LibcameraManager.withManager { manager in
            LibcameraManager.cameraIDs(manager).enumerated().map { index, id in
                let model = LibcameraManager.text(256) { pb_lc_camera_model(manager, id, $0, $1) }
                let modes = LibcameraManager.text(8192) { pb_lc_camera_modes(manager, id, $0, $1) } ?? ""
                return Listing(
                    name: "\(scheme)\(index)", id: id, model: model?.isEmpty == false ? model : nil,
                    modes: modes.split(separator: "\n").map(String.init))
            }
        }
    }
}
