@testable import DashboardKit
import TaskFlow
import TaskFlowTestSupport
import Testing

/// Each state of a flow between its first news and being let go, as the session's keys and a
/// headless run see them: handles and events come on two streams not ordered with each other.
@Suite("Session: adopting the flows' handles")
struct FlowAdoptionTests {
    /// A handle that records its cancels.
    private func handle(_ id: Int, cancels: Recorder<Int>) -> FlowHandle {
        FlowHandle(id: FlowID(id), cancel: { cancels.record(id) }, undo: {})
    }

    @Test func aCancelBeforeTheHandleArrivedCancelsItOnArrival() {
        var adoption = FlowAdoption()
        let cancels = Recorder<Int>()
        adoption.cancel(FlowID(1))
        #expect(cancels.all.isEmpty && adoption.handle(FlowID(1)) == nil)
        adoption.adopt(handle(1, cancels: cancels), listed: true, quitting: false)
        #expect(cancels.all == [1] && !adoption.allFinished)
        adoption.finished(FlowID(1), board: FlowBoard())
        #expect(adoption.allFinished && adoption.handle(FlowID(1)) != nil, "kept for undo while listed")
    }

    /// A program's flow is listed, and may complete, a moment before the embedded dashboard's
    /// handle of it arrives: `u`, `y` typed then undid nothing.
    @Test func anUndoBeforeTheHandleArrivedIsHandedBackOnArrival() {
        var adoption = FlowAdoption()
        let cancels = Recorder<Int>()
        adoption.finished(FlowID(1), board: FlowBoard())
        #expect(adoption.undo(FlowID(1)) == nil)
        let arrived = adoption.adopt(handle(1, cancels: cancels), listed: true, quitting: false)
        #expect(arrived?.id == FlowID(1), "the undo goes ahead with the handle")
        #expect(adoption.allFinished && adoption.handle(FlowID(1)) != nil)
    }

    /// A program's manager reaches its flows by id: a key acts on a flow whose handle is still
    /// on its way at once, and the handle, when it comes, is not acted on a second time.
    @Test func aSourceThatReachesFlowsByIdIsActedThroughAtOnce() {
        var adoption = FlowAdoption()
        let cancels = Recorder<Int>()
        adoption.reach = { [self] id in handle(id.rawValue, cancels: cancels) }
        adoption.cancel(FlowID(1))
        #expect(cancels.all == [1], "cancelled as the key is handled")
        adoption.adopt(handle(1, cancels: cancels), listed: true, quitting: false)
        #expect(cancels.all == [1] && !adoption.allFinished, "the arriving handle is not cancelled again")
        adoption.finished(FlowID(2), board: FlowBoard())
        #expect(adoption.undo(FlowID(2))?.id == FlowID(2), "the undo goes ahead now")
        #expect(adoption.adopt(handle(2, cancels: cancels), listed: true, quitting: false) == nil, "and not again on arrival")
        #expect(adoption.handle(FlowID(2)) != nil)
    }

    @Test func aFlowThatFinishedBeforeItsHandleIsNotWaitedFor() {
        var adoption = FlowAdoption()
        let cancels = Recorder<Int>()
        adoption.finished(FlowID(1), board: FlowBoard())
        adoption.finished(FlowID(2), board: FlowBoard())
        adoption.adopt(handle(1, cancels: cancels), listed: true, quitting: true)
        adoption.adopt(handle(2, cancels: cancels), listed: false, quitting: false)
        #expect(adoption.allFinished, "a headless run does not wait for them")
        #expect(adoption.handle(FlowID(1)) != nil, "the listed one can be undone")
        #expect(adoption.handle(FlowID(2)) == nil && adoption.trackedFlows == 1, "the dropped one is let go")
        #expect(cancels.all.isEmpty, "a finished flow is not cancelled")
    }

    @Test func whileQuittingANewFlowIsCancelledAtOnce() {
        var adoption = FlowAdoption()
        let cancels = Recorder<Int>()
        adoption.adopt(handle(7, cancels: cancels), listed: true, quitting: true)
        #expect(cancels.all == [7] && !adoption.allFinished)
    }

    /// A dashboard attached to a program whose flows started before it never gets their
    /// handles: once the source said no more come, their news is not kept waiting for one (it
    /// once grew by one entry per such flow, for as long as the dashboard ran).
    @Test func onceTheHandlesAreInNothingWaitsForOne() {
        var adoption = FlowAdoption()
        adoption.finished(FlowID(1), board: FlowBoard())
        adoption.cancel(FlowID(2))
        #expect(adoption.trackedFlows == 2)
        adoption.handlesEnded()
        #expect(adoption.trackedFlows == 0)
        adoption.finished(FlowID(3), board: FlowBoard())
        adoption.cancel(FlowID(4))
        #expect(adoption.trackedFlows == 0)
    }

    @Test func handlesOfFlowsTheBoardDroppedAreReleased() {
        var board = FlowBoard(historyLimit: 1)
        var adoption = FlowAdoption()
        let cancels = Recorder<Int>()
        for id in 1...60 {
            board.apply(.flowQueued(FlowInfo(id: FlowID(id), title: "f\(id)", access: .read)), at: .zero)
            adoption.adopt(handle(id, cancels: cancels), listed: true, quitting: false)
        }
        for id in 1...60 {
            board.apply(.statusChanged(FlowID(id), .completed), at: .seconds(Int64(id)))
            adoption.finished(FlowID(id), board: board)
        }
        #expect(board.flow(FlowID(1)) == nil && adoption.handle(FlowID(1)) == nil, "the first flow was dropped, its handle with it")
        #expect(adoption.handle(FlowID(60)) != nil, "the last is kept")
        #expect(adoption.trackedFlows <= board.flows.count + board.dropBatch)
    }
}
