@testable import DashboardKit
@testable import TaskFlow  // LockEvent has no public initializer: fixtures build lock events directly.

/// Builds engine events the way the engine emits them, so model and view tests can replay a
/// scenario without timing.
enum Fixture {
    static func info(_ id: Int, _ title: String, _ access: FlowAccess = .write) -> FlowInfo {
        FlowInfo(id: FlowID(id), title: title, access: access)
    }

    static func step(_ id: Int, _ title: String, _ kind: StepKind = .task, parent: Int? = nil) -> StepInfo {
        StepInfo(id: StepID(id), parent: parent.map(StepID.init), title: title, kind: kind)
    }

    static func lock(_ holder: FlowInfo, _ change: LockEvent.Change, _ mode: LockMode, waiting: Int) -> FlowEvent {
        .lock(LockEvent(holder: holder, change: change, mode: mode, waiting: waiting))
    }

    static let importBooks = info(1, "Import books")
    static let report = info(2, "Build report", .read)
    static let migrate = info(3, "Migrate archive")

    /// Three flows: #1 completed (with a group), #2 waiting, #3 running a sequence at 40 %.
    static var busy: [FlowEvent] {
        [
            .flowQueued(importBooks), .flowQueued(report), .flowQueued(migrate),
            lock(importBooks, .admitted, .write(FlowID(1)), waiting: 0),
            .statusChanged(FlowID(1), .running),
            .stepStarted(FlowID(1), step(1, "Open import panel", .main)),
            .stepFinished(FlowID(1), StepID(1), .completed),
            .stepStarted(FlowID(1), step(2, "Fetch covers", .group)),
            .stepStarted(FlowID(1), step(3, "cover 1", parent: 2)),
            .stepStarted(FlowID(1), step(4, "cover 2", parent: 2)),
            .stepFinished(FlowID(1), StepID(4), .completed),
            .stepFinished(FlowID(1), StepID(3), .completed),
            .stepFinished(FlowID(1), StepID(2), .completed),
            .statusChanged(FlowID(1), .completed),
            lock(importBooks, .released, .idle, waiting: 0),
            lock(migrate, .admitted, .write(FlowID(3)), waiting: 0),
            .statusChanged(FlowID(3), .running),
            .statusChanged(FlowID(2), .waiting),
            lock(report, .enqueued, .write(FlowID(3)), waiting: 1),
            .stepStarted(FlowID(3), step(1, "Copy batches", .sequence)),
            .stepStarted(FlowID(3), step(2, "batch 1", parent: 1)),
            .stepFinished(FlowID(3), StepID(2), .completed),
            .stepStarted(FlowID(3), step(3, "batch 2", parent: 1)),
            .progress(FlowID(3), StepID(3), 0.4),
        ]
    }

    /// A model that saw `events`, one every 100 ms.
    static func model(_ events: [FlowEvent]) -> DashboardModel {
        var model = DashboardModel(scenario: "test")
        for (index, event) in events.enumerated() {
            _ = model.apply(event, at: .milliseconds(100 * index))
        }
        return model
    }
}

extension DashboardModel {
    /// The queues view, if attached.
    var queues: QueuesTab? { tab(QueuesTab.self) }

    /// The stored jobs view, if attached.
    var store: StoreTab? { tab(StoreTab.self) }
}
