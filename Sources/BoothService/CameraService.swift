import BoothCore
import Logging
import ServiceLifecycle

/// Keeps the camera streaming into ``RecentFrames`` for as long as the booth runs, and tells the
/// booth when the camera comes and goes. A failed camera is reopened with a growing pause
/// (0.5 s doubling to 10 s), so an unplugged camera costs no CPU while the booth waits.
final class CameraService: Service {
    private let camera: any Camera
    private let frames: RecentFrames
    private let logger: Logger
    private let report: @Sendable (BoothEvent) -> Void

    init(camera: any Camera, frames: RecentFrames, logger: Logger, report: @escaping @Sendable (BoothEvent) -> Void) {
        self.camera = camera
        self.frames = frames
        self.logger = logger
        self.report = report
    }

    func run() async {
        await cancelWhenGracefulShutdown { [self] in await streamWithRetries() }
    }

    private func streamWithRetries() async {
        let firstPause = Duration.milliseconds(500)
        var pause = firstPause
        while !Task.isCancelled {
            var delivered = false
            do {
                for try await frame in camera.frames() {
                    if !delivered {
                        delivered = true
                        pause = firstPause
                        logger.info("Camera \(camera.name) delivers frames.")
                        report(.cameraReady)
                    }
                    frames.append(frame)
                }
                guard !Task.isCancelled else { return }
                logger.error("Camera \(camera.name) stopped delivering frames. Reopening it in \(pause).")
            } catch {
                guard !Task.isCancelled else { return }
                logger.error("Camera \(camera.name) failed: \(error). Reopening it in \(pause).")
            }
            report(.cameraLost)
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .seconds(10))
        }
    }
}
