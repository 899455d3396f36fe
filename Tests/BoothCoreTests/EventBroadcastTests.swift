import Synchronization
import Testing

@testable import BoothCore

@Suite("Event broadcast")
struct EventBroadcastTests {
    /// What one receiver was handed, and how many values it keeps before it refuses one.
    final class Recorder: Sendable {
        private let state = Mutex((values: [Int](), closed: 0))
        let capacity: Int

        init(capacity: Int = .max) {
            self.capacity = capacity
        }

        var values: [Int] { state.withLock { $0.values } }
        var closings: Int { state.withLock { $0.closed } }

        func receive(_ delivery: EventBroadcast<Int>.Delivery) -> Bool {
            state.withLock { state in
                switch delivery {
                case .value(let value):
                    guard state.values.count < capacity else { return false }
                    state.values.append(value)
                case .closed:
                    state.closed += 1
                }
                return true
            }
        }
    }

    @Test("Every subscriber gets every value published after it subscribed, in order")
    func everyValueInOrder() {
        let broadcast = EventBroadcast<Int>()
        broadcast.publish(0)
        let (early, late) = (Recorder(), Recorder())
        let first = broadcast.subscribe(early.receive)
        for value in 1...50 { broadcast.publish(value) }
        let second = broadcast.subscribe(late.receive)
        for value in 51...100 { broadcast.publish(value) }
        #expect(early.values == Array(1...100))
        #expect(late.values == Array(51...100))
        withExtendedLifetime((first, second)) {}
    }

    @Test("A subscriber that refuses a value is dropped, and the others go on")
    func refusalDrops() {
        let broadcast = EventBroadcast<Int>()
        let (full, reader) = (Recorder(capacity: 3), Recorder())
        let subscriptions = [broadcast.subscribe(full.receive), broadcast.subscribe(reader.receive)]
        for value in 1...3 { broadcast.publish(value) }
        #expect(broadcast.subscriberCount == 2)
        broadcast.publish(4)
        #expect(broadcast.subscriberCount == 1)
        broadcast.publish(5)
        #expect(full.values == [1, 2, 3], "refused 4, and was asked no more")
        #expect(reader.values == [1, 2, 3, 4, 5])
        withExtendedLifetime(subscriptions) {}
    }

    @Test("Closing hands every subscriber the end once; a cancelled or released subscription gets nothing more")
    func closeAndCancel() {
        let broadcast = EventBroadcast<Int>()
        let (kept, cancelled, released) = (Recorder(), Recorder(), Recorder())
        let subscription = broadcast.subscribe(kept.receive)
        broadcast.subscribe(cancelled.receive).cancel()
        _ = broadcast.subscribe(released.receive)
        #expect(broadcast.subscriberCount == 1)
        broadcast.publish(1)
        broadcast.close()
        broadcast.close()
        broadcast.publish(2)
        #expect(kept.values == [1] && kept.closings == 1)
        #expect(cancelled.values.isEmpty && cancelled.closings == 0)
        #expect(released.values.isEmpty && released.closings == 0)
        let afterwards = Recorder()
        _ = broadcast.subscribe(afterwards.receive)
        #expect(afterwards.closings == 1, "a subscription after the end learns it at once")
        withExtendedLifetime(subscription) {}
    }
}
