// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "TaskFlow",
    // Linux only: the ncurses shim includes Linux header paths and the dashboard imports Glibc.
    products: [
        .library(name: "TaskFlow", targets: ["TaskFlow"]),
        .library(name: "TaskFlowDashboard", targets: ["TaskFlowDashboard"]),
        .library(name: "TaskFlowStore", targets: ["TaskFlowStore"]),
        // The job store on PostgreSQL: a product of its own, so that programs (and the
        // taskflow command) that stay on SQLite never build postgres-nio and its TLS stack.
        .library(name: "TaskFlowPostgres", targets: ["TaskFlowPostgres"]),
        // A program without a terminal serves its flows, queues and store to `taskflow attach`.
        .library(name: "TaskFlowConsole", targets: ["TaskFlowConsole"]),
        .executable(name: "taskflow", targets: ["taskflow"]),
        .executable(name: "folder-sync-example", targets: ["folder-sync-example"]),
        .executable(name: "server-example", targets: ["server-example"]),
    ],
    // `swift build --traits Postgres` (or `swift run --traits Postgres taskflow`) builds taskflow
    // with `--store postgres://…`; off by default, so that `swift run taskflow` on a fresh machine
    // does not build postgres-nio and its TLS stack (minutes on a small machine).
    traits: [
        .trait(name: "Postgres", description: "taskflow's --store also takes postgres:// URLs (builds postgres-nio)"),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // Metrics and traces (DESIGN §9): no-ops until a program bootstraps a backend.
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        // Only the server example uses it: Prometheus text for its `/metrics` endpoint.
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // `swift package generate-documentation --target TaskFlow` builds the DocC catalog.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // The dashboard's duration statistics (p50/p90/p99 per flow, step and job title): a
        // fixed-size histogram per title, so memory stays bounded however many runs are seen.
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
    ],
    targets: [
        // What every module shares: the one lock (`Protected`) and the one event fan-out
        // (`Broadcaster`). Internal to the package (`package` access): no product.
        .target(
            name: "TaskFlowSupport",
            dependencies: [
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                // Each subscriber's queue of events (`Mailbox`).
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        .target(
            name: "TaskFlow",
            dependencies: [
                "TaskFlowSupport", .product(name: "DequeModule", package: "swift-collections"),
                // `manager.service(grace:)`: the engine in a server's ServiceGroup.
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                // taskflow.flows/jobs metrics and flow/step/job spans (DESIGN §9).
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        // The attach protocol: its messages as JSON lines, the wire form of the core's types, the
        // feed of a watched program and the session recorder. Internal to the package (`package`
        // access): no product. No NIO, so the dashboard records sessions without building it.
        .target(name: "ConsoleProtocol", dependencies: ["TaskFlow", "TaskFlowSupport"]),
        // The console server (a swift-service-lifecycle Service on a Unix-domain socket) and the
        // client library `taskflow attach` is built on.
        .target(
            name: "TaskFlowConsole",
            dependencies: [
                "ConsoleProtocol", "TaskFlow", "TaskFlowSupport",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["PROTOCOL.md"]
        ),
        // The ncurses C API (libncursesw). Only DashboardTerminal imports it.
        .systemLibrary(name: "CNcurses", path: "Sources/CNcurses"),
        // TOML input files (scenarios, themes): reading, source positions, limits and
        // `file:line:column: message` diagnostics. Internal to the package (`package` access): no product.
        .target(name: "TOMLSource", dependencies: ["TaskFlowSupport", .product(name: "TOMLKit", package: "TOMLKit")]),
        // The dashboard's signal handler, in C: inside a signal it may touch nothing of Swift's
        // runtime (a global's lazy accessor took a lock under ThreadSanitizer and deadlocked).
        .target(name: "CSignalRecorder"),
        // Model, view, themes, line/memory backends, run loop and demo: no terminal needed.
        // Internal to the package (`package` access): the TaskFlowDashboard product wraps it.
        .target(
            name: "DashboardKit",
            dependencies: [
                "TaskFlow", "TaskFlowSupport", "TOMLSource", "CSignalRecorder", "ConsoleProtocol",
                .product(name: "DequeModule", package: "swift-collections"),
                // Writes the preferences file (reading goes through TOMLSource's checks).
                .product(name: "TOMLKit", package: "TOMLKit"),
                // Run statistics: duration percentiles in bounded memory.
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ]
        ),
        // The one module that talks to the terminal.
        .target(name: "DashboardTerminal", dependencies: ["DashboardKit", "CNcurses", "CSignalRecorder"]),
        // The product: `Dashboard`, a program's own flows on the terminal (or one line per event),
        // and the launcher the `taskflow` command shares with it. No store, no scenario parser.
        .target(name: "TaskFlowDashboard", dependencies: ["TaskFlow", "DashboardKit", "DashboardTerminal"]),
        // Scenario files (TOML) parsed, validated and run as flows: no terminal needed. Internal
        // to the package (`package` access): no product, only `taskflow` and the tests use it.
        .target(
            name: "TaskFlowScenario",
            dependencies: [
                "TaskFlow", "TaskFlowSupport", "TOMLSource", .product(name: "HeapModule", package: "swift-collections"),
            ]
        ),
        // Durable jobs (Forge): persisted jobs, executors per kind, leases, crash recovery; SQLite via GRDB.
        .target(
            name: "TaskFlowStore",
            dependencies: [
                "TaskFlow", "TaskFlowSupport", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                // taskflow.store.jobs, and a stored job's run span linked to its submitter's.
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        // The same JobStore on PostgreSQL (postgres-nio): claims with FOR UPDATE SKIP LOCKED,
        // LISTEN/NOTIFY wake-ups, many processes and hosts on one queue.
        .target(
            name: "TaskFlowPostgres",
            dependencies: [
                "TaskFlow", "TaskFlowStore", "TaskFlowSupport", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOPosix", package: "swift-nio"), .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // A tiny worker process for the store's crash test: it is killed with SIGKILL mid-run.
        .executableTarget(
            name: "TaskFlowStoreCrashProbe",
            dependencies: ["TaskFlowStore", "TaskFlowPostgres", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // The durable flows' crash test's process: durable flows creating files, killed with
        // SIGKILL mid-run and mid-recovery.
        .executableTarget(name: "TaskFlowDurableCrashProbe", dependencies: ["TaskFlow", "TaskFlowStore", "TaskFlowPostgres", "TaskFlowSupport"]),
        .executableTarget(
            name: "taskflow",
            dependencies: [
                "TaskFlow", "TaskFlowDashboard", "DashboardKit", "DashboardTerminal", "TaskFlowScenario", "TaskFlowStore",
                "TaskFlowSupport", "TOMLSource", "ConsoleProtocol", "TaskFlowConsole",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .target(name: "TaskFlowPostgres", condition: .when(traits: ["Postgres"])),
            ]
        ),
        // `swift run folder-sync-example`: a program of its own with the dashboard embedded
        // (README, "Your own program on the dashboard").
        .executableTarget(name: "folder-sync-example", dependencies: ["TaskFlow", "TaskFlowDashboard"], path: "Examples/FolderSync"),
        // `swift run server-example`: the engine, the store's workers and the console in a
        // ServiceGroup, logs on stderr, Prometheus metrics on a local HTTP endpoint (README, "In a server").
        .executableTarget(
            name: "server-example",
            dependencies: [
                "TaskFlow", "TaskFlowStore", "TaskFlowConsole",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                // `--traces`: spans as JSON lines (Examples/Server/SpanLines.swift).
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Instrumentation", package: "swift-distributed-tracing"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Examples/Server"
        ),
        .executableTarget(
            name: "TaskFlowBenchmarks",
            dependencies: [
                "TaskFlow", "DashboardKit", "TaskFlowScenario", "TaskFlowStore", "TaskFlowSupport", "TaskFlowConsole",
                "ConsoleProtocol",
                .product(name: "GRDB", package: "GRDB.swift"),
                // The `postgres` section: `swift run -c release --traits Postgres TaskFlowBenchmarks postgres`.
                .target(name: "TaskFlowPostgres", condition: .when(traits: ["Postgres"])),
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["Postgres"])),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // What the test targets share: one `eventually`, Gate, Recorder, Registrar, EventLog,
        // Boom and a seeded generator. A plain target (no tests of its own) under Tests/.
        .target(
            name: "TaskFlowTestSupport",
            dependencies: [
                "TaskFlow", "TaskFlowSupport", .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ],
            path: "Tests/TaskFlowTestSupport"
        ),
        .testTarget(
            name: "TaskFlowTests",
            dependencies: [
                "TaskFlow", "TaskFlowSupport", "TaskFlowTestSupport",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"), .product(name: "Logging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ]
        ),
        .testTarget(
            name: "TaskFlowStoreTests",
            // The crash probes are listed so that the crash tests find the binaries built.
            dependencies: [
                "TaskFlowStore", "TaskFlowStoreCrashProbe", "TaskFlowDurableCrashProbe", "TaskFlowTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"), "TaskFlowSupport", "TaskFlowPostgres",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "Logging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ]
        ),
        .testTarget(name: "TOMLSourceTests", dependencies: ["TOMLSource", "TaskFlowSupport"]),
        .testTarget(
            name: "TaskFlowConsoleTests",
            dependencies: [
                "ConsoleProtocol", "TaskFlowConsole", "TaskFlow", "TaskFlowSupport", "TaskFlowTestSupport",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Seeded mutations of the demos, themes and store files through the loaders the CLI uses.
        .testTarget(
            name: "InputFuzzTests",
            dependencies: [
                "TaskFlowScenario", "DashboardKit", "TaskFlowTestSupport", "TaskFlowStore",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "TaskFlowScenarioTests",
            // DashboardKit for the vocabulary of step phases the timeline helper prints.
            dependencies: ["TaskFlowScenario", "TOMLSource", "DashboardKit"], resources: [.copy("Fixtures")]
        ),
        // `server-example` as a person runs it: started, scraped, sent SIGTERM (the binary is
        // listed so that the test finds it built).
        .testTarget(name: "ServerExampleTests", dependencies: ["server-example", "TaskFlowTestSupport"]),
        // A program serving its console, for taskflow attach's end-to-end tests.
        .executableTarget(
            name: "console-test-program", dependencies: ["TaskFlow", "TaskFlowConsole"], path: "Tests/ConsoleTestProgram"
        ),
        .testTarget(
            name: "TaskFlowDashboardTests",
            // `taskflow`, `console-test-program` and `folder-sync-example` are listed so that the
            // end-to-end tests find the binaries built; GRDB crafts damaged store files and holds
            // their write lock.
            dependencies: [
                "TaskFlow", "TaskFlowDashboard", "DashboardKit", "TOMLSource", "TaskFlowStore", "TaskFlowTestSupport",
                "taskflow", "folder-sync-example", "console-test-program", "ConsoleProtocol", "TaskFlowConsole",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
