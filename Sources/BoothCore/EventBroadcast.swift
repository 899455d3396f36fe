import Synchronization

/// Every value of a stream of events, in order, to each of any number of subscribers: for events
/// that no reader may miss (a photo was saved), where ``LatestValue`` hands over the newest only.
///
/// The producer ``publish(_:)``es without waiting. Each subscriber's receiver is called with
/// every value published after it subscribed, in the order published, and once with
/// ``Delivery/closed`` when the broadcast is closed; it keeps the value for its reader (in a
/// buffer of its own, which it bounds) and returns at once. A receiver that cannot keep a value,
/// its reader being too far behind, returns `false`: it is unsubscribed there and then, and
/// tells its reader that it missed events (the web closes the client's connection). So no
/// reader ever skips an event without knowing, and a slow one costs memory only up to its bound.
package final class EventBroadcast<Value: Sendable>: Sendable {
    /// What a receiver is handed.
    package enum Delivery: Sendable {
        /// The next value.
        case value(Value)
        /// The broadcast is closed: nothing comes after.
        case closed
    }

    /// Keeps a delivery for its reader and returns at once; `false` when it cannot keep a value
    /// (it is then unsubscribed). It must not publish, subscribe or cancel on the same
    /// broadcast.
    package typealias Receiver = @Sendable (Delivery) -> Bool

    private struct State {
        /// In the order they subscribed.
        var receivers: [(id: Int, receive: Receiver)] = []
        var nextID = 0
        var closed = false
    }

    private let state = Mutex(State())
    /// Held while a value is handed out, so that every receiver sees the values of concurrent
    /// publishers in the same order; receivers are called without ``state`` held, so that a
    /// subscription can come or go meanwhile.
    private let handingOut = Mutex(())

    package init() {}

    /// Hands `value` to every subscriber; one that cannot keep it is unsubscribed.
    package func publish(_ value: Value) {
        handingOut.withLock { _ in
            let receivers = state.withLock { $0.closed ? [] : $0.receivers }
            let refused = Set(receivers.filter { !$0.receive(.value(value)) }.map(\.id))
            guard !refused.isEmpty else { return }
            state.withLock { $0.receivers.removeAll { refused.contains($0.id) } }
        }
    }

    /// Subscribes `receive` to the values published from now on. A subscription made after
    /// ``close()`` is handed ``Delivery/closed`` at once.
    package func subscribe(_ receive: @escaping Receiver) -> Subscription {
        let id = state.withLock { state -> Int? in
            guard !state.closed else { return nil }
            defer { state.nextID += 1 }
            state.receivers.append((state.nextID, receive))
            return state.nextID
        }
        guard let id else {
            _ = receive(.closed)
            return Subscription {}
        }
        return Subscription { [self] in
            state.withLock { $0.receivers.removeAll { $0.id == id } }
        }
    }

    /// Ends the broadcast: every subscriber is handed ``Delivery/closed``, and later values are
    /// dropped.
    package func close() {
        handingOut.withLock { _ in
            let receivers = state.withLock { state in
                defer {
                    state.closed = true
                    state.receivers = []
                }
                return state.closed ? [] : state.receivers
            }
            for receiver in receivers { _ = receiver.receive(.closed) }
        }
    }

    /// How many subscribers there are now (for tests that must publish only once a reader
    /// listens, or see that one was dropped).
    package var subscriberCount: Int { state.withLock { $0.receivers.count } }

    /// A subscriber's registration; ``cancel()`` it when its reader goes (it cancels itself
    /// when released).
    package final class Subscription: Sendable {
        private let onCancel: Mutex<(@Sendable () -> Void)?>

        init(onCancel: @escaping @Sendable () -> Void) {
            self.onCancel = Mutex(onCancel)
        }

        /// Stops handing values to the receiver; later calls do nothing.
        package func cancel() {
            onCancel.withLock { action in
                defer { action = nil }
                return action
            }?()
        }

        deinit { cancel() }
    }
}
