import Dispatch
import Glibc

/// Turns SIGINT, SIGTERM and SIGHUP into a value the loop checks, so the program ends through
/// its normal path (terminal restored) instead of being killed mid-frame.
///
/// The signals' default actions are ignored while the watcher lives; dispatch sources on the
/// main queue, which the loop drains, report them.
@MainActor
final class SignalWatcher {
    /// The first signal received, if any.
    private(set) var received: Int32?
    private var sources: [any DispatchSourceSignal] = []

    static let watched: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    init() {
        for number in Self.watched {
            signal(number, SIG_IGN)
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

    /// Stops watching and restores the default actions.
    func cancel() {
        for source in sources { source.cancel() }
        sources.removeAll()
        for number in Self.watched { signal(number, SIG_DFL) }
    }
}
