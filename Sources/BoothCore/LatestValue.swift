import Synchronization

/// The latest of a stream of values, for any number of readers that each want the newest one
/// and never a backlog: a live picture's frames, the booth's screen. Events that no reader may
/// miss (a photo was saved) go through an ``EventBroadcast`` instead.
///
/// The producer ``publish(_:)``es without waiting; a reader asks for the value after the
/// version it last saw and gets the newest one, skipping any it was too slow for. Producers
/// that must work to make a value (encode a JPEG) check ``isWatched`` first, and learn that a
/// watcher arrived from the `watcherArrived` they give.
package final class LatestValue<Value: Sendable>: Sendable {
    private typealias Reader = CheckedContinuation<(version: UInt64, value: Value)?, Never>

    /// When the latest value stops being handed to new readers.
    package enum Staleness: Sendable {
        /// When the last watcher leaves: nobody keeps it fresh after that (a camera's frames),
        /// so the next watcher waits for a new one instead of seeing an old one first.
        case whenUnwatched
        /// When the producer says so (``withdraw()``): a value can stay true with nobody
        /// watching (a screen that stays still), and the next watcher gets it at once.
        case whenWithdrawn
    }

    private struct State {
        var version: UInt64 = 0
        var value: Value?
        var closed = false
        var readers: [Int: Reader] = [:]
        var nextReader = 0
        /// Readers registered with ``watch()``, waiting or not.
        var watchers = 0
    }

    private let state = Mutex(State())
    private let staleness: Staleness
    private let watcherArrived: @Sendable () -> Void

    /// - Parameters:
    ///   - staleness: when the latest value is no longer handed to new readers.
    ///   - watcherArrived: called, outside any lock and at once, each time a reader starts to
    ///     ``watch()``: a producer that rests while nobody watches wakes for it.
    package init(staleness: Staleness = .whenUnwatched, watcherArrived: @escaping @Sendable () -> Void = {}) {
        self.staleness = staleness
        self.watcherArrived = watcherArrived
    }

    /// Makes `value` the latest and hands it to every reader waiting for one.
    package func publish(_ value: Value) {
        let (version, waiting) = state.withLock { state -> (UInt64, [Reader]) in
            guard !state.closed else { return (0, []) }
            state.version += 1
            state.value = value
            defer { state.readers = [:] }
            return (state.version, Array(state.readers.values))
        }
        for reader in waiting { reader.resume(returning: (version, value)) }
    }

    /// The latest value and its version, if any was published.
    package var latest: (version: UInt64, value: Value)? {
        state.withLock { state in state.value.map { (state.version, $0) } }
    }

    /// Waits for a value newer than `version` (0 for any) and returns the newest one; `nil` once
    /// the stream is closed or the waiting task is cancelled.
    package func next(after version: UInt64) async -> (version: UInt64, value: Value)? {
        let id = state.withLock { state in
            defer { state.nextReader += 1 }
            return state.nextReader
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> (UInt64, Value)?? in
                    if state.closed || Task.isCancelled { return .some(nil) }
                    if state.version > version, let value = state.value { return (state.version, value) }
                    state.readers[id] = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready.map { (version: $0.0, value: $0.1) }) }
            }
        } onCancel: {
            let reader = state.withLock { $0.readers.removeValue(forKey: id) }
            reader?.resume(returning: nil)
        }
    }

    /// Counts the caller as a watcher until the returned token is ended, so that producers
    /// know someone wants values.
    ///
    /// When the last watcher goes, a feed whose values go stale ``Staleness/whenUnwatched``
    /// forgets the latest one: nobody kept it fresh since, so the next watcher waits for a new
    /// one instead of seeing a stale picture first.
    package func watch() -> Watch {
        state.withLock { $0.watchers += 1 }
        watcherArrived()
        return Watch { [self] in
            state.withLock { state in
                state.watchers -= 1
                if state.watchers == 0 && staleness == .whenUnwatched { state.value = nil }
            }
        }
    }

    /// Forgets the latest value, which no longer shows what is: readers from now on wait for
    /// the next one. The version stays, so a reader never gets a value twice.
    package func withdraw() {
        state.withLock { $0.value = nil }
    }

    /// How many readers wait in ``next(after:)`` right now (for tests that must publish only
    /// once a reader waits).
    package var waitingReaders: Int { state.withLock { $0.readers.count } }

    /// Whether any reader is watching; producers skip costly work when nobody is.
    package var isWatched: Bool { state.withLock { $0.watchers > 0 } }

    /// Ends the stream: waiting readers get `nil`, and so does every later ``next(after:)``.
    package func close() {
        let waiting = state.withLock { state -> [Reader] in
            state.closed = true
            defer { state.readers = [:] }
            return Array(state.readers.values)
        }
        for reader in waiting { reader.resume(returning: nil) }
    }

    /// A reader's registration as a watcher; ``end()`` it when the reader goes (it ends itself
    /// when released).
    package final class Watch: Sendable {
        private let ended = Mutex(false)
        private let onEnd: @Sendable () -> Void

        init(onEnd: @escaping @Sendable () -> Void) {
            self.onEnd = onEnd
        }

        /// Stops counting this reader as a watcher; later calls do nothing.
        package func end() {
            let first = ended.withLock { ended in
                defer { ended = true }
                return !ended
            }
            if first { onEnd() }
        }

        deinit { end() }
    }
}
