import BoothSystem

/// The one thread on which the sync does what blocks (the catalog, reading originals, hashing
/// and tagging them), at background priority: never on Swift's cooperative pool, and never
/// ahead of the capture path when both want a core. Jobs run in order, as on every
/// ``SerialWorker``.
struct SyncThread: Sendable {
    private let worker = SerialWorker(name: "event sync", priority: .background)

    func run<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await worker.perform(body)
    }

    /// Returns once every job has run; the thread ends with the sync.
    func shutDown() async {
        await worker.drain()
    }
}
