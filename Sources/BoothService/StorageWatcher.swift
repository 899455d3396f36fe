import BoothStore
import Dispatch
import Foundation
import Logging
import Synchronization

/// Keeps an eye on the library's disk for the running booth, so that a guest learns that photos
/// cannot be saved before posing, not after typing a name: it checks at start, after each save
/// (``checkNow()``), every 10 s while photos can be saved (another program may fill the disk)
/// and every 2 s while they cannot, and reports each change of ``StorageHealth/problem``.
///
/// The checks (`statvfs`, `access`) run on a queue of their own, never on Swift's cooperative
/// pool: a stuck disk must not stall the booth.
final class StorageWatcher: Sendable {
    static let healthyInterval = DispatchTimeInterval.seconds(10)
    static let faultInterval = DispatchTimeInterval.seconds(2)

    private struct State {
        var changed: (@Sendable (StorageHealth) -> Void)?
        var last: StorageHealth?
        /// Counts checks, so that only the latest one's follow-up runs.
        var generation = 0
        var stopped = false
    }

    private let directory: URL
    private let reserveBytes: Int64
    private let logger: Logger
    private let queue = DispatchQueue(label: "photobooth.storage", qos: .utility)
    private let state = Mutex(State())

    /// A watcher of the library in `directory`, idle until ``start(reporting:)``.
    init(directory: URL, reserveBytes: Int64, logger: Logger) {
        self.directory = directory
        self.reserveBytes = reserveBytes
        self.logger = logger
    }

    /// Checks now and from then on; `changed` hears the first check and every change of problem
    /// after it, on the watcher's queue.
    func start(reporting changed: @escaping @Sendable (StorageHealth) -> Void) {
        state.withLock { state in
            state.changed = changed
            state.last = nil
        }
        checkNow()
    }

    /// The last check, `nil` before the first.
    var current: StorageHealth? { state.withLock { $0.last } }

    /// Checks now, then on the watcher's own schedule.
    func checkNow() {
        queue.async { [self] in check() }
    }

    /// No more checks.
    func stop() {
        state.withLock { $0.stopped = true }
    }

    private func check() {
        let health = StorageHealth.check(directory, reserveBytes: reserveBytes)
        let (previous, generation, changed) = state.withLock { state in
            defer { state.last = health }
            state.generation += 1
            return (state.last, state.generation, state.stopped ? nil : state.changed)
        }
        guard let changed else { return }
        if previous == nil || previous?.problem != health.problem {
            switch (previous?.problem, health.problem) {
            case (_, _?): logger.error("\(health)")
            case (_?, nil): logger.notice("Storage: photos can be saved again. \(health)")
            case (nil, nil): logger.info("Storage: \(health)")
            }
            changed(health)
        }
        let interval = health.problem == nil ? Self.healthyInterval : Self.faultInterval
        queue.asyncAfter(deadline: .now() + interval) { [self] in
            // A check asked for meanwhile (after a save) has its own follow-up.
            guard state.withLock({ $0.generation == generation }) else { return }
            check()
        }
    }
}
