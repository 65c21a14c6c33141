/// Entry point of `swift run -c release TaskFlowBenchmarks`: the core figures against their raw
/// baselines, then the variants that explain any miss.
///
/// This is asynchronous top-level code, so the main thread drains the main queue while the
/// benchmarks run off the main actor (`runCoreBenchmarks` is `@concurrent`): foreground steps and
/// `MainActor.run` are serviced exactly as in an embedding program with a plain `async` main,
/// which makes the foreground baseline a fair one.
await runCoreBenchmarks()
await runCoreDiagnostics()
