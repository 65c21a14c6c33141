/// Publishes one run's ``BootEvent``s to the streams that subscribed before it began.
///
/// The subscribers are fixed when the run begins, so publishing takes no lock; with none, no
/// event is even built (the events are autoclosures), which keeps a boot nobody watches as
/// cheap as the graph itself.
struct BootProgress: Sendable {
    private let subscribers: [AsyncStream<BootEvent>.Continuation]
    private let start = ContinuousClock.now

    init(subscribers: [AsyncStream<BootEvent>.Continuation]) {
        self.subscribers = subscribers
    }

    /// The time since the run began; zero when nobody subscribed, so an unwatched boot reads
    /// no clock per task.
    var now: Duration { subscribers.isEmpty ? .zero : ContinuousClock.now - start }

    /// Sends `event` to every subscriber, in the order `publish` is called.
    func publish(_ event: @autoclosure () -> BootEvent) {
        guard !subscribers.isEmpty else { return }
        let event = event()
        for subscriber in subscribers { subscriber.yield(event) }
    }

    /// Sends the run's last event and ends every subscriber's stream.
    func finish(boot: String, failure: (any Error)?) {
        publish(.finished(boot: boot, elapsed: now, failure: failure.map { String(describing: $0) }))
        for subscriber in subscribers { subscriber.finish() }
    }
}
