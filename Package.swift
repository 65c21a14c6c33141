// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "TaskFlow",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "TaskFlow", targets: ["TaskFlow"]),
        .executable(name: "taskflow", targets: ["taskflow"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
    ],
    targets: [
        .target(
            name: "TaskFlow",
            dependencies: [
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        // Scenario files (TOML) parsed, validated and run as flows: no terminal needed.
        .target(
            name: "TaskFlowScenario",
            dependencies: ["TaskFlow", .product(name: "TOMLKit", package: "TOMLKit")]
        ),
        .executableTarget(name: "taskflow", dependencies: ["TaskFlow"]),
        .executableTarget(
            name: "TaskFlowBenchmarks",
            dependencies: ["TaskFlow"]
        ),
        .testTarget(
            name: "TaskFlowTests",
            dependencies: ["TaskFlow", .product(name: "NIOConcurrencyHelpers", package: "swift-nio")]
        ),
        .testTarget(name: "TaskFlowScenarioTests", dependencies: ["TaskFlowScenario"], resources: [.copy("Fixtures")]),
    ],
    swiftLanguageModes: [.v6]
)
