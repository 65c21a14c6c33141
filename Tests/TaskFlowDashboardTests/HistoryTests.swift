import Testing
import TaskFlow
@testable import TaskFlowDashboard

/// A monitor runs for days: the board keeps the live flows and a bounded history of finished
/// ones, and still counts every flow it saw.
@Suite("Model: bounded history")
struct HistoryTests {
    /// `count` flows submitted one after another; every flow but the first `live` finishes.
    private func board(flows count: Int, live: Int, historyLimit: Int) -> FlowBoard {
        var board = FlowBoard(historyLimit: historyLimit)
        for id in 1...count {
            board.apply(.flowQueued(Fixture.info(id, "flow \(id)")), at: .milliseconds(id))
            board.apply(.statusChanged(FlowID(id), .running), at: .milliseconds(id))
        }
        for id in (live + 1)...count {
            board.apply(.statusChanged(FlowID(id), .completed), at: .milliseconds(count + id))
        }
        return board
    }

    @Test func finishedFlowsBeyondTheLimitAreDroppedOldestFirstAndLiveOnesAlwaysStay() {
        let board = board(flows: 10_000, live: 5, historyLimit: 100)
        let kept = board.flows.map(\.info.id.rawValue)
        #expect(Array(kept.prefix(5)) == [1, 2, 3, 4, 5], "running flows are never dropped")
        let finished = kept.dropFirst(5)
        #expect(finished.count >= 100 && finished.count <= 100 + board.dropBatch)
        #expect(finished.last == 10_000, "the newest finished flows are the ones kept")
        #expect(Array(finished) == Array((10_001 - finished.count)...10_000))
        #expect(board.droppedFlows == 9_995 - finished.count)
        #expect(board.flow(FlowID(6)) == nil && board.flow(FlowID(10_000)) != nil)
    }

    @Test func countsStillAccountForEveryFlowSeen() {
        let board = board(flows: 3_000, live: 2, historyLimit: 10)
        #expect(board.counts[.done] == 2_998)
        #expect(board.counts[.running] == 2)
        #expect(board.hasActiveFlows)
    }

    @Test func aFlowUndoneAfterItFinishedIsNotDroppedWhileItIsActiveAgain() {
        var board = FlowBoard(historyLimit: 1)
        board.apply(.flowQueued(Fixture.info(1, "undo me")), at: .zero)
        board.apply(.statusChanged(FlowID(1), .completed), at: .milliseconds(1))
        board.apply(.statusChanged(FlowID(1), .undoing), at: .milliseconds(2))
        for id in 2...100 {
            board.apply(.flowQueued(Fixture.info(id, "flow \(id)")), at: .milliseconds(id))
            board.apply(.statusChanged(FlowID(id), .completed), at: .milliseconds(id))
        }
        #expect(board.flow(FlowID(1))?.phase == .undoing)
        #expect(board.droppedFlows > 0)
    }
}
