import BoothCore
import Foundation
import Logging

/// A device's own thread: runs `session` (open the device, serve it until it fails) again and
/// again, with a growing pause between attempts (``ReconnectBackoff``, as the camera has), until
/// stopped. A device that is unplugged costs no CPU while the booth waits for it, and comes back
/// by itself.
final class DeviceThread: Sendable {
    private let wakeup: Wakeup

    /// Starts the thread. `session` returns normally when `wakeup` is signalled, and throws
    /// when the device fails; `worked` tells whether it got as far as serving the device.
    init(
        name: String, logger: Logger,
        session: @escaping @Sendable (_ wakeup: Wakeup, _ worked: inout Bool) throws -> Void
    ) throws(DeviceError) {
        let wakeup = try Wakeup()
        self.wakeup = wakeup
        let thread = Thread {
            var backoff = ReconnectBackoff()
            while true {
                var worked = false
                let pause: Duration
                do {
                    try session(wakeup, &worked)
                    return
                } catch {
                    pause = backoff.afterAttempt(worked: worked)
                    logger.error("\(name): \(error) Trying again in \(pause).")
                }
                if wakeup.sleep(for: pause) { return }
            }
        }
        thread.name = name
        thread.start()
    }

    /// Asks the thread to stop; it ends after its current wait.
    func stop() { wakeup.signal() }
}
