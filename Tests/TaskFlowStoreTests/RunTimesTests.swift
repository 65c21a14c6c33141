import Foundation
import Testing
import TaskFlow
import TaskFlowStore
import TaskFlowTestSupport

/// `runs()`, what the dashboard's per-kind statistics are made of: one run per execution by
/// this process's workers, whatever the executor answered, timed around the executor.
@Suite struct RunTimesTests {
    @Test("each run is reported with its kind and at least the time its executor took", arguments: StoreFactory.all)
    func eachRunIsTimed(factory: StoreFactory) async throws {
        let store = try await factory.makePlace().open()
        let took = Recorder<Duration>()
        store.register(Greeting.self, retry: .never) { greeting, _ in
            let start = ContinuousClock.now
            defer { took.record(ContinuousClock.now - start) }
            return greeting.name.hasPrefix("doomed") ? .fail(Boom(greeting.name)) : .success
        }
        let runs = StreamLog(store.runs())
        let log = ChangeLog(store)
        for name in ["a", "doomed", "b"] { _ = try await store.submit(Greeting(name: name)) }
        try await store.start(workers: 1)
        #expect(await log.waitForEnds(3))
        #expect(await eventually { runs.events.count == 3 }, "a run for the failure too: \(runs.events)")
        await store.stop()
        #expect(runs.events.map(\.kind) == ["greeting", "greeting", "greeting"])
        for (run, executor) in zip(runs.events, took.all) {
            #expect(run.duration >= executor, "timed around the executor: \(run.duration) < \(executor)")
        }
    }
}
