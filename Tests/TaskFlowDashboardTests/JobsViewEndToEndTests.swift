import Foundation
import Testing
import TaskFlowStore
import TaskFlowTestSupport

/// The jobs view on a real job store file, in a real terminal: what another process put in the
/// store shows, and the keys change the store.
@Suite(
    "End to end: the jobs view in tmux", .serialized, .timeLimit(.minutes(2)),
    .enabled(if: Tmux.isInstalled, "tmux is not installed: the end-to-end tests need it (apt-get install tmux)"))
struct JobsViewEndToEndTests {
    @Test func tabShowsTheStoreAndTheKeysRetryAndCancelItsJobs() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "taskflow-jobs-view-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appending(path: "jobs.sqlite").path
        let store = try JobStore(path: path)
        let log = StreamLog(store.changes)
        store.register(JobsCommandTests.Doomed.self, retry: .never) { _, _ in .fail(Boom("mailbox full")) }
        try await store.submit(JobsCommandTests.Doomed(number: 1))
        try await store.start(workers: 1)
        #expect(await eventually { log.events.contains { if case .failed = $0 { true } else { false } } })
        await store.stop()
        try await store.submit(kind: "send-email", json: Data(#"{"to":"ann@example.com","token":"t0k"}"#.utf8))
        // Another process's workers on the file (this test process, with no executor for these kinds).
        let workers = try JobStore(path: path)
        try await workers.start(workers: 2)

        let tmux = try Tmux("jobs-view", arguments: "demo built-in --store '\(path)'")
        defer { tmux.close() }
        try await tmux.waitFor("the flows") { $0.contains("Flows — Tab: stored jobs") }
        try tmux.send("Tab")
        try await tmux.waitFor("the failed job, the pending one and the worker process") { screen in
            screen.contains("#1     doomed            failed    0       Boom(mailbox full)")
                && screen.contains("#2     send-email        pending   0")
                && screen.contains("Worker processes (1)") && screen.contains(" \(getpid())".padding(toLength: 9, withPad: " ", startingAt: 0) + "0/2")
        }
        try tmux.send("r")
        try await tmux.waitFor("the failed job queued again") { $0.contains("#1     doomed            pending   0") }
        try tmux.send("End")
        let detail = try await tmux.waitFor("the e-mail job's detail") { $0.contains("Job #2 — pending") }
        #expect(detail.contains(#"payload    {"to":"ann@example.com","token":"‹redacted›"}"#))
        try tmux.send("c")
        try await tmux.waitFor("the question") { $0.contains("Cancel job 2 (send-email)? It is removed from the store.") }
        try tmux.send("y")
        // The job's row gone, and the notice; the log's line about it says "send-email" too.
        try await tmux.waitFor("the e-mail job removed") { !$0.contains("#2     send-email") && $0.contains("job 2 cancelled") }
        #expect(try await store.jobs().map(\.kind) == ["doomed"], "the keys changed the file itself")
        await workers.stop()
        try await tmux.waitFor("the worker process gone") { $0.contains("no process runs workers on this store") }
        try tmux.send("q", "q")
        try await tmux.expectExit(status: 0)
    }

    @Test func aFilterThenCapitalRRetriesEveryFailedMatchAfterSayingHowMany() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "taskflow-jobs-bulk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appending(path: "jobs.sqlite").path
        let store = try JobStore(path: path)
        let log = StreamLog(store.changes)
        store.register(JobsCommandTests.Doomed.self, retry: .never) { _, _ in .fail(Boom("mailbox full")) }
        for number in 1...3 { try await store.submit(JobsCommandTests.Doomed(number: number)) }
        try await store.start(workers: 1)
        #expect(await eventually { log.events.filter { if case .failed = $0 { true } else { false } }.count == 3 })
        await store.stop()
        try await store.submit(kind: "send-email", json: Data(#"{"to":"ann@example.com"}"#.utf8))
        // One quick flow, then nothing: the event log keeps the retry's line in view. The
        // built-in demo's events, on the wall clock, once pushed it out before a capture.
        let scenario = try Tmux.oneFlowScenario(title: "Warm up", step: "Stretch", duration: "10ms")
        defer { try? FileManager.default.removeItem(at: scenario) }

        let tmux = try Tmux("jobs-bulk", arguments: "run '\(scenario.path)' --store '\(path)'")
        defer { tmux.close() }
        try await tmux.waitFor("the flows") { $0.contains("Flows — Tab: stored jobs") }
        try tmux.send("Tab")
        try await tmux.waitFor("three failed jobs and a pending one") { $0.contains("failed 3") && $0.contains("send-email") }
        try tmux.send("/")
        try tmux.send("-l", "state:failed kind:doom")
        try tmux.send("Enter")
        try await tmux.waitFor("the filter's matches counted in the panel") { screen in
            screen.contains("3 of 4 — filter \"state:failed kind:doom\"") && !screen.contains("send-email        pending")
        }
        try tmux.send("R")
        try await tmux.waitFor("the question with the count") {
            $0.contains("Retry 3 jobs matching \"state:failed kind:doom\"? They are queued again now.")
        }
        try tmux.send("y")
        try await tmux.waitFor("all three queued again, said in the log") { screen in
            screen.contains("retry 3 jobs matching \"state:failed kind:doom\"") && screen.contains("0 of 4 — filter")
        }
        #expect(try await store.jobs().map(\.state) == [.pending, .pending, .pending, .pending], "the file itself changed")
        try tmux.send("q", "q")
        try await tmux.expectExit(status: 0)
    }

    @Test func aMissingStoreIsRefusedBeforeTheScreen() async throws {
        let result = try await TaskflowProcess.run(["demo", "built-in", "--headless", "--store", "/nonexistent/jobs.sqlite"])
        #expect(result.status == 2)
        #expect(result.standardError == "taskflow: no job store at /nonexistent/jobs.sqlite; create one with 'taskflow jobs submit' or your program\ntaskflow: start-up failed at \"Open job store\"\n")
    }
}

/// `taskflow demo jobs` in a real terminal: the queues view follows the scenario's queues, and
/// its keys pause a queue and run a failed job again with the jobs it skipped.
@Suite(
    "End to end: the job queues view in tmux", .serialized, .timeLimit(.minutes(2)),
    .enabled(if: Tmux.isInstalled, "tmux is not installed: the end-to-end tests need it (apt-get install tmux)"))
struct QueuesViewEndToEndTests {
    @Test func tabShowsTheQueuesAndTheKeysPauseAQueueAndRetryAFailedJob() async throws {
        let tmux = try Tmux("queues-view", arguments: "demo jobs --speed 4")
        defer { tmux.close() }
        try await tmux.waitFor("the flows, with the queues one Tab away") { $0.contains("Flows — Tab: job queues") }
        try tmux.send("Tab")
        try await tmux.waitFor("the licence failed and the jobs after it skipped") { screen in
            screen.contains("Job queues — succeeded 13 — failed 3 — ")
                && screen.contains("'Fetch licence' failed on purpose at 50%")
        }
        try tmux.send("P")
        try await tmux.waitFor("the downloads paused") { $0.contains("Downloads  0/2 running · 0 waiting · limit 2 · paused (P resumes)") }
        try tmux.send("P")
        try await tmux.waitFor("the downloads resumed") { $0.contains("queue \"Downloads\" resumed") }
        // Down the list to the failed licence, whatever order the finished jobs ended in.
        // One key at a time: the next `j` only once the detail pane follows the last one.
        let detailTitle: @Sendable (String) -> Substring? = { screen in screen.split(separator: "\n").first { $0.contains("┌─ Job #") || $0.contains("┌─ Queue ") } }
        for _ in 0..<12 {
            let before = tmux.capture()
            guard !before.contains("title      Fetch licence") else { break }
            try tmux.send("j")
            try await tmux.waitFor("the cursor one line down") { detailTitle($0) != detailTitle(before) }
        }
        try tmux.send("r")
        // 13 of the 16 jobs succeeded at first; the licence and the two jobs it skipped now too.
        try await tmux.waitFor("the licence and the jobs it skipped succeeded on the retry") {
            $0.contains("Job queues — succeeded 16 — failed 3 — ")
        }
        try tmux.send("q")
        try await tmux.expectExit(status: 0)
    }
}

/// `taskflow demo outbox` in a real terminal: e-mails on a durable store, a server that fails
/// now and then, a mailbox that does not exist, and the network switched with `n`.
@Suite(
    "End to end: the outbox demo in tmux", .serialized, .timeLimit(.minutes(2)),
    .enabled(if: Tmux.isInstalled, "tmux is not installed: the end-to-end tests need it (apt-get install tmux)"))
struct OutboxDemoEndToEndTests {
    @Test func emailsRetryParkWhileTheNetworkIsDownAndTheDeadMailboxFailsForGood() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "taskflow-outbox-\(UUID().uuidString)")
        let path = folder.appending(path: "outbox.sqlite").path
        // The natural pace: batches keep coming for 36 s, so e-mails are still unsent to park when
        // the network goes down, however late a loaded machine sees the dead mailbox fail (at
        // speed 4 they ended after 9 s, and once nothing was left to park).
        let tmux = try Tmux("outbox", arguments: "demo outbox --speed 1 --store '\(path)'")
        defer { tmux.close() }
        try await tmux.waitFor("the dead mailbox failed for good", thenSend: ["n"]) {
            $0.contains("failed    0       550 no such mailbox: nobody@nowhere.example")
        }
        try await tmux.waitFor("e-mails parked while the network is down") { screen in
            screen.contains("network down (n)") && screen.contains("parked    0       waiting for conditions")
        }
        try tmux.send("n")
        try await tmux.waitFor("the parked e-mails sent once it is back") { screen in
            screen.contains("network up (n)") && !screen.contains(" parked    ")
        }
        try tmux.send("q")
        try await tmux.expectExit(status: 0)
        let store = try JobStore(path: path)
        let left = try await store.jobs()
        #expect(left.contains { $0.state == .failed && $0.lastError == "550 no such mailbox: nobody@nowhere.example" })
        #expect(!left.contains { $0.state == .running }, "the quit let the workers finish: nothing left claimed")
        let payload = try #require(left.first.map { String(decoding: $0.payload, as: UTF8.self) })
        let shown = try await TaskflowProcess.run(["jobs", "show", "\(left[0].id)", "--store", path])
        #expect(payload.contains("hunter2") && !shown.standardOutput.contains("hunter2") && shown.standardOutput.contains("‹redacted›"))
    }
}
