import Foundation
import Synchronization

/// What the sync did since the booth started, for `/metrics`, `/api/status` and the log.
public final class SyncMetrics: Sendable {
    public struct Snapshot: Sendable, Hashable {
        public var objectsUploaded = 0
        public var bytesUploaded = 0
        public var objectsImported = 0
        public var bytesImported = 0
        public var photosImported = 0
        public var failures: [StoreError.Kind: Int] = [:]
        /// Why the booth does not sync at all (no credentials), or `nil`.
        public var notSyncing: String?
        public var lastSuccess: Date?
        public var lastError: StoreError?
        public var lastErrorAt: Date?
        /// Seconds added to the booth's clock when signing (from the store's time).
        public var clockCorrection: TimeInterval = 0
        /// Photos waiting in the outbox, and since when the oldest waits (as of the last look).
        public var pending = 0
        public var oldestPending: Date?
    }

    private let state = Mutex(Snapshot())

    public init() {}

    public var snapshot: Snapshot { state.withLock { $0 } }

    func update(_ change: (inout Snapshot) -> Void) {
        state.withLock { change(&$0) }
    }

    func succeeded(uploadedObjects: Int = 0, uploadedBytes: Int = 0) {
        update {
            $0.objectsUploaded += uploadedObjects
            $0.bytesUploaded += uploadedBytes
            $0.lastSuccess = Date()
            $0.lastError = nil
        }
    }

    func failed(_ error: StoreError) {
        update {
            $0.failures[error.kind, default: 0] += 1
            $0.lastError = error
            $0.lastErrorAt = Date()
        }
    }
}
