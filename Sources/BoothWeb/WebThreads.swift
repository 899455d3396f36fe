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
/// each on whichever thread is free. Unlike a ``SerialWorker``, two jobs may run at once: a
/// slow handler does not hold the others back.
final class ThreadExecutor: TaskExecutor, Sendable {
    private let jobs = Mutex<[UnownedJob]>([])
    /// Shared by the threads: a new job wakes them all, and one of them takes it.
    private let wakeup = Wakeup()

    init(name: String, threads: Int) {
        for index in 0..<threads {
            // The threads live as long as the process (the executor is a static).
            _ = DedicatedThread(name: "\(name) \(index + 1)", priority: .background, wakeup: wakeup) { [self] wakeup in
                while !wakeup.isStopping {
                    if let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
                        job.runSynchronously(on: asUnownedTaskExecutor())
                    } else {
                        wakeup.wait(until: nil)
                    }
                }
            }
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        wakeup.signal()
    }
}
