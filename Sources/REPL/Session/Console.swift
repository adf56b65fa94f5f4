import Foundation

/// Where a session writes: standard output for results, standard error for human error lines.
/// Tests pass closures that collect the text instead.
///
/// The standard console is the program's one output boundary: every line passes
/// `TerminalText.forTerminal` on its way to the terminal.
struct Console: Sendable {
    /// Writes a result line (a newline is added).
    var out: @Sendable (String) -> Void
    /// Writes a diagnostic line (a newline is added).
    var err: @Sendable (String) -> Void

    /// The process's standard output and standard error.
    static let standard = Console(
        out: { line in write(TerminalText.forTerminal(line) + "\n", to: STDOUT_FILENO) },
        err: { line in write(TerminalText.forTerminal(line) + "\n", to: STDERR_FILENO) })

    /// Writes `text` whole to the file descriptor `fd`, going on after a signal; an error (a
    /// closed pipe) drops the rest. Not through `Data`: making one from a string's bytes asks
    /// the runtime whether they are contiguous bytes, a search of every protocol conformance of
    /// the binary on the first call of each process.
    static func write(_ text: String, to fd: Int32) {
        var text = text
        text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return }
            var offset = 0
            while offset < bytes.count {
                let written = Foundation.write(fd, base + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}

extension Console {
    /// Draws a transient line on the terminal (carriage return, clear to end of line), or
    /// clears it when `text` is nil.
    @Sendable static func progressLine(_ text: String?) {
        let line = "\r\u{1B}[K" + TerminalText.sanitized(text ?? "")
        write(line, to: STDOUT_FILENO)
    }
}
