extension Duration {
    /// Seconds, to the millisecond: how a headless JSON record (``EventRecord``,
    /// ``JobEventRecord``, ``ResyncRecord``) gives its time.
    var recordSeconds: Double { (seconds * 1000).rounded() / 1000 }
}
