import BoothCore
import BoothSystem
import Foundation
import Logging
import SystemPackage

extension DedicatedThread {
    /// A device's own thread: runs `session` (open the device, serve it until it fails) again
    /// and again, with a growing pause between attempts (``ReconnectBackoff``, as the camera
    /// has), until stopped. A device that is unplugged costs no CPU while the booth waits for
    /// it, and comes back by itself.
    ///
    /// `session` returns normally when its wake-up says stop, and throws when the device fails;
    /// `worked` tells whether it got as far as serving the device. A pause ends early when the
    /// device node at `path` comes back (``DeviceNodeWatch``).
    static func device(
        name: String, watching path: String? = nil, logger: Logger,
        session: @escaping @Sendable (_ wakeup: Wakeup, _ worked: inout Bool) throws -> Void
    ) -> DedicatedThread {
        let arrivals = path.flatMap(DeviceNodeWatch.init(path:))
        return DedicatedThread(name: name) { wakeup in
            var backoff = ReconnectBackoff()
            while !wakeup.isStopping {
                var worked = false
                do {
                    try session(wakeup, &worked)
                    return
                } catch {
                    let pause = backoff.afterAttempt(worked: worked)
                    logger.error("\(name): \(error) Trying again in \(pause).")
                    let deadline = MonotonicClock().now + pause
                    if let arrivals {
                        if arrivals.wait(until: deadline, wakeup: wakeup) { logger.debug("\(name): its device node changed; trying again now.") }
                    } else {
                        wakeup.wait(until: deadline)
                    }
                }
            }
        }
    }
}

extension Wakeup {
    /// ``wait(for:events:until:)`` for a device's descriptor: a failing `poll` names `device`.
    func wait(for descriptor: FileDescriptor, until deadline: MonotonicInstant?, device: String) throws(DeviceError) -> Outcome {
        do {
            return try wait(for: descriptor, until: deadline)
        } catch {
            throw .systemCall("poll", on: device, errno: error)
        }
    }
}
