// folder-sync-example: a program of its own with TaskFlow's dashboard embedded. It mirrors a
// folder's source/ into library/ with a write flow (copies, then deletes of files gone from
// source/), checks the library with a read flow, and checksums the sources on a job queue; the
// dashboard shows all of it live, and `c` on the sync rolls the folder back as it was.
//
//     swift run folder-sync-example                  a fresh temporary folder, live
//     swift run folder-sync-example --pace 0.2       faster
//     swift run folder-sync-example --folder ~/x     your own folder (source/ filled if absent)
//     swift run folder-sync-example --headless       one line per event; ends with the flows
import Foundation
import TaskFlow
import TaskFlowDashboard

let options: SyncOptions
do {
    options = try SyncOptions(CommandLine.arguments.dropFirst())
} catch {
    FileHandle.standardError.write(Data("folder-sync-example: \(error)\n".utf8))
    exit(2)
}

let folder: SyncFolder
do {
    folder = try SyncFolder(options.folder)
} catch {
    FileHandle.standardError.write(Data("folder-sync-example: \(error)\n".utf8))
    exit(1)
}

let manager = TaskFlowManager()
let checksums = JobQueue(title: "Checksums", maxConcurrent: 2)
let sync = FolderSync(folder: folder, pace: options.pace)
sync.start(on: manager, checksums: checksums)

let outcome = Dashboard(
    title: "Folder sync", manager: manager, queues: [checksums], theme: options.theme, output: options.output
).run()
// The kept copies of deleted files serve the sync's rollback and undo, which end with the dashboard.
sync.releaseKeptCopies()
if options.folder == nil, outcome.status != 2 {
    FileHandle.standardError.write(Data("folder-sync-example: the folder is \(folder.root.path)\n".utf8))
}
exit(outcome.status)
