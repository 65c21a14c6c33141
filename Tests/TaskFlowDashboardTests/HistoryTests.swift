@testable import DashboardKit
import TaskFlow
import Testing

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

    /// A limit beyond the largest is brought down to it: `historyLimit + dropBatch` overflowed
    /// (a trap) on the first finished flow with `--history 9223372036854775807`.
    @Test func aHistoryLimitBeyondTheLargestIsBroughtDownToIt() {
        var board = FlowBoard(historyLimit: .max)
        board.apply(.flowQueued(Fixture.info(1, "flow 1")), at: .zero)
        board.apply(.statusChanged(FlowID(1), .completed), at: .milliseconds(1))
        #expect(board.historyLimit == FlowBoard.historyLimits.upperBound)
        #expect(board.flow(FlowID(1))?.phase == .completed)
        #expect(FlowBoard(historyLimit: .min).historyLimit == 1)
    }

    /// Each drop rewrites every row: with many flows live at once (a quit rolling back 100,000),
    /// batches of a fixed size made the drops quadratic. Counted in rows rewritten, not timed.
    @Test func droppingTheFlowsOfAManyFlowQuitRewritesRowsInProportionToThem() {
        let count = 20_000
        var board = FlowBoard(historyLimit: 1000)
        for id in 1...count {
            board.apply(.flowQueued(Fixture.info(id, "flow \(id)")), at: .milliseconds(id))
        }
        var rewritten = 0
        for id in 1...count {
            let (rows, dropped) = (board.flows.count, board.droppedFlows)
            board.apply(.statusChanged(FlowID(id), .cancelled), at: .milliseconds(count + id))
            if board.droppedFlows > dropped { rewritten += rows }
        }
        #expect(board.droppedFlows > 0 && board.flows.count <= 1000 + board.dropBatch)
        #expect(rewritten <= 6 * count, "\(rewritten) rows rewritten to drop \(board.droppedFlows) flows")
    }

    @Test func countsStillAccountForEveryFlowSeen() {
        let board = board(flows: 3_000, live: 2, historyLimit: 10)
        #expect(board.counts[.completed] == 2_998)
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

/// The lock's holders and queue keep arrival order while flows leave from anywhere in them.
@Suite("Model: arrival queue")
struct ArrivalQueueTests {
    @Test func removalsFromAnywhereKeepTheOthersInArrivalOrder() {
        var queue = ArrivalQueue()
        for id in 1...1_000 { queue.append(Fixture.info(id, "flow \(id)")) }
        for id in stride(from: 2, through: 1_000, by: 2) { queue.remove(FlowID(id)) }
        queue.remove(FlowID(1))
        queue.remove(FlowID(4_242))
        #expect(queue.count == 499)
        #expect(queue.map(\.id.rawValue) == Array(stride(from: 3, through: 999, by: 2)))
        queue.append(Fixture.info(2, "back again"))
        #expect(queue.map(\.id.rawValue).last == 2)
    }

    @Test func queuesWithTheSameFlowsInTheSameOrderAreEqualWhateverTheirPast() {
        var churned = ArrivalQueue()
        for id in 1...100 { churned.append(Fixture.info(id, "flow \(id)")) }
        for id in 1...98 { churned.remove(FlowID(id)) }
        var fresh = ArrivalQueue()
        fresh.append(Fixture.info(99, "flow 99"))
        fresh.append(Fixture.info(100, "flow 100"))
        #expect(churned == fresh)
        #expect(churned.hashValue == fresh.hashValue)
    }
}
