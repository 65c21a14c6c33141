import Glibc

/// Entry point of `swift run -c release TaskFlowBenchmarks`: the dashboard's figures, then the
/// core figures against their raw baselines, then the variants that explain any miss, then the
/// durable job store's figures against raw GRDB.
///
/// The dashboard benchmarks run first, synchronously, while this top-level code still owns the
/// main thread: two of them drive the dashboard's real run loop, which must be the main thread.
/// After that this is asynchronous top-level code, so the main thread drains the main queue
/// while the core benchmarks run off the main actor (`runCoreBenchmarks` is `@concurrent`):
/// foreground steps and `MainActor.run` are serviced exactly as in an embedding program with a
/// plain `async` main, which makes the foreground baseline a fair one.
//
/// `swift run -c release TaskFlowBenchmarks [section…]` runs only the sections named (dashboard,
/// core, diagnostics, scenario, store, jobs, boot, console, durable, instrumentation); without arguments, all
/// of them.
//
/// `--json FILE` also writes every table printed, with the machine's description, as JSON
/// (``BenchmarkReport``): `Scripts/benchmark-report.py` makes the README's tables from such files
/// and checks ratios against their targets.
//
/// `postgres` (built with `--traits Postgres`, a server named by TASKFLOW_BENCH_POSTGRES_URL) runs
/// only when named: it needs a database it may empty. Its worker processes are this program
/// started again as `TaskFlowBenchmarks postgres-worker …`.
//
/// `counts <workload> <n>` also runs only when named, and first: it runs one workload n times
/// under a counting tool (`Scripts/count-costs.sh`, instructions and allocations per operation).
let allSections: Set = [
    "dashboard", "core", "diagnostics", "scenario", "store", "jobs", "boot", "console", "durable", "instrumentation", "postgres",
    "counts",
]
if CommandLine.arguments.dropFirst().first == "counts" {
    exit(await runCounts(Array(CommandLine.arguments.dropFirst(2))))
}
#if Postgres
if CommandLine.arguments.dropFirst().first == PostgresBenchWorker.command {
    exit(await PostgresBenchWorker.run(Array(CommandLine.arguments.dropFirst(2))))
}
#endif
var arguments = Array(CommandLine.arguments.dropFirst())
var jsonPath: String?
if let flag = arguments.firstIndex(of: "--json") {
    guard arguments.indices.contains(flag + 1) else {
        print("TaskFlowBenchmarks: --json needs a file to write")
        exit(2)
    }
    jsonPath = arguments[flag + 1]
    arguments.removeSubrange(flag...(flag + 1))
}
let sections = Set(arguments)
if let unknown = sections.subtracting(allSections).sorted().first {
    print("TaskFlowBenchmarks: unknown section '\(unknown)'; sections: \(allSections.sorted().joined(separator: ", "))")
    exit(2)
}
func wanted(_ section: String) -> Bool { sections.isEmpty ? !["postgres", "counts"].contains(section) : sections.contains(section) }
if wanted("counts") { exit(await runCounts([])) }  // named after another section: prints its usage
if wanted("dashboard") { runDashboardBenchmarks() }
if wanted("core") { await runCoreBenchmarks() }
if wanted("diagnostics") { await runCoreDiagnostics() }
if wanted("scenario") { await runScenarioBenchmarks() }
if wanted("store") { await runStoreBenchmarks() }
if wanted("jobs") { await runJobBenchmarks() }
if wanted("boot") { await runBootBenchmarks() }
if wanted("console") { await runConsoleBenchmarks() }
if wanted("durable") { await runDurableBenchmarks() }
if wanted("instrumentation") { await runInstrumentationBenchmarks() }
if wanted("postgres") {
    #if Postgres
    if !(await runPostgresBenchmarks()) { exit(1) }
    #else
    print("postgres: this build has no PostgreSQL support; run: swift run -c release --traits Postgres TaskFlowBenchmarks postgres")
    exit(2)
    #endif
}
if let jsonPath {
    do {
        try BenchmarkReport.write(to: jsonPath)
    } catch {
        print("TaskFlowBenchmarks: cannot write \(jsonPath): \(error)")
        exit(1)
    }
}
