import BoothStore
import Dispatch
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
/// The checks (`statvfs`, `access`) run on a queue of their own, never on Swift's cooperative
/// pool: a stuck disk must not stall the booth.
final class StorageWatcher: Sendable {
    static let healthyInterval = DispatchTimeInterval.seconds(10)
    static let faultInterval = DispatchTimeInterval.seconds(2)

    private struct State {
        var checked: (@Sendable (StorageHealth) -> Void)?
        var last: StorageHealth?
        /// A write failed since the last check that wrote successfully.
        var probing = false
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

    /// Checks now and from then on; `checked` hears every check, on the watcher's queue. Blocks
    /// until the first check is reported, so that the booth knows its disk before the camera is
    /// ready and a guest can press: call it off Swift's cooperative pool.
    func start(reporting checked: @escaping @Sendable (StorageHealth) -> Void) {
        state.withLock { state in
            state.checked = checked
            state.last = nil
        }
        queue.sync { check() }
    }

    /// The last check, `nil` before the first.
    var current: StorageHealth? { state.withLock { $0.last } }

    /// Checks now, then on the watcher's own schedule. `probing`: the library just refused a
    /// write, so this check and the next ones try one, until one succeeds.
    func checkNow(probing: Bool = false) {
        if probing { state.withLock { $0.probing = true } }
        queue.async { [self] in check() }
    }

    /// No more checks.
    func stop() {
        state.withLock { $0.stopped = true }
    }

    private func check() {
        let probing = state.withLock { $0.probing }
        let health = StorageHealth.check(directory, reserveBytes: reserveBytes, probing: probing)
        let (previous, generation, checked) = state.withLock { state in
            defer { state.last = health }
            if probing && health.problem == nil { state.probing = false }
            state.generation += 1
            return (state.last, state.generation, state.stopped ? nil : state.checked)
        }
        guard let checked else { return }
        if previous == nil || previous?.problem != health.problem {
            switch (previous?.problem, health.problem) {
            case (_, _?): logger.error("\(health)")
            case (_?, nil): logger.notice("Storage: photos can be saved again. \(health)")
            case (nil, nil): logger.info("Storage: \(health)")
            }
        }
        checked(health)
        let interval = health.problem == nil ? Self.healthyInterval : Self.faultInterval
        queue.asyncAfter(deadline: .now() + interval) { [self] in
            // A check asked for meanwhile (after a save) has its own follow-up.
            guard state.withLock({ $0.generation == generation }) else { return }
            check()
        }
    }
}
