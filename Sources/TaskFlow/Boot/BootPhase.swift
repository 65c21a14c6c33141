/// Where a ``Boot`` is in its life (after swift-service-lifecycle's `ServiceGroup`, each state
/// says what holds in it). Every change happens under the boot's one lock, so `send` always
/// sees one phase: an event is either buffered or forwarded, never both, never neither.
public enum BootPhase: Sendable, Equatable {
    /// Before `run()`. Tasks and observers may be added; events sent wait in the buffer.
    case configuring
    /// `run()` is validating the graph or running tasks. Adding tasks is a programmer error;
    /// events sent wait in the buffer.
    case booting
    /// The boot ended, whether it succeeded, failed or was refused. The buffer was forwarded to
    /// the observers in the order sent, in the same step that entered this phase; events sent
    /// now go straight to the observers.
    case booted
    /// `finish()` was called: the observers' streams are closed and events sent are dropped
    /// (the boot's lifetime is over). Terminal.
    case finished
}
