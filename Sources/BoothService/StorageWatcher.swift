import BoothCore
import BoothStore
import BoothSystem
import Foundation
import Logging
import Synchronization

/// Keeps an eye on the library's disk for the running booth, so that a guest learns that photos
/// cannot be saved before posing, not after typing a name: it checks at start, after each save
/// (``checkNow(probing:)``), every 10 s while photos can be saved (another program may fill the
/// disk) and every 2 s while they cannot, reports every check and logs each change of
/// ``StorageHealth/problem``. After a write the library refused, the checks also try a write
/// until one succeeds: a quota or a failing card looks well to `statvfs`.
///
/// The checks (`statvfs`, `access`) run on a thread of their own, never on Swift's cooperative
/// pool: a stuck disk must not stall the booth.
final class StorageWatcher: Sendable {
    static let healthyInterval = Duration.seconds(10)
    static let faultInterval = Duration.seconds(2)

    private struct State {
        var last: StorageHealth?
        /// A write failed since the last check that wrote successfully.
        var probing = false
        /// A check was asked for (after a save) and not made yet.
        var asked = false
    }

    private let directory: URL
    private let reserveBytes: Int64
    private let logger: Logger
    private let state = Mutex(State())
    /// The thread that checks, from ``start(reporting:)`` on.
    private let thread = Mutex<DedicatedThread?>(nil)

    /// A watcher of the library in `directory`, idle until ``start(reporting:)``.
    init(directory: URL, reserveBytes: Int64, logger: Logger) {
        self.directory = directory
        self.reserveBytes = reserveBytes
        self.logger = logger
    }

    /// Checks now and from then on; `checked` hears every check, on the watcher's thread.
    /// Blocks until the first check is reported, so that the booth knows its disk before the
    /// camera is ready and a guest can press: call it off Swift's cooperative pool.
    func start(reporting checked: @escaping @Sendable (StorageHealth) -> Void) {
        let thread = DedicatedThread(name: "storage watcher") { [self] (wakeup, started) throws(Never) in
            let clock = MonotonicClock()
            var next = clock.now + check(reporting: checked, unless: wakeup)
            started()
            while !wakeup.isStopping {
                wakeup.wait(until: next)
                // A check asked for meanwhile (after a save) has its own follow-up.
                let asked = state.withLock { state in
                    defer { state.asked = false }
                    return state.asked
                }
                guard asked || clock.now >= next else { continue }
                next = clock.now + check(reporting: checked, unless: wakeup)
            }
        }
        self.thread.withLock { $0 = thread }
    }

    /// The last check, `nil` before the first.
    var current: StorageHealth? { state.withLock { $0.last } }

    /// Checks now, then on the watcher's own schedule. `probing`: the library just refused a
    /// write, so this check and the next ones try one, until one succeeds.
    func checkNow(probing: Bool = false) {
        state.withLock { state in
            if probing { state.probing = true }
            state.asked = true
        }
        thread.withLock { $0 }?.wake()
    }

    /// No more checks.
    func stop() {
        thread.withLock { $0 }?.requestStop()
    }

    /// Checks the disk and reports it, unless the watcher stopped meanwhile; returns when to
    /// check next.
    private func check(reporting checked: @Sendable (StorageHealth) -> Void, unless wakeup: Wakeup) -> Duration {
        let probing = state.withLock { $0.probing }
        let health = StorageHealth.check(directory, reserveBytes: reserveBytes, probing: probing)
        let previous = state.withLock { state in
            defer { state.last = health }
            if probing && health.problem == nil { state.probing = false }
            return state.last
        }
        let interval = health.problem == nil ? Self.healthyInterval : Self.faultInterval
        guard !wakeup.isStopping else { return interval }
        if previous == nil || previous?.problem != health.problem {
            switch (previous?.problem, health.problem) {
            case (_, _?): logger.error("\(health)")
            case (_?, nil): logger.notice("Storage: photos can be saved again. \(health)")
            case (nil, nil): logger.info("Storage: \(health)")
            }
        }
        checked(health)
        return interval
    }
}
