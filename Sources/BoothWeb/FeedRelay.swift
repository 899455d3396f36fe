import BoothCore
import Hummingbird
import NIOCore
import ServiceLifecycle
import Synchronization

/// Hands the values of a ``LatestValue`` feed to one client of a live stream, newest only: a
/// client slower than the feed skips values instead of building a backlog. It ends when the
/// client goes, when the feed is closed and when the server shuts down gracefully; a client
/// that accepts nothing for `stallLimit` is disconnected, so a stalled connection does not
/// hold a stream open forever.
struct FeedRelay<Value: Sendable> {
    /// What the relay hands over.
    enum Item {
        /// A new value of the feed.
        case value(Value)
        /// Time for a keep-alive (every `keepAlive`), so idle connections and proxies stay open.
        case keepAlive
    }

    let feed: LatestValue<Value>
    /// The first value handed over is the first one newer than this version: 0 starts with
    /// the latest value, `feed.latest?.version` with the next one.
    var startAfter: UInt64 = 0
    var keepAlive: Duration?
    let stallLimit: Duration

    /// Calls `deliver` with each item until the stream ends. Returns normally when the client
    /// went away, too: there is nobody left to tell.
    func run(for request: Request, on channel: any Channel, deliver: (Item) async throws -> Void) async throws {
        // One pending value is all a stream of pictures needs; a few leave room for keep-alives
        // beside a pending event.
        let (items, continuation) = AsyncStream.makeStream(
            of: Item.self, bufferingPolicy: .bufferingNewest(keepAlive == nil ? 1 : 4))
        let writing = PendingWrite()
        do {
            try await request.body.consumeWithCancellationOnInboundClose { _ in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { [feed, startAfter] in
                        await withGracefulShutdownHandler {
                            var version = startAfter
                            while let next = await feed.next(after: version) {
                                version = next.version
                                continuation.yield(.value(next.value))
                            }
                        } onGracefulShutdown: {
                            continuation.finish()
                        }
                        continuation.finish()
                    }
                    if let keepAlive {
                        group.addTask {
                            while (try? await Task.sleep(for: keepAlive)) != nil {
                                continuation.yield(.keepAlive)
                            }
                        }
                    }
                    group.addTask { [stallLimit] in
                        while (try? await Task.sleep(for: stallLimit / 4)) != nil {
                            if writing.hasStalled(longerThan: stallLimit) {
                                channel.close(promise: nil)
                                return
                            }
                        }
                    }
                    for await item in items {
                        writing.begin()
                        try await deliver(item)
                        writing.end()
                    }
                    group.cancelAll()
                }
            }
        } catch is CancellationError {
            // The client closed the connection.
        }
    }
}

/// When the write in progress began, if one is: a write that does not finish means the
/// client stopped reading.
private final class PendingWrite: Sendable {
    private let started = Mutex<ContinuousClock.Instant?>(nil)

    func begin() { started.withLock { $0 = .now } }
    func end() { started.withLock { $0 = nil } }

    func hasStalled(longerThan limit: Duration) -> Bool {
        started.withLock { started in started.map { ContinuousClock.now - $0 > limit } ?? false }
    }
}
