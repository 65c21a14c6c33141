import Glibc

/// Which sanitizers this test process (and so the `taskflow` built beside it) runs under.
enum Sanitizers {
    /// True under `swift test --sanitize=thread`: ThreadSanitizer's runtime defines `__tsan_init`.
    static let threadIsActive = dlsym(nil, "__tsan_init") != nil
}
