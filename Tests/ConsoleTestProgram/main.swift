// A served program for `taskflow attach`'s end-to-end tests: a console on the socket given
// first, one write flow that opens (a step that reverts) then waits until cancelled, and what
// happens to it written, a line each, to the file given second. A third argument is the title
// it gives clients ("Console test" by default). It runs until killed.
import Foundation
import TaskFlow
import TaskFlowConsole

let arguments = CommandLine.arguments
guard arguments.count == 3 || arguments.count == 4 else {
    FileHandle.standardError.write(Data("usage: console-test-program SOCKET RECORD [TITLE]\n".utf8))
    exit(2)
}
let record = arguments[2]
guard FileManager.default.createFile(atPath: record, contents: nil) else {
    FileHandle.standardError.write(Data("console-test-program: cannot create \(record)\n".utf8))
    exit(2)
}

/// Appends one line to the record file.
@Sendable func note(_ line: String) {
    guard let file = FileHandle(forWritingAtPath: record) else { return }
    file.seekToEndOfFile()
    file.write(Data((line + "\n").utf8))
    try? file.close()
}

let manager = TaskFlowManager()
// A minute for a client's hello: on a loaded machine the default ten seconds can run out.
let console = ConsoleServer(
    manager: manager, path: arguments[1], title: arguments.count == 4 ? arguments[3] : "Console test", limits: ConsoleLimits(handshakeTimeout: .seconds(60)))
let flow = manager.execute(title: "Hold the door") { flow in
    try await flow.task(title: "Open the door", apply: { _ in note("opened") }, revert: { _, _ in note("reverted") })
    try await flow.task(title: "Wait to be cancelled") { step in
        note("waiting")
        // A cancel lets the current step finish: this one finishes by noticing it.
        while !step.isCancelled { try await Task.sleep(for: .milliseconds(20)) }
        throw CancellationError()
    }
}
Task {
    _ = try? await flow.value
    note("flow ended: \(flow.status.phase)")
}
Task {
    while !console.isListening { try await Task.sleep(for: .milliseconds(10)) }
    note("serving")
}
try await console.run()
