import DequeModule
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TaskFlowSupport

/// A task executor with OS threads of its own, for ``JobQueue/blocking(title:threads:logger:)``: a job
/// task that prefers it runs its non-isolated code on these threads, so a blocking call there
/// holds one of them and never a thread of the cooperative pool.
///
/// Threads take partial tasks from one FIFO. Each thread keeps the executor alive while it
/// runs, so a task can never run on an executor that is gone; ``shutdown()`` (the queue's
/// deinit) lets them finish what is queued and exit, which releases it.
final class ThreadPoolExecutor: TaskExecutor {
    private let work = WorkList()
    private let threadCount: Int

    init(threads: Int) {
        threadCount = threads
        for _ in 0..<threads {
            startThread { [self] in
                while let job = work.next() {
                    job.runSynchronously(on: asUnownedTaskExecutor())
                }
            }
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        work.push(UnownedJob(job))
    }

    /// Lets every thread exit once the queued work is done.
    func shutdown() {
        work.stop(threads: threadCount)
    }
}

/// The FIFO of partial tasks the threads share. A semaphore counts wake-ups: one per task
/// pushed and one per thread at shutdown, so a thread that wakes to an empty list knows it
/// may exit.
private final class WorkList: Sendable {
    private let jobs = Protected(Deque<UnownedJob>())
    private let available = DispatchSemaphore(value: 0)

    func push(_ job: UnownedJob) {
        jobs.withLock { $0.append(job) }
        available.signal()
    }

    /// The next task, waiting for one; nil once stopped and drained.
    func next() -> UnownedJob? {
        available.wait()
        return jobs.withLock { $0.popFirst() }
    }

    func stop(threads: Int) {
        for _ in 0..<threads { available.signal() }
    }
}

/// Starts a detached OS thread running `body`.
private func startThread(_ body: @escaping @Sendable () -> Void) {
    final class Start: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let context = Unmanaged.passRetained(Start(body)).toOpaque()
    #if canImport(Glibc)
    var thread = pthread_t()
    #else
    var thread: pthread_t?
    #endif
    let result = pthread_create(&thread, nil, { context in
        // `pthread_create` hands back the pointer it was given: the retained `Start` above,
        // never nil. Taking the retained value balances `passRetained`.
        #if canImport(Glibc)
        let start = Unmanaged<Start>.fromOpaque(context!).takeRetainedValue()
        #else
        let start = Unmanaged<Start>.fromOpaque(context).takeRetainedValue()
        #endif
        start.body()
        return nil
    }, context)
    precondition(result == 0, "JobQueue.blocking: could not start a thread (pthread_create error \(result))")
    #if canImport(Glibc)
    pthread_detach(thread)
    #else
    if let thread { pthread_detach(thread) }
    #endif
}
