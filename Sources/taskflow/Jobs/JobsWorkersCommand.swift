import ArgumentParser
import DashboardKit
import Foundation

/// `taskflow jobs workers`: the processes running workers on the store, from their heartbeats.
struct JobsWorkersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "workers",
        abstract: "List the processes running workers on the store: host, pid, jobs running, last heartbeat.",
        discussion: """
            A process beats every third of its lease; one silent for longer than its lease has \
            stopped renewing (it died, hangs or lost the database) and its jobs go to other \
            workers. It stays listed until a store on its host starts and sees it gone, or for an hour.
            """)

    @OptionGroup var store: StoreOptions

    func run() throws {
        let jobStore = try store.open(.read)
        let processes = try awaitingStore { try await jobStore.workerProcesses() }
        let now = Date()
        let text = store.json ? WorkerProcessText.json(processes, now: now) : WorkerProcessText.table(processes, now: now)
        OutputWriter.standardOutput.write(text + "\n")
    }
}
