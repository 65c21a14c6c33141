import Tracing

/// The tracer spans are recorded with, looked up once per flow or job where it is submitted.
package enum ActiveTracer {
    /// The tracer in effect in the calling task (`withTracer`'s, else the bootstrapped one);
    /// nil for the default no-op one, so that untraced work builds no span, context or
    /// attribute at all. The cheap check (the instrument's type) comes first.
    ///
    /// The types are compared, not cast: `is` on an existential goes through the runtime's
    /// dynamic cast (about 250 instructions, once per flow and per job), while both no-op types
    /// are structs, which nothing can subclass, so their metadata is their identity.
    package static var current: (any Tracer)? {
        guard InstrumentationSwitch.isOn, type(of: InstrumentationSystem.instrument) != NoOpInstrument.self else {
            return nil
        }
        let tracer = InstrumentationSystem.tracer
        return type(of: tracer) == NoOpTracer.self ? nil : tracer
    }

    /// `make` applied to the tracer in effect (``current``), or nil without calling it for the
    /// no-op one. What every job added asks: an optional existential, as
    /// ``current`` returns, is copied and destroyed through the runtime's generic witnesses
    /// (about 140 instructions per untraced job), while the class `make` returns travels as a
    /// pointer.
    package static func ifTracing<Traced: AnyObject>(_ make: (any Tracer) -> Traced) -> Traced? {
        guard let tracer = current else { return nil }
        return make(tracer)
    }
}
