import BoothCore
import BoothSystem
import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// The threads the web gallery runs on, all at a lower CPU priority than the booth's own: one
/// event loop for the sockets, an executor for the request handlers, and a small pool for
/// catalog reads and files.
///
/// The booth's capture path (the camera, the state machine, the photo writer, the screen) must
/// not wait for the web: with a crowd of phones reloading the gallery, a shot is taken and saved
/// as fast as on an idle booth. Without this, request handlers would run on Swift's cooperative
/// pool, which has one thread per core and is where the booth's own tasks run: a burst of
/// requests would queue the booth's work behind them. On their own threads at
/// ``BackgroundPriority``, the web gets a core only when the booth does not need it.
enum WebThreads {
    static let eventLoops: MultiThreadedEventLoopGroup = {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        for loop in group.makeIterator() { loop.execute { BackgroundPriority.lowerCallingThread() } }
        return group
    }()

    /// Where the request handlers run (``GalleryServer`` prefers it for all its tasks).
    static let handlers = ThreadExecutor(name: "web handler", threads: 2)

    /// For blocking calls: GRDB reads, file reads. The pool is the web's alone, so its threads
    /// may keep a lowered priority: catalog jobs lower it (see ``PhotoLibrary/offloaded(_:)``,
    /// an idempotent system call), and file reads run on the same two threads after them.
    static let blocking: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 2)
        pool.start()
        return pool
    }()
}

/// A task executor of its own threads, at the web's priority: jobs run in the order they come,
/// each on whichever thread is free.
final class ThreadExecutor: TaskExecutor, Sendable {
    private let jobs = Mutex<[UnownedJob]>([])
    private let available = DispatchSemaphore(value: 0)

    init(name: String, threads: Int) {
        for index in 0..<threads {
            let thread = Thread { [self] in
                BackgroundPriority.lowerCallingThread()
                work()
            }
            thread.name = "\(name) \(index + 1)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        available.signal()
    }

    /// A worker's loop; the threads live as long as the process (the executor is a static).
    private func work() -> Never {
        while true {
            available.wait()
            guard let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
