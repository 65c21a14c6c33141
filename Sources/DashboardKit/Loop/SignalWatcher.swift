import CSignalRecorder
import Glibc

/// Turns the signals a program can end gracefully on into a value the loop checks, so the
/// program ends through its normal path (flows stopped, terminal restored, status 128 + n)
/// instead of being killed mid-frame with the terminal left raw.
///
/// While the watcher lives, a handler records the first watched signal; the loop, which wakes at
/// least every ``MainLoop/idleWake`` (sooner when the signal interrupts its sleep), finds it
/// there. ``cancel()`` puts back the dispositions found (the default action, or the handler that
/// restores the terminal and re-raises). Signals the parent left ignored (`nohup`'s SIGHUP, a
/// background job's SIGINT) are not watched: they stay ignored. The crash signals and SIGQUIT
/// are left to the handler outside the loop, since a crashed or stuck loop could never report
/// them.
///
/// SIGTSTP is recorded apart: the loop suspends through its backend
/// (``DashboardBackend/suspend()``), outside any signal handler, and goes on after `fg`. A
/// terminal backend reads Ctrl-Z itself as a key (the terminal sends no SIGTSTP then), so this
/// covers a `kill -TSTP`. The terminal screen records SIGTSTP with the same handler from before
/// ncurses starts until the terminal is restored, which keeps ncurses off the signal (see
/// `TerminalScreen`), and a request recorded before this watcher exists is kept.
///
/// The handler is C (`CSignalRecorder`): it stores into two atomics and nothing else. A Swift
/// handler reached its atomic through a global's accessor, whose once-check took a lock under
/// ThreadSanitizer and deadlocked when the signal interrupted that lock's holder.
///
/// Not a dispatch signal source: on Linux, libdispatch reads signals through a `signalfd`
/// that sees only signals pending on a thread that blocks them, and a signal sent with `kill`
/// may go to any thread. Under load about one `kill -PIPE` in five went to a thread that did
/// not block it and was lost, and the program ran on.
@MainActor
final class SignalWatcher {
    private var replaced: [(number: Int32, disposition: sigaction)] = []

    /// Every standard signal whose default action ends the process and that does not mean a
    /// crash (nor SIGQUIT, the user's "quit now, no clean-up").
    static let watched: [Int32] = [
        SIGHUP, SIGINT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE, SIGVTALRM, SIGPROF,
        SIGXCPU, SIGXFSZ, SIGPOLL, SIGPWR, SIGSTKFLT,
    ]

    /// Watches ``watched``, and Ctrl-Z too when the loop can `suspend` (it has a screen to give
    /// back); without one, SIGTSTP keeps its default action and stops the program at once.
    init(suspends: Bool) {
        tf_reset_signals()
        for number in Self.watched + (suspends ? [SIGTSTP] : []) { watch(number) }
    }

    /// Records `number` unless the parent left it ignored.
    private func watch(_ number: Int32) {
        var found = sigaction()
        guard sigaction(number, nil, &found) == 0, !Self.isIgnored(found) else { return }
        guard tf_record_signal(number, &found) == 0 else { return }
        replaced.append((number, found))
    }

    /// The first signal received, if any.
    var received: Int32? {
        let number = tf_first_signal()
        return number == 0 ? nil : number
    }

    /// Whether SIGTSTP arrived since the last call.
    func takeSuspendRequest() -> Bool {
        tf_take_suspend() != 0
    }

    /// Stops watching and puts back the dispositions the watcher found.
    func cancel() {
        for (number, var disposition) in replaced { sigaction(number, &disposition, nil) }
        replaced.removeAll()
    }

    /// Whether `disposition` ignores its signal. `SIG_IGN` is a sentinel handler value
    /// (`(__sighandler_t) 1`), not a function, so it is compared as the pointer it is.
    private static func isIgnored(_ disposition: sigaction) -> Bool {
        guard disposition.sa_flags & SA_SIGINFO == 0 else { return false }
        return unsafeBitCast(disposition.__sigaction_handler.sa_handler, to: OpaquePointer?.self)
            == unsafeBitCast(SIG_IGN, to: OpaquePointer?.self)
    }
}
