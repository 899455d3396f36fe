import BoothCore
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
}
