import Dispatch

/// The task executor of ``JobQueue/main``: runs a job task's partial tasks on the main queue,
/// isolated to the main actor, so a job body starts on the main thread and stays there across
/// its awaits, in turn with every other piece of main-actor work.
///
/// Swift runs a non-isolated async body on the cooperative pool even when the task was started
/// from the main actor; a task executor preference is the way to keep such a body on the main
/// thread without requiring callers to write `@MainActor` closures.
final class MainQueueExecutor: TaskExecutor {
    static let shared = MainQueueExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        DispatchQueue.main.async {
            job.runSynchronously(isolatedTo: MainActor.sharedUnownedExecutor, taskExecutor: self.asUnownedTaskExecutor())
        }
    }
}
