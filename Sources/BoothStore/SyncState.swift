import BoothCore
import Foundation

/// What the sync worker remembers between runs, for `photobooth sync status`, `photobooth
/// export` and the next run: the event, when the store last took an upload and gave a listing,
/// and the last failure while it stands. Kept in the catalog's `sync_state`, one value per row,
/// read and written whole (``SyncOutbox/state()``, ``SyncOutbox/updateState(_:)``).
package struct SyncState: Sendable, Hashable {
    /// What the worker was doing when the store failed: a listing's success clears a listing's
    /// failure, an upload's only some of an upload's.
    package enum Operation: String, Sendable, Hashable {
        case listing, upload
    }

    /// The store's last failure, while it stands.
    package struct Failure: Sendable, Hashable {
        /// What failed, for a person to read.
        package var message: String
        /// The kind of failure, as the sync names its kinds (`StoreError.Kind`'s raw value).
        package var kind: String?
        package var time: Date?
        /// `nil` when nothing could be tried (no credentials).
        package var during: Operation?

        package init(message: String, kind: String?, time: Date?, during: Operation?) {
            self.message = message
            self.kind = kind
            self.time = time
            self.during = during
        }
    }

    /// The event the booth syncs with, for the copies `photobooth export` makes.
    package var event: String?
    /// When the store last confirmed an upload.
    package var lastUpload: Date?
    /// When the store last gave a listing of the event.
    package var lastListing: Date?
    package var failure: Failure?

    package init(event: String? = nil, lastUpload: Date? = nil, lastListing: Date? = nil, failure: Failure? = nil) {
        self.event = event
        self.lastUpload = lastUpload
        self.lastListing = lastListing
        self.failure = failure
    }

    /// The names of the values in `sync_state`, as every version has written them.
    enum Key: String, CaseIterable {
        case event
        case lastUpload = "last_success_at"
        case lastListing = "last_listing_at"
        case failure = "last_error"
        case failureKind = "last_error_kind"
        case failureTime = "last_error_at"
        case failureDuring = "last_error_during"
    }

    /// The state of the values `sync_state` holds, by name.
    init(values: [String: String]) {
        func value(_ key: Key) -> String? { values[key.rawValue] }
        event = value(.event)
        lastUpload = value(.lastUpload).flatMap(Date.init(utcTimestamp:))
        lastListing = value(.lastListing).flatMap(Date.init(utcTimestamp:))
        failure = value(.failure).map { message in
            Failure(
                message: message, kind: value(.failureKind), time: value(.failureTime).flatMap(Date.init(utcTimestamp:)),
                during: value(.failureDuring).flatMap(Operation.init(rawValue:)))
        }
    }

    /// The values `sync_state` holds for this state, by name; `nil` for a value it has not.
    var values: [String: String?] {
        [
            Key.event.rawValue: event,
            Key.lastUpload.rawValue: lastUpload?.utcTimestamp,
            Key.lastListing.rawValue: lastListing?.utcTimestamp,
            Key.failure.rawValue: failure?.message,
            Key.failureKind.rawValue: failure?.kind,
            Key.failureTime.rawValue: failure?.time?.utcTimestamp,
            Key.failureDuring.rawValue: failure?.during?.rawValue,
        ]
    }
}
