import BoothCore
import Foundation
import Synchronization
import SystemPackage

/// How a ``DedicatedThread`` is woken and told to stop: a pipe the thread polls while it
/// waits, beside a device's own descriptor when it has one, so that a camera, a keypad or a
/// screen never waits for its next frame, byte or deadline to notice something new.
///
/// ``signal()`` wakes the wait in progress, or the next one, once. ``requestStop()`` is for
/// good: every wait from then on returns at once, and the thread's loop ends when it sees
/// ``isStopping``.
package final class Wakeup: Sendable {
    /// What ended a wait.
    package enum Outcome: Equatable, Sendable {
        /// The descriptor waited for is ready (or has an error or a hang-up to report when read).
        case ready(hangUp: Bool)
        /// ``signal()`` or ``requestStop()`` was called.
        case woken
        /// The deadline passed.
        case timedOut
    }

    private let readEnd: FileDescriptor
    private let writeEnd: FileDescriptor
    private let stopping = Atomic(false)

    /// A wake-up not signalled yet. A process that cannot make a pipe (it has no descriptor
    /// left) cannot run the booth: that stops it here.
    package init() {
        do {
            (readEnd, writeEnd) = try FileDescriptor.pipe()
            for end in [readEnd, writeEnd] {
                try SystemCall.retrying { fcntl(end.rawValue, F_SETFD, FD_CLOEXEC) }
                try SystemCall.retrying { fcntl(end.rawValue, F_SETFL, O_NONBLOCK) }
            }
        } catch {
            fatalError("A thread's wake-up needs a pipe: \(error)")
        }
    }

    deinit {
        try? readEnd.close()
        try? writeEnd.close()
    }

    /// Wakes the thread's wait in progress, or its next one when it is not waiting.
    package func signal() {
        // A full pipe is signalled already.
        _ = withUnsafeBytes(of: UInt8(1)) { try? writeEnd.write($0) }
    }

    /// Asks the thread to stop: every wait returns at once from now on.
    package func requestStop() {
        stopping.store(true, ordering: .releasing)
        signal()
    }

    /// Whether ``requestStop()`` was called.
    package var isStopping: Bool { stopping.load(ordering: .acquiring) }

    /// Waits until signalled or `deadline` passes (`nil`: however long it takes); returns
    /// whether it was signalled (or asked to stop).
    @discardableResult
    package func wait(until deadline: MonotonicInstant?) -> Bool {
        // Polling a pipe of our own fails only for want of memory: then it is as if signalled,
        // and the thread looks at its work again.
        (try? poll(nil, events: 0, until: deadline)) != .timedOut
    }

    /// Waits until `descriptor` is ready for `events` (readable by default, or has an error to
    /// report), this wake-up is signalled, or `deadline` passes.
    package func wait(for descriptor: FileDescriptor, events: Int16 = Int16(POLLIN), until deadline: MonotonicInstant?)
        throws(Errno) -> Outcome
    {
        try poll(descriptor, events: events, until: deadline)
    }

    private func poll(_ descriptor: FileDescriptor?, events: Int16, until deadline: MonotonicInstant?) throws(Errno) -> Outcome {
        let clock = MonotonicClock()
        var fds = [pollfd(fd: readEnd.rawValue, events: Int16(POLLIN), revents: 0)]
        if let descriptor { fds.append(pollfd(fd: descriptor.rawValue, events: events, revents: 0)) }
        while true {
            if isStopping { return .woken }
            for index in fds.indices { fds[index].revents = 0 }
            let ready = try SystemCall.retrying {
                // Rounded up: a deadline a fraction of a millisecond away must not become
                // poll(0) in a loop.
                let timeout =
                    deadline.map { Int32(clamping: max(0, (clock.now.duration(to: $0).inNanoseconds + 999_999) / 1_000_000)) } ?? -1
                return Glibc.poll(&fds, nfds_t(fds.count), timeout)
            }
            if fds[0].revents != 0 {
                consumeSignals()
                return .woken
            }
            if ready > 0, fds.count > 1 {
                return .ready(hangUp: fds[1].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0)
            }
            // Timed out; the kernel's timer may end a hair before the clock says so.
            if let deadline, clock.now >= deadline { return .timedOut }
        }
    }

    /// Empties the pipe, so that the next wait sleeps until the next signal.
    private func consumeSignals() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while let count = try? bytes.withUnsafeMutableBytes({ try readEnd.read(into: $0) }), count > 0 {}
    }
}
