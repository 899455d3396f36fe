import Foundation
import Logging

/// A device's own thread: runs `session` (open the device, serve it until it fails) again and
/// again, with a growing pause between attempts (0.5 s doubling to 10 s, back to 0.5 s after a
/// session that worked), until stopped. A device that is unplugged costs no CPU while the booth
/// waits for it, and comes back by itself.
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
            let firstPause = Duration.milliseconds(500)
            var pause = firstPause
            while true {
                var worked = false
                do {
                    try session(wakeup, &worked)
                    return
                } catch {
                    if worked { pause = firstPause }
                    logger.error("\(name): \(error) Trying again in \(pause).")
                }
                if wakeup.sleep(for: pause) { return }
                pause = min(pause * 2, .seconds(10))
            }
        }
        thread.name = name
        thread.start()
    }

    /// Asks the thread to stop; it ends after its current wait.
    func stop() { wakeup.signal() }
}
