import BoothCore
import BoothDevices
import BoothSystem
import Logging
import ServiceLifecycle
import Synchronization

/// Keeps the camera streaming into ``RecentFrames`` for as long as the booth runs, and tells the
/// booth when the camera comes and goes. A camera that fails, or delivers nothing for
/// ``stallTimeout`` (it opened but hangs, or stalled mid-stream), is reopened with a growing
/// pause (``ReconnectBackoff``), so an unplugged camera costs no CPU while the booth waits; a
/// pause ends early when its device node comes back (``DeviceNodeWatch``).
final class CameraService: Service {
    private let camera: any Camera
    private let frames: RecentFrames
    private let logger: Logger
    private let stallTimeout: Duration
    private let report: @Sendable (BoothEvent) -> Void
    private let preview: (@Sendable (CameraFrame) -> Void)?
    private let metrics: BoothMonitor?
    private let arrivals: DeviceNodeWatch?
    private let backoff: ReconnectBackoff

    /// `preview` receives every frame too (a screen that shows the live picture); `metrics`
    /// counts dropped frames and reconnects; `backoff` is the pause between attempts, which
    /// ends early when the camera's device node changes.
    init(
        camera: any Camera, frames: RecentFrames, logger: Logger, stallTimeout: Duration = .seconds(5),
        preview: (@Sendable (CameraFrame) -> Void)? = nil, metrics: BoothMonitor? = nil, backoff: ReconnectBackoff = ReconnectBackoff(),
        report: @escaping @Sendable (BoothEvent) -> Void
    ) {
        self.arrivals = camera.devicePath.flatMap(DeviceNodeWatch.init(path:))
        self.backoff = backoff
        self.camera = camera
        self.frames = frames
        self.preview = preview
        self.metrics = metrics
        self.logger = logger
        self.stallTimeout = stallTimeout
        self.report = report
    }

    func run() async {
        await cancelWhenGracefulShutdown { [self] in await streamWithRetries() }
    }

    private enum StreamEnd: Sendable {
        case ended
        case failed(String)
        case stalled
    }

    private func streamWithRetries() async {
        var backoff = backoff
        while !Task.isCancelled {
            let (end, delivered) = await streamOnce()
            guard !Task.isCancelled else { return }
            let pause = backoff.afterAttempt(worked: delivered)
            switch end {
            case .ended: logger.error("Camera \(camera.name) stopped delivering frames. Reopening it in \(pause).")
            case .failed(let reason):
                // Device errors are sentences already.
                let sentence = reason.hasSuffix(".") ? reason : reason + "."
                logger.error("Camera \(camera.name) failed: \(sentence) Reopening it in \(pause).")
            case .stalled: logger.error("Camera \(camera.name) delivered no frame for \(stallTimeout). Reopening it in \(pause).")
            }
            report(.cameraLost)
            if let arrivals {
                if await arrivals.wait(upTo: pause) { logger.debug("Camera \(camera.name): its device node changed; reopening it now.") }
            } else {
                try? await Task.sleep(for: pause)
            }
            guard !Task.isCancelled else { return }
            metrics?.cameraReconnected()
        }
    }

    /// What the streaming task tells the watchdog.
    private final class Progress: Sendable {
        let lastFrame = Atomic<Int64>(MonotonicClock().now.nanoseconds)
        let delivered = Atomic(false)
    }

    /// Streams until the camera's stream ends, fails or stalls; reports whether it delivered.
    private func streamOnce() async -> (StreamEnd, delivered: Bool) {
        let progress = Progress()
        let end = await withTaskGroup(of: StreamEnd.self) { group in
            group.addTask { [self] in
                do {
                    var lastSequence: UInt64?
                    for try await frame in camera.frames() {
                        // The camera numbers every frame it exposed; a gap is frames lost on the way.
                        if let lastSequence, frame.sequence > lastSequence + 1 {
                            metrics?.framesDropped(frame.sequence - lastSequence - 1)
                        }
                        lastSequence = frame.sequence
                        metrics?.frameDelivered()
                        progress.lastFrame.store(MonotonicClock().now.nanoseconds, ordering: .relaxed)
                        if !progress.delivered.exchange(true, ordering: .relaxed) {
                            logger.info("Camera \(camera.name) delivers frames.")
                            report(.cameraReady)
                        }
                        frames.append(frame)
                        preview?(frame)
                    }
                    return .ended
                } catch {
                    return .failed("\(error)")
                }
            }
            group.addTask { [stallTimeout] in
                // A watchdog: checks a few times per timeout whether frames still arrive.
                while !Task.isCancelled {
                    try? await Task.sleep(for: stallTimeout / 4)
                    let silence = Duration.nanoseconds(
                        MonotonicClock().now.nanoseconds - progress.lastFrame.load(ordering: .relaxed))
                    if silence >= stallTimeout { return .stalled }
                }
                return .ended
            }
            let end = await group.next() ?? .ended
            group.cancelAll()
            return end
        }
        return (end, progress.delivered.load(ordering: .relaxed))
    }
}
