import BoothCore
import BoothSystem
import Foundation

/// Wakes a device thread that sleeps in `poll(2)`: a pipe polled beside the device's own
/// descriptor, so stopping a camera or a keypad never waits for its next byte or frame.
final class Wakeup: Sendable {
    /// The pipe's read end, which the waiting thread polls.
    let descriptor: Int32
    private let writeEnd: Int32

    init() throws(DeviceError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw .systemCall("pipe", on: "wake-up signal", errno: errno) }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        descriptor = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(descriptor)
        close(writeEnd)
    }

    /// Makes every present and future wait return at once (the byte is never read).
    func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// What ended a wait.
    enum Outcome: Equatable {
        /// The device's descriptor has data (or an error or hang-up to report when read).
        case ready(hangUp: Bool)
        case woken
        case timedOut
    }

    /// Waits until `descriptor` is readable (or reports an error), this wake-up is signalled, or
    /// `timeout` passes. EINTR is retried; any other poll failure is thrown.
    func wait(for descriptor: Int32, events: Int16 = Int16(POLLIN), timeout: Duration, device: String)
        throws(DeviceError) -> Outcome
    {
        var fds = [
            pollfd(fd: descriptor, events: events, revents: 0),
            pollfd(fd: self.descriptor, events: Int16(POLLIN), revents: 0),
        ]
        // Rounded up: a deadline a fraction of a millisecond away must not become poll(0) in a loop.
        let milliseconds = Int32(clamping: (timeout.inNanoseconds + 999_999) / 1_000_000)
        while true {
            let result = poll(&fds, 2, milliseconds)
            if result < 0 {
                if errno == EINTR { continue }
                throw .systemCall("poll", on: device, errno: errno)
            }
            if fds[1].revents != 0 { return .woken }
            if result == 0 { return .timedOut }
            let hangUp = fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
            return .ready(hangUp: hangUp)
        }
    }

    /// Sleeps for `duration` unless signalled first; returns whether it was signalled.
    func sleep(for duration: Duration) -> Bool {
        var probe = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let deadline = MonotonicClock().now + duration
        while true {
            let left = MonotonicClock().now.duration(to: deadline)
            if left <= .zero { return false }
            let result = poll(&probe, 1, Int32(clamping: left.inNanoseconds / 1_000_000 + 1))
            if result > 0 { return true }
            if result < 0, errno != EINTR { return false }
        }
    }
}
