import BoothCore
import BoothSystem
import Foundation
import Synchronization
import SystemPackage
import Testing

@Suite("Dedicated threads, their wake-up and serial workers")
struct DedicatedThreadTests {
    private struct Failure: Error, Equatable {}

    @Test("The start handshake returns once the thread has started, and the thread goes on")
    func handshakeSucceeds() async throws {
        let opened = Atomic(false)
        let (events, sink) = AsyncStream.makeStream(of: String.self)
        let thread = try await DedicatedThread.run(name: "owner") { () throws(Failure) -> DedicatedThread in
            try DedicatedThread(name: "starting") { (wakeup, started) throws(Failure) in
                opened.store(true, ordering: .releasing)
                started()
                while !wakeup.isStopping { wakeup.wait(until: nil) }
                sink.yield("ended")
            }
        }
        #expect(opened.load(ordering: .acquiring) == true)
        #expect(!thread.hasEnded)
        await thread.stop()
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == "ended")
        #expect(thread.hasEnded)
    }

    @Test("A thread that fails to start throws its error to its owner, once it has ended")
    func handshakeFails() async {
        let bodyEnded = Atomic(false)
        await #expect(throws: Failure()) {
            try await DedicatedThread.run(name: "owner") { () throws(Failure) in
                _ = try DedicatedThread(name: "failing") { (_, _) throws(Failure) in
                    defer { bodyEnded.store(true, ordering: .releasing) }
                    throw Failure()
                }
            }
        }
        #expect(bodyEnded.load(ordering: .acquiring) == true)
    }

    @Test("A body that returns without saying so has started")
    func handshakeByReturning() async {
        let thread = await DedicatedThread.run(name: "owner") {
            DedicatedThread(name: "quick") { (_, _) throws(Never) in }
        }
        await thread.stop()
        #expect(thread.hasEnded)
    }

    @Test("Each wake-up wakes the thread's wait")
    func wakesUp() async {
        let (wakes, sink) = AsyncStream.makeStream(of: Int.self)
        let thread = DedicatedThread(name: "woken") { wakeup in
            var count = 0
            while true {
                wakeup.wait(until: nil)
                if wakeup.isStopping { break }
                count += 1
                sink.yield(count)
            }
        }
        var iterator = wakes.makeAsyncIterator()
        thread.wake()
        #expect(await iterator.next() == 1)
        thread.wake()
        #expect(await iterator.next() == 2)
        await thread.stop()
        #expect(thread.hasEnded)
    }

    @Test("stop() returns after the thread's loop has ended, and again at once")
    func stopWaitsForTheEnd() async {
        let finished = Atomic(false)
        let thread = DedicatedThread(name: "stopped") { wakeup in
            while !wakeup.isStopping { wakeup.wait(until: nil) }
            finished.store(true, ordering: .releasing)
        }
        await thread.stop()
        #expect(finished.load(ordering: .acquiring) == true)
        #expect(thread.hasEnded)
        await thread.stop()
    }

    @Test("stopWaiting() blocks until the thread has ended")
    func stopWaitingBlocks() async {
        let finished = Atomic(false)
        let thread = DedicatedThread(name: "stopped") { wakeup in
            while !wakeup.isStopping { wakeup.wait(until: nil) }
            finished.store(true, ordering: .releasing)
        }
        await DedicatedThread.run(name: "stopper") { thread.stopWaiting() }
        #expect(finished.load(ordering: .acquiring) == true)
    }

    @Test("A background thread runs at the background priority")
    func backgroundPriority() async {
        let normal = await DedicatedThread.run(name: "normal") { getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) }
        let background = await DedicatedThread.run(name: "background", priority: .background) {
            getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        }
        #expect(background == normal + BackgroundPriority.niceness || background == 19)
    }

    @Test("A thread carries its name where ps and gdb read it, cut to 15 bytes and whole characters")
    func kernelName() async throws {
        func kernelName(of name: String) async throws -> String {
            try await DedicatedThread.run(name: name) { () throws -> String in
                try String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)
            }
        }
        #expect(try await kernelName(of: "photo writer") == "photo writer\n")
        #expect(try await kernelName(of: "terminal input reader") == "terminal input \n")
        #expect(try await kernelName(of: "abcdefghijklmné") == "abcdefghijklmn\n")
        #expect(try await kernelName(of: "caméra caméra") == "caméra caméra\n")
    }

    @Test("run() returns what the work returns and throws what it throws")
    func runsOnce() async {
        #expect(await DedicatedThread.run(name: "one call") { 6 * 7 } == 42)
        await #expect(throws: Failure()) {
            try await DedicatedThread.run(name: "one call") { () throws(Failure) in throw Failure() }
        }
    }

    @Test("A wait returns at once after a stop was asked for, however often")
    func stopIsForGood() {
        let wakeup = Wakeup()
        wakeup.requestStop()
        #expect(wakeup.isStopping)
        #expect(wakeup.wait(until: nil))
        #expect(wakeup.wait(until: nil))
    }

    @Test("A wait for a descriptor says what ended it")
    func waitsForADescriptor() throws {
        let (readEnd, writeEnd) = try FileDescriptor.pipe()
        defer {
            try? readEnd.close()
            try? writeEnd.close()
        }
        let wakeup = Wakeup()
        let clock = MonotonicClock()
        #expect(try wakeup.wait(for: readEnd, until: clock.now) == .timedOut)
        wakeup.signal()
        #expect(try wakeup.wait(for: readEnd, until: nil) == .woken)
        // A signal is taken by the wait it ended.
        #expect(try wakeup.wait(for: readEnd, until: clock.now) == .timedOut)
        try writeEnd.writeAll([1, 2, 3])
        #expect(try wakeup.wait(for: readEnd, until: nil) == .ready(hangUp: false))
        try writeEnd.close()
        #expect(try wakeup.wait(for: readEnd, until: nil) == .ready(hangUp: true))
    }

    @Test("A serial worker runs its jobs in order, and drain() waits for every earlier one")
    func drainWaitsForEarlierJobs() async {
        let worker = SerialWorker(name: "ordered")
        let gate = Wakeup()
        let done = Mutex<[Int]>([])
        // The first job holds the others back until every one is submitted.
        worker.submit { gate.wait(until: nil) }
        for index in 1...100 { worker.submit { done.withLock { $0.append(index) } } }
        #expect(done.withLock { $0 }.isEmpty)
        gate.signal()
        await worker.drain()
        #expect(done.withLock { $0 } == Array(1...100))
    }

    @Test("A serial worker's perform() returns the job's result after the earlier jobs")
    func performs() async {
        let worker = SerialWorker(name: "performing")
        let done = Mutex<[Int]>([])
        worker.submit { done.withLock { $0.append(1) } }
        let seen = await worker.perform { done.withLock { $0 } }
        #expect(seen == [1])
        await #expect(throws: Failure()) {
            try await worker.perform { () throws(Failure) in throw Failure() }
        }
    }
}
