import Foundation
import Synchronization

/// What the sync did since the booth started, for `/metrics`, `/api/status` and the log.
public final class SyncMetrics: Sendable {
    public struct Snapshot: Sendable, Hashable {
        public var objectsUploaded = 0
        public var bytesUploaded = 0
        /// Objects fetched from the bucket (every GET of an object the store answered, whether
        /// the booth then took it or refused it).
        public var objectsImported = 0
        /// Every byte the store sent: objects, listings and answers, taken or refused.
        public var bytesImported = 0
        public var photosImported = 0
        public var failures: [StoreError.Kind: Int] = [:]
        /// Why the booth does not sync at all (no credentials), or `nil`.
        public var notSyncing: String?
        public var lastSuccess: Date?
        public var lastError: StoreError?
        public var lastErrorAt: Date?
        /// Seconds added to the booth's clock (from the store's time), which signs requests and
        /// dates photos.
        public var clockCorrection: TimeInterval = 0
        /// Whether the store's time is known yet (``clockCorrection`` is zero until it is).
        public var clockKnown = false
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

    /// A listing went through; the last error goes unless an upload's refusal must stay
    /// (``EventSync``'s rule).
    func listed(clearingError: Bool) {
        update {
            $0.lastSuccess = Date()
            if clearingError { $0.lastError = nil }
        }
    }

    func succeeded(uploadedObjects: Int, uploadedBytes: Int) {
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
