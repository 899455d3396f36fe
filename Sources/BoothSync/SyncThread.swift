import BoothSystem
import NIOPosix

/// The one thread on which the sync does what blocks (the catalog, reading originals, hashing
/// and tagging them), at background priority: never on Swift's cooperative pool, and never
/// ahead of the capture path when both want a core.
struct SyncThread: Sendable {
    private let pool: NIOThreadPool

    init() {
        pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
        pool.submit { _ in BackgroundPriority.lowerCallingThread() }
    }

    func run<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await pool.runIfActive(body)
    }

    func shutDown() async {
        try? await pool.shutdownGracefully()
    }
}
