import BoothCore
import BoothStore
import BoothSystem
import NIOPosix

extension PhotoLibrary {
    /// Runs catalog and file calls on the web's blocking thread pool (``WebThreads``). GRDB and `fsync` block, and
    /// Swift's cooperative pool has only as many threads as the Pi has cores: a slow disk must
    /// not stall every other request, nor the booth.
    func offloaded<Result: Sendable>(
        _ body: @escaping @Sendable (PhotoLibrary) throws(LibraryError) -> Result
    ) async throws -> Result {
        try await WebThreads.blocking.runIfActive {
            BackgroundPriority.lowerCallingThread()
            return try body(self)
        }
    }
}
