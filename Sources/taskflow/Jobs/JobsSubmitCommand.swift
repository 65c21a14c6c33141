import ArgumentParser
import DashboardKit
import Foundation

/// `taskflow jobs submit KIND JSON`: persists one job and prints its id.
struct JobsSubmitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "submit",
        abstract: "Submit a job: its kind and its payload as JSON. Prints the new job's id once it is stored.")

    @OptionGroup var store: StoreOptions

    @Argument(help: "The job's kind: the name an executor is registered under.")
    var kind: String

    @Argument(help: "The payload, as JSON.")
    var payload: String

    func validate() throws {
        guard !kind.isEmpty, !kind.contains(where: \.isNewline) else {
            throw ValidationError("the kind must be a non-empty name on one line")
        }
        guard (try? JSONSerialization.jsonObject(with: Data(payload.utf8), options: [.fragmentsAllowed])) != nil else {
            throw ValidationError("the payload is not valid JSON")
        }
    }

    func run() throws {
        let jobStore = try store.open(.create)
        let (kind, payload) = (kind, Data(payload.utf8))
        let id = try awaitingStore { try await jobStore.submit(kind: kind, json: payload) }
        OutputWriter.standardOutput.write((store.json ? "{\"id\":\(id)}" : "\(id)") + "\n")
    }
}
