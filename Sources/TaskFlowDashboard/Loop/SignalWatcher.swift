import Glibc
import Synchronization

/// Turns the signals a program can end gracefully on into a value the loop checks, so the
/// program ends through its normal path (flows stopped, terminal restored, status 128 + n)
/// instead of being killed mid-frame with the terminal left raw.
///
/// While the watcher lives, a handler of its own records the first watched signal; the loop,
/// which wakes at least every ``MainLoop/idleWake`` (sooner when the signal interrupts its
/// sleep), finds it there. ``cancel()`` puts back the dispositions found (the default action,
/// or the handler that restores the terminal and re-raises). Signals the parent left ignored
/// (`nohup`'s SIGHUP, a background job's SIGINT) are not watched: they stay ignored. The crash
/// signals and SIGQUIT are left to the handler outside the loop, since a crashed or stuck loop
/// could never report them.
///
/// Ctrl-Z (SIGTSTP) is recorded apart: the loop suspends through its backend
/// (``DashboardBackend/suspend()``), outside any signal handler, and goes on after `fg`.
/// (ncurses' own SIGTSTP handler, which this replaces, restores the terminal inside the handler
/// and changes `errno` there.)
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

    init() {
        // Initialised here, on the main thread, so the handler never runs a global's lazy
        // initialiser (which takes a lock) inside a signal.
        firstSignal.store(0, ordering: .relaxed)
        suspendRequested.store(false, ordering: .relaxed)
        for number in Self.watched { watch(number, with: recordSignal) }
        watch(SIGTSTP, with: recordSuspend)
    }

    /// Installs `handler` for `number` unless the parent left it ignored.
    private func watch(_ number: Int32, with handler: @convention(c) (Int32) -> Void) {
        do {
            var found = sigaction()
            guard sigaction(number, nil, &found) == 0, !Self.isIgnored(found) else { return }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = handler
            // Restarted system calls: the loop's sleep and the terminal's writes need not
            // handle EINTR; the idle wake bounds how late the loop sees the signal.
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            guard sigaction(number, &action, nil) == 0 else { return }
            replaced.append((number, found))
        }
    }

    /// Whether Ctrl-Z was pressed since the last call.
    func takeSuspendRequest() -> Bool {
        suspendRequested.exchange(false, ordering: .relaxed)
    }

    /// The first signal received, if any.
    var received: Int32? {
        let number = firstSignal.load(ordering: .relaxed)
        return number == 0 ? nil : number
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

/// The first watched signal since the watcher started; 0 for none. A global because a signal
/// handler can reach nothing else, and an atomic, the only shared state a handler may touch.
private let firstSignal = Atomic<Int32>(0)

/// Set by Ctrl-Z (SIGTSTP) until the loop takes it.
private let suspendRequested = Atomic<Bool>(false)

/// The watcher's SIGTSTP handler: async-signal-safe, it only records the request.
private let recordSuspend: @convention(c) (Int32) -> Void = { _ in
    suspendRequested.store(true, ordering: .relaxed)
}

/// The watcher's handler: async-signal-safe, it only records the first signal.
private let recordSignal: @convention(c) (Int32) -> Void = { number in
    _ = firstSignal.compareExchange(expected: 0, desired: number, ordering: .relaxed)
}
