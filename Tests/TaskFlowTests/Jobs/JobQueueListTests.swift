import Testing
@testable import TaskFlow
import TaskFlowTestSupport

/// A program's queues as a watcher sees and steers them (`JobQueueList`), and `JobQueue`'s
/// by-id cancel the watcher's keys use.
@Suite struct JobQueueListTests {
    @Test func cancelByIDStopsAWaitingJobAndOnlyThatOne() async throws {
        let queue = JobQueue(title: "uploads", maxConcurrent: 1)
        let gate = Gate()
        let started = Recorder<String>()
        let first = queue.add(gatedJob("first", started, gate: gate))
        let second = queue.add(gatedJob("second", started, gate: gate))
        #expect(await eventually { started.all == ["first"] })
        #expect(queue.cancel(second.id))
        gate.open()
        #expect(try await first.value == "first")
        await #expect(throws: CancellationError.self) { try await second.value }
        #expect(started.all == ["first"], "the cancelled job never ran")
        #expect(!queue.cancel(second.id), "an ended job is no longer the queue's")
    }

    @Test func theListDescribesMergesAndSteersEveryQueue() async throws {
        let uploads = JobQueue(title: "uploads", maxConcurrent: 2)
        let mail = JobQueue.blocking(title: "mail", threads: 1)
        let list = JobQueueList([uploads, mail])
        #expect(list.queues == [
            QueueDescription(title: "uploads", maxConcurrent: 2), QueueDescription(title: "mail", maxConcurrent: 1, isBlocking: true),
        ])
        let log = StreamLog(list.events())
        list.setPaused(true, queue: "mail")
        #expect(mail.isPaused && !uploads.isPaused)
        let gate = Gate()
        gate.open()
        let started = Recorder<String>()
        let upload = uploads.add(gatedJob("upload", started, gate: gate))
        let send = mail.add(gatedJob("send", started, gate: gate))
        #expect(try await upload.value == "upload")
        list.cancel(send.id)
        await #expect(throws: CancellationError.self) { try await send.value }
        #expect(list.jobsAdded == 2)
        #expect(await eventually {
            log.events.contains { if case .paused("mail", true) = $0 { true } else { false } }
                && log.events.contains { if case .finished(upload.id, .succeeded) = $0 { true } else { false } }
                && log.events.contains { if case .finished(send.id, .cancelled) = $0 { true } else { false } }
        })
        #expect(throws: JobQueueList.RetryRefusal.self) { try list.retry(send.id) }
    }
}

/// A list watched after its queues ran jobs: the unfinished ones are told as the events the
/// watcher missed, and only they and later jobs are counted as to be heard ending.
@Suite struct LateJobQueueListTests {
    @Test func theUnfinishedJobsAreToldAndTheEndedOnesNotAwaited() async throws {
        let queue = JobQueue(title: "uploads", maxConcurrent: 1)
        let (done, held) = (Gate(), Gate())
        done.open()
        let started = Recorder<String>()
        _ = try await queue.add(gatedJob("ended", started, gate: done)).value
        let running = queue.add(gatedJob("running", started, gate: held))
        let waiting = queue.add(gatedJob("waiting", started, gate: held))
        #expect(await eventually { started.all == ["ended", "running"] })
        let list = JobQueueList([queue])
        let log = StreamLog(list.events())
        #expect(list.jobsAdded == 2, "the ended job is not waited for")
        #expect(await eventually { log.events.count >= 3 })
        let told = log.events.prefix(3).map { event -> String in
            switch event {
            case .added(let info): "added \(info.title)"
            case .started(let id, let attempt): "started \(id == running.id ? "running" : "?") \(attempt)"
            default: "\(event)"
            }
        }
        #expect(told == ["added running", "started running 1", "added waiting"])
        held.open()
        _ = try await (running.value, waiting.value)
        #expect(await eventually {
            log.events.filter { if case .finished = $0 { true } else { false } }.count == 2
        })
        let added = log.events.filter { if case .added = $0 { true } else { false } }
        #expect(added.count == 2, "each job told once")
    }
}
