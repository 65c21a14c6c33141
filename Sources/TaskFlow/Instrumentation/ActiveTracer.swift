import Tracing

/// The tracer spans are recorded with, looked up once per flow or job where it is submitted.
package enum ActiveTracer {
    /// The tracer in effect in the calling task (`withTracer`'s, else the bootstrapped one);
    /// nil for the default no-op one, so that untraced work builds no span, context or
    /// attribute at all. The cheap check (the instrument's type) comes first.
    package static var current: (any Tracer)? {
        guard InstrumentationSwitch.isOn, !(InstrumentationSystem.instrument is NoOpInstrument) else { return nil }
        let tracer = InstrumentationSystem.tracer
        return tracer is NoOpTracer ? nil : tracer
    }
}
