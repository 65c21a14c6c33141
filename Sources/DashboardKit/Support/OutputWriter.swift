import Glibc

/// Writes the program's own text — the command line's output and diagnostics, the headless and
/// JSON event lines — straight to a standard descriptor, so a write that fails is seen at once
/// and handled, never a crash (Foundation's `FileHandle.write(_:)` traps on any error) and
/// never silently lost in a stdio buffer flushed at exit.
///
/// What a failure does depends on the descriptor's ``FailurePolicy``: output the user asked for
/// ends the program; a diagnostic that cannot be written is dropped, since the exit status that
/// goes with it already tells.
package struct OutputWriter: Sendable {
    /// What happens when text cannot be written.
    package enum FailurePolicy: Sendable, Hashable {
        /// End the program. When the reader has gone (EPIPE: `taskflow --json | head`, with
        /// SIGPIPE ignored) quietly, with status 141 (128 + SIGPIPE), as if SIGPIPE had ended
        /// it; otherwise with `taskflow: cannot write to standard output: <reason>` on stderr
        /// and status 2.
        case endProgram
        /// Drop the text and carry on.
        case discard
    }

    /// The descriptor written to.
    package let descriptor: Int32
    /// What the descriptor is called in an error message ("standard output").
    package let name: String
    /// What a failed write does.
    package let onFailure: FailurePolicy

    /// Standard output: a failed write ends the program.
    package static let standardOutput = OutputWriter(descriptor: STDOUT_FILENO, name: "standard output", onFailure: .endProgram)
    /// Standard error: a diagnostic that cannot be written is dropped.
    package static let standardError = OutputWriter(descriptor: STDERR_FILENO, name: "standard error", onFailure: .discard)

    /// A writer to `descriptor`, called `name` in error messages.
    package init(descriptor: Int32, name: String, onFailure: FailurePolicy) {
        self.descriptor = descriptor
        self.name = name
        self.onFailure = onFailure
    }

    /// Writes all of `text`. On failure, ``onFailure`` decides: `.endProgram` does not return,
    /// `.discard` returns with the text dropped.
    package func write(_ text: String) {
        do {
            try send(text)
        } catch {
            fail(error)
        }
    }

    /// Writes all of `text`, resuming after signals, partial writes and a full non-blocking
    /// descriptor; throws the first error that stops it.
    package func send(_ text: String) throws(WriteError) {
        var text = text
        if let code = text.withUTF8(writeAll) {
            throw WriteError(descriptorName: name, code: code)
        }
    }

    /// Writes every byte; returns the `errno` that stopped it, or nil.
    private func writeAll(_ bytes: UnsafeBufferPointer<UInt8>) -> Int32? {
        guard let start = bytes.baseAddress else { return nil }
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, start + offset, bytes.count - offset)
            if written >= 0 {
                offset += written
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&ready, 1, -1)
            } else if errno != EINTR {
                return errno
            }
        }
        return nil
    }

    private func fail(_ error: WriteError) {
        switch onFailure {
        case .discard:
            return
        case .endProgram where error.readerIsGone:
            exit(128 + SIGPIPE)
        case .endProgram:
            OutputWriter.standardError.write("taskflow: \(error)\n")
            exit(2)
        }
    }

    /// Opens `/dev/null` read-only on each of descriptors 0-2 the program was started without
    /// (`taskflow 2>&-`). Otherwise the next file opened would take that number, and text meant
    /// for stdout or stderr would land in it; read-only, a write there still fails as it would
    /// on the closed descriptor ("Bad file descriptor"). Call first thing in the program.
    package static func reserveClosedStandardDescriptors() {
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            // open returns the lowest free number, which is this one: lower ones are open.
            _ = open("/dev/null", O_RDONLY)
        }
    }
}
