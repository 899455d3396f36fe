import BoothCore
import Synchronization
import Testing

@Suite("Latest value")
struct LatestValueTests {
    @Test("A reader gets the newest value, never a backlog")
    func newestOnly() async {
        let feed = LatestValue<Int>()
        feed.publish(1)
        feed.publish(2)
        feed.publish(3)
        let first = await feed.next(after: 0)
        #expect(first?.value == 3 && first?.version == 3, "the two older values were skipped")
    }

    @Test("A reader waits for a value newer than the one it saw")
    func waitsForNewer() async {
        let feed = LatestValue<String>()
        feed.publish("a")
        let next = Task { await feed.next(after: 1) }
        // Publish only once the reader waits: it must be woken, not merely find "b".
        while feed.waitingReaders == 0 { await Task.yield() }
        feed.publish("b")
        #expect(await next.value?.value == "b")
    }

    @Test("Closing ends every reader, now and later; a cancelled reader gets nil")
    func closeAndCancel() async {
        let feed = LatestValue<Int>()
        let waiting = Task { await feed.next(after: 0) }
        let cancelled = Task { await feed.next(after: 0) }
        while feed.waitingReaders < 2 { await Task.yield() }
        cancelled.cancel()
        #expect(await cancelled.value == nil)
        #expect(feed.waitingReaders == 1, "the cancelled reader no longer waits")
        feed.close()
        #expect(await waiting.value == nil)
        feed.publish(7)
        #expect(await feed.next(after: 0) == nil, "nothing after the end")
    }

    @Test("Watchers are counted until their token ends, once")
    func watchers() {
        let feed = LatestValue<Int>()
        #expect(!feed.isWatched)
        let first = feed.watch()
        do {
            let second = feed.watch()
            second.end()
            second.end()
        }
        #expect(feed.isWatched, "a second end of the same token does not end another watcher")
        feed.publish(1)
        first.end()
        #expect(!feed.isWatched)
        #expect(feed.latest == nil, "a value nobody watches any more is stale and forgotten")
        _ = feed.watch()
        #expect(!feed.isWatched, "a token released without end() ends itself")
    }

    @Test("A value that stays true with nobody watching is handed to the next watcher at once, until the producer withdraws it")
    func keptUntilWithdrawn() async {
        let arrivals = Atomic(0)
        let feed = LatestValue<Int>(staleness: .whenWithdrawn) { arrivals.add(1, ordering: .relaxed) }
        feed.publish(1)
        let first = feed.watch()
        #expect(arrivals.load(ordering: .relaxed) == 1, "the producer hears of each watcher as it arrives")
        first.end()
        #expect(feed.latest?.value == 1, "the last watcher leaving does not make it stale")
        let second = feed.watch()
        #expect(arrivals.load(ordering: .relaxed) == 2)
        #expect(await feed.next(after: 0)?.value == 1, "the next watcher gets it without waiting")
        second.end()

        feed.withdraw()
        #expect(feed.latest == nil)
        let reader = Task { await feed.next(after: 0) }
        while feed.waitingReaders == 0 { await Task.yield() }
        feed.publish(2)
        #expect(await reader.value?.value == 2 && feed.latest?.version == 2, "a withdrawn value is never handed out again")
    }
}
