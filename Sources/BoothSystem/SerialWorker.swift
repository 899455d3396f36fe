import Synchronization

/// Jobs that run one at a time, in the order they were submitted, on a ``DedicatedThread`` of
/// their own: the booth's one way to do blocking work in order (save photos, fill screens from
/// the catalog, print to a terminal, sync), off Swift's cooperative pool.
///
/// ``submit(_:)`` returns at once; ``drain()`` returns once every job submitted before it has
/// run. A worker that goes away runs the jobs it has, then its thread ends; since a job keeps
/// what it captures alive, an owner whose jobs capture it lives until they have run.
package final class SerialWorker: Sendable {
    private let jobs: JobQueue
    private let thread: DedicatedThread

    /// A worker whose thread is named `name`.
    package init(name: String, priority: DedicatedThread.Priority = .normal) {
        let jobs = JobQueue()
        self.jobs = jobs
        // The thread holds the queue, not the worker, so that the worker can go away.
        thread = DedicatedThread(name: name, priority: priority) { wakeup in
            while true {
                let batch = jobs.takeAll()
                guard batch.isEmpty else {
                    for job in batch { job() }
                    continue
                }
                if wakeup.isStopping { return }
                wakeup.wait(until: nil)
            }
        }
    }

    deinit {
        thread.requestStop()
    }

    /// Runs `job` after every job submitted before it; returns at once.
    package func submit(_ job: @escaping @Sendable () -> Void) {
        // The thread takes every job it finds before it sleeps: it needs waking only when it
        // found none.
        if jobs.append(job) { thread.wake() }
    }

    /// Returns once every job submitted before has run.
    package func drain() async {
        await withCheckedContinuation { continuation in submit { continuation.resume() } }
    }

    /// Runs `job` after every job submitted before it and returns what it returns (or throws
    /// what it throws).
    package func perform<Value: Sendable, Failure: Error>(_ job: @escaping @Sendable () throws(Failure) -> Value) async throws(Failure)
        -> Value
    {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, Failure>, Never>) in
            submit { continuation.resume(returning: Result { () throws(Failure) -> Value in try job() }) }
        }
        return try result.get()
    }
}

/// The jobs a ``SerialWorker`` has not started yet.
private final class JobQueue: Sendable {
    private let jobs = Mutex<[@Sendable () -> Void]>([])

    /// Adds `job`; returns whether the queue was empty.
    func append(_ job: @escaping @Sendable () -> Void) -> Bool {
        jobs.withLock { jobs in
            jobs.append(job)
            return jobs.count == 1
        }
    }

    func takeAll() -> [@Sendable () -> Void] {
        jobs.withLock { jobs in
            defer { jobs = [] }
            return jobs
        }
    }
}
