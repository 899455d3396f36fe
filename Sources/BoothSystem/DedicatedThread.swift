import CGlibcExtensions
import Dispatch
import Foundation
import Synchronization

/// A thread of the booth's own, for work that blocks: reading a device, drawing a screen,
/// writing files. The booth's one way to start a thread: blocking work never runs on Swift's
/// cooperative pool, which has one thread per core and runs the booth's tasks.
///
/// The thread runs a body, usually a loop that waits on the thread's ``wakeup``: between two
/// steps it sleeps in ``Wakeup/wait(until:)`` (or polls its device beside the wake-up), and
/// others wake it with ``wake()`` when there is something new. ``stop()`` asks the loop to end
/// (every wait returns at once, and the loop sees ``Wakeup/isStopping``) and returns once the
/// thread has ended.
///
/// A thread that must start something before its owner can go on (open a device, load fonts)
/// uses the start handshake, ``init(name:priority:wakeup:startingWith:)``: the owner waits until
/// the body says it started, or receives the error it failed with. For jobs that run in order,
/// see ``SerialWorker``; for one blocking call, ``run(name:priority:_:)``.
package final class DedicatedThread: Sendable {
    /// The CPU priority the thread runs at.
    package enum Priority: Sendable {
        /// The booth's own: the capture path and what the guest sees.
        case normal
        /// ``BackgroundPriority``: work for someone watching from the web.
        case background
    }

    /// Wakes the thread's waits, and tells its loop to stop.
    package let wakeup: Wakeup
    /// Opened once the body has returned.
    private let ended = Latch()

    /// Starts a thread named `name` that runs `body` with its wake-up, and returns at once.
    ///
    /// - Parameter wakeup: the wake-up the thread waits on; one of its own by default. Pass one
    ///   when what wakes the thread is made before it (a screen's render requests).
    package init(
        name: String, priority: Priority = .normal, wakeup: Wakeup = Wakeup(), body: @escaping @Sendable (_ wakeup: Wakeup) -> Void
    ) {
        self.wakeup = wakeup
        Self.launch(name: name, priority: priority, ended: ended) { body(wakeup) }
    }

    /// Starts a thread named `name` that runs `body`, and waits until the body calls `started`
    /// or ends: an error the body throws before it started is thrown here, once the body has
    /// returned. It blocks: call it from a thread of your own, never from Swift's cooperative
    /// pool.
    ///
    /// Once started, the body has nobody to throw to: it handles its own failures (it logs
    /// them). A body that returns without calling `started` has started, and ended.
    package init<Failure: Error>(
        name: String, priority: Priority = .normal, wakeup: Wakeup = Wakeup(),
        startingWith body: @escaping @Sendable (_ wakeup: Wakeup, _ started: () -> Void) throws(Failure) -> Void
    ) throws(Failure) {
        self.wakeup = wakeup
        let startup = Mutex<Result<Void, Failure>?>(nil)
        let reported = Latch()
        Self.launch(name: name, priority: priority, ended: ended) {
            do throws(Failure) {
                try body(wakeup) {
                    startup.withLock { $0 = $0 ?? .success(()) }
                    reported.open()
                }
            } catch {
                let wasStarted = startup.withLock { result in
                    defer { result = result ?? .failure(error) }
                    return result != nil
                }
                assert(!wasStarted, "\(name) failed after it started, with nobody to hear it: \(error)")
            }
            startup.withLock { $0 = $0 ?? .success(()) }
        } then: {
            // The owner learns of a failure once the body has ended.
            reported.open()
        }
        reported.waitBlocking()
        if case .failure(let error) = startup.withLock({ $0 }) { throw error }
    }

    /// Starts the thread: `body`, then the end for ``stop()``, then `then`.
    private static func launch(
        name: String, priority: Priority, ended: Latch, body: @escaping @Sendable () -> Void, then: @escaping @Sendable () -> Void = {}
    ) {
        let thread = Thread {
            nameCallingThread(name)
            if priority == .background { BackgroundPriority.lowerCallingThread() }
            body()
            ended.open()
            then()
        }
        thread.name = name
        thread.start()
    }

    /// Gives the calling thread `name` where the kernel keeps it (`ps -L`, `top -H`, gdb,
    /// /proc/PID/task/TID/comm), cut to its 15 bytes. Foundation's name stays inside the process:
    /// without this, a thread shows the name of the thread that started it, often one of
    /// libdispatch's workers. The corresponding C function is `pthread_setname_np`.
    static func nameCallingThread(_ name: String) {
        var kept = Substring(name)
        // Whole characters: a cut inside one would leave half of it.
        while kept.utf8.count > 15 { kept.removeLast() }
        _ = pthread_setname_np(pthread_self(), String(kept))
    }

    /// Wakes the thread: its wait in progress returns, or its next one returns at once.
    package func wake() {
        wakeup.signal()
    }

    /// Asks the thread's loop to stop, and returns at once.
    package func requestStop() {
        wakeup.requestStop()
    }

    /// Asks the thread's loop to stop, and returns once the thread has ended.
    package func stop() async {
        requestStop()
        await ended.wait()
    }

    /// ``stop()`` for a caller that may block (never on Swift's cooperative pool).
    package func stopWaiting() {
        requestStop()
        ended.waitBlocking()
    }

    /// Whether the thread's body has returned.
    package var hasEnded: Bool { ended.isOpen }

    /// Runs `work` on a thread of its own and returns what it returns (or throws what it
    /// throws), without holding a thread of Swift's cooperative pool meanwhile: for one call
    /// that blocks (opening the devices, the library, reading a file).
    package static func run<Value: Sendable, Failure: Error>(
        name: String, priority: Priority = .normal, _ work: @escaping @Sendable () throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, Failure>, Never>) in
            _ = DedicatedThread(name: name, priority: priority) { _ in
                continuation.resume(returning: Result { () throws(Failure) -> Value in try work() })
            }
        }
        return try result.get()
    }
}

/// A one-way gate: closed until ``open()``, then open for good. Tasks await it, threads block
/// on it.
final class Latch: Sendable {
    private struct State {
        var isOpen = false
        var waiters: [CheckedContinuation<Void, Never>] = []
        var blocked = 0
    }

    private let state = Mutex(State())
    private let opened = DispatchSemaphore(value: 0)

    var isOpen: Bool { state.withLock { $0.isOpen } }

    func open() {
        let (waiters, blocked) = state.withLock { state in
            guard !state.isOpen else { return ([CheckedContinuation<Void, Never>](), 0) }
            state.isOpen = true
            defer {
                state.waiters = []
                state.blocked = 0
            }
            return (state.waiters, state.blocked)
        }
        for waiter in waiters { waiter.resume() }
        for _ in 0..<blocked { opened.signal() }
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let isOpen = state.withLock { state in
                if !state.isOpen { state.waiters.append(continuation) }
                return state.isOpen
            }
            if isOpen { continuation.resume() }
        }
    }

    func waitBlocking() {
        let isOpen = state.withLock { state in
            if !state.isOpen { state.blocked += 1 }
            return state.isOpen
        }
        if !isOpen { opened.wait() }
    }
}
