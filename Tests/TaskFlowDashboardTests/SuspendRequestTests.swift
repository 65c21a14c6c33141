import CSignalRecorder
import Glibc
import Testing

@testable import DashboardKit

/// The suspend request (SIGTSTP) as the terminal screen and the loop's watcher share it: recorded
/// from before the loop watches, kept for its first turn, and left alone when the parent ignores
/// the signal. In the test process itself: the recording handler makes a raised SIGTSTP a flag,
/// never a stop.
@Suite("Signals: the suspend request", .serialized)
@MainActor
struct SuspendRequestTests {
    @Test func aStopSignalBeforeTheLoopWatchesIsKeptForItsFirstTurn() {
        var replaced = sigaction()
        #expect(tf_record_suspend_signal(&replaced) == 1, "recorded, as the terminal screen does before newterm")
        defer {
            sigaction(SIGTSTP, &replaced, nil)
            _ = tf_take_suspend()
        }
        Self.raiseOnThisThread(SIGTSTP)
        let watcher = SignalWatcher(suspends: true)
        defer { watcher.cancel() }
        #expect(watcher.takeSuspendRequest(), "the request from before the watcher is the loop's")
        #expect(!watcher.takeSuspendRequest(), "and it is taken once")
        #expect(watcher.received == nil, "a suspend request is not a signal that ends the loop")
    }

    @Test func aStopSignalTheParentIgnoredStaysIgnored() {
        var ignore = sigaction(), found = sigaction()
        ignore.__sigaction_handler.sa_handler = SIG_IGN
        sigemptyset(&ignore.sa_mask)
        sigaction(SIGTSTP, &ignore, &found)
        defer { sigaction(SIGTSTP, &found, nil) }
        var replaced = sigaction()
        #expect(tf_record_suspend_signal(&replaced) == 0, "left ignored")
        var now = sigaction()
        sigaction(SIGTSTP, nil, &now)
        #expect(unsafeBitCast(now.__sigaction_handler.sa_handler, to: OpaquePointer?.self) == unsafeBitCast(SIG_IGN, to: OpaquePointer?.self))
        Self.raiseOnThisThread(SIGTSTP)
        #expect(tf_take_suspend() == 0, "nothing recorded")
    }

    /// Raises `number` on the calling thread with it unblocked there, so that it is handled
    /// before this returns (the test runner's threads block SIGTSTP: raised while blocked, it
    /// would only wait, pending).
    private static func raiseOnThisThread(_ number: Int32) {
        var only = sigset_t(), previous = sigset_t()
        sigemptyset(&only)
        sigaddset(&only, number)
        pthread_sigmask(SIG_UNBLOCK, &only, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        #expect(raise(number) == 0)
    }
}
