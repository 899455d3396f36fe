import Foundation
import Synchronization

/// What the sync did since the booth started, for `/metrics`, `/api/status` and the log.
package final class SyncMetrics: Sendable {
    package struct Snapshot: Sendable, Hashable {
        package var objectsUploaded = 0
        package var bytesUploaded = 0
        /// Objects fetched from the bucket (every GET of an object the store answered, whether
        /// the booth then took it or refused it).
        package var objectsImported = 0
        /// Every byte the store sent: objects, listings and answers, taken or refused.
        package var bytesImported = 0
        package var photosImported = 0
        package var failures: [StoreError.Kind: Int] = [:]
        /// Why the booth does not sync at all (no credentials), or `nil`.
        package var notSyncing: String?
        package var lastSuccess: Date?
        package var lastError: StoreError?
        package var lastErrorAt: Date?
        /// Seconds added to the booth's clock (from the store's time), which signs requests and
        /// dates photos.
        package var clockCorrection: TimeInterval = 0
        /// Whether the store's time is known yet (``clockCorrection`` is zero until it is).
        package var clockKnown = false
        /// Photos waiting in the outbox, and since when the oldest waits (as of the last look).
        package var pending = 0
        package var oldestPending: Date?
    }

    private let state = Mutex(Snapshot())

    package init() {}

    package var snapshot: Snapshot { state.withLock { $0 } }

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
