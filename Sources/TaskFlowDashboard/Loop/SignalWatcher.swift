import Dispatch
import Glibc

/// Turns the signals a program can end gracefully on into a value the loop checks, so the
/// program ends through its normal path (flows stopped, terminal restored, status 128 + n)
/// instead of being killed mid-frame with the terminal left raw.
///
/// While the watcher lives, the watched signals are ignored and dispatch sources on the main
/// queue, which the loop drains, report them; ``cancel()`` puts back the dispositions found
/// (the default action, or the handler that restores the terminal and re-raises). Signals the
/// parent left ignored (`nohup`'s SIGHUP, a background job's SIGINT) are not watched: they stay
/// ignored. The crash signals and SIGQUIT are left to the handler outside the loop, since a
/// crashed or stuck loop could never report them.
@MainActor
final class SignalWatcher {
    /// The first signal received, if any.
    private(set) var received: Int32?
    private var sources: [any DispatchSourceSignal] = []
    private var replaced: [(number: Int32, disposition: sigaction)] = []

    /// Every standard signal whose default action ends the process and that does not mean a
    /// crash (nor SIGQUIT, the user's "quit now, no clean-up").
    static let watched: [Int32] = [
        SIGHUP, SIGINT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE, SIGVTALRM, SIGPROF,
        SIGXCPU, SIGXFSZ, SIGPOLL, SIGPWR, SIGSTKFLT,
    ]

    init() {
        for number in Self.watched {
            var disposition = sigaction()
            guard sigaction(number, nil, &disposition) == 0, !Self.isIgnored(disposition) else { continue }
            signal(number, SIG_IGN)
            replaced.append((number, disposition))
            let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
            source.setEventHandler { [weak self] in
                // The source is bound to the main queue, which only the main thread drains.
                MainActor.assumeIsolated {
                    if self?.received == nil { self?.received = number }
                }
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Stops watching and puts back the dispositions the watcher found.
    func cancel() {
        for source in sources { source.cancel() }
        sources.removeAll()
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
