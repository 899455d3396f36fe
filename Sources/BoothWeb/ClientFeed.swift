import BoothCore
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// Hands a feed's values to one client of a live stream, in one of two ways (``Source``): the
/// newest only, for pictures, where a client slower than the feed skips values instead of
/// building a backlog; or every value in order, for events, where a client that falls too far
/// behind is disconnected rather than skipped.
///
/// It ends when the client goes, when the feed is closed and when the server shuts down
/// gracefully. A client that takes nothing is the connection's to close (its stall limit,
/// ``ConnectionRules``): the write in progress then fails, and the stream ends.
struct ClientFeed<Value: Sendable> {
    /// Where the values come from, and how a slow client gets them.
    enum Source {
        /// The newest value of a ``LatestValue``, starting with the first one newer than
        /// `startAfter`: 0 starts with the latest value, `feed.latest?.version` with the next one.
        case newest(LatestValue<Value>, startAfter: UInt64 = 0)
        /// Every value of an ``EventBroadcast`` published after the stream opened, in order.
        /// At most `backlog` of them wait for the client; one more and the client is disconnected
        /// (a log line says so), and it has to load anew what it missed.
        case every(EventBroadcast<Value>, backlog: Int)
    }

    /// What the relay hands over.
    enum Item {
        /// The stream is open: what follows is new. Always the first item, and only once.
        case opened
        /// A new value of the feed.
        case value(Value)
        /// Time for a keep-alive (every `keepAlive`), so idle connections and proxies stay open.
        case keepAlive
    }

    let source: Source
    var keepAlive: Duration?
    /// What the stream is, in log lines ("the event stream").
    var name = "the stream"
    var logger: Logger

    /// Calls `deliver` with each item until the stream ends. Returns normally when the client
    /// went away, too: there is nobody left to tell.
    func run(for request: Request, on channel: any Channel, deliver: (Item) async throws -> Void) async throws {
        let (items, continuation) = AsyncStream.makeStream(of: Item.self, bufferingPolicy: bufferingPolicy)
        let backlog = Backlog()
        // Before the opening is delivered: what is published from then on is the client's.
        let subscription = subscribe(continuation, backlog: backlog, channel: channel)
        defer { subscription?.cancel() }
        do {
            try await request.body.consumeWithCancellationOnInboundClose { _ in
                try await deliver(.opened)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { [source] in
                        switch source {
                        case .newest(let feed, let startAfter):
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
                        case .every:
                            // The subscription hands over the values; the stream ends at shutdown.
                            if (try? await gracefulShutdown()) != nil { continuation.finish() }
                        }
                    }
                    if let keepAlive {
                        group.addTask {
                            while (try? await Task.sleep(for: keepAlive)) != nil {
                                continuation.yield(.keepAlive)
                            }
                        }
                    }
                    for await item in items {
                        if case .value = item, subscription != nil { backlog.take() }
                        try await deliver(item)
                    }
                    group.cancelAll()
                }
            }
        } catch is CancellationError {
            // The client closed the connection.
        } catch  where backlog.overflowed {
            // The connection was closed under the write in progress.
        }
        if backlog.overflowed, case .every(_, let limit) = source {
            logger.warning(
                """
                Disconnected a client of \(name) (\(channel.remoteAddress.map { "\($0)" } ?? "address unknown")) that fell \
                \(limit) events behind; its browser reconnects and loads what it missed.
                """)
        }
    }

    /// For a ``LatestValue``, the newest only: one pending value is all a stream of pictures
    /// needs; a few leave room for keep-alives beside a pending event. For an
    /// ``EventBroadcast``, every value: its receiver bounds how many wait (``Backlog``), and
    /// keep-alives, one per interval at most, come between them.
    private var bufferingPolicy: AsyncStream<Item>.Continuation.BufferingPolicy {
        switch source {
        case .newest: .bufferingNewest(keepAlive == nil ? 1 : 4)
        case .every: .unbounded
        }
    }

    /// Subscribes to an ``EventBroadcast``: each value joins the items while fewer than its
    /// backlog wait; the one too many ends the items and closes the connection, which fails
    /// the write in progress.
    private func subscribe(
        _ continuation: AsyncStream<Item>.Continuation, backlog: Backlog, channel: any Channel
    ) -> EventBroadcast<Value>.Subscription? {
        guard case .every(let broadcast, let limit) = source else { return nil }
        return broadcast.subscribe { delivery in
            switch delivery {
            case .value(let value):
                guard backlog.add(limit: limit) else {
                    continuation.finish()
                    channel.close(promise: nil)
                    return false
                }
                continuation.yield(.value(value))
                return true
            case .closed:
                continuation.finish()
                return true
            }
        }
    }
}

/// The values of an event stream that wait for the client, and whether one did not fit.
private final class Backlog: Sendable {
    private let state = Mutex((waiting: 0, overflowed: false))

    /// Counts one more value waiting; `false`, and overflowed from then on, when `limit` wait
    /// already.
    func add(limit: Int) -> Bool {
        state.withLock { state in
            guard state.waiting < limit else {
                state.overflowed = true
                return false
            }
            state.waiting += 1
            return true
        }
    }

    /// One value left the backlog for the client.
    func take() {
        state.withLock { $0.waiting -= 1 }
    }

    var overflowed: Bool { state.withLock { $0.overflowed } }
}
