/// What every table's title says the figures come from. Debug builds run the benchmarks too (CI
/// smoke-runs the PostgreSQL one), and their figures must not pass for release ones.
let buildConfiguration: String = {
    #if DEBUG
    "DEBUG build: figures not representative, use -c release"
    #else
    "release"
    #endif
}()
