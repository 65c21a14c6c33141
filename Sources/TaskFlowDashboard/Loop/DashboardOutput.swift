/// Where the loop sends the dashboard and gets keys from: the terminal, a memory grid in tests,
/// or nothing at all in headless mode (which prints events as they come instead).
@MainActor
public protocol DashboardOutput: AnyObject {
    /// A descriptor the loop watches for input (stdin), or nil when there is no input.
    var inputDescriptor: Int32? { get }

    /// True when the output needs a frame even if the model did not change (it was resized).
    var needsFrame: Bool { get }

    /// Draws the session's current state.
    func present(_ session: DashboardSession)

    /// The keys typed since the last call, without blocking.
    func pollKeys() -> [Key]
}
