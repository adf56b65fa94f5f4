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
        out: { line in FileHandle.standardOutput.write(Data((TerminalText.forTerminal(line) + "\n").utf8)) },
        err: { line in FileHandle.standardError.write(Data((TerminalText.forTerminal(line) + "\n").utf8)) })
}

extension Console {
    /// Draws a transient line on the terminal (carriage return, clear to end of line), or
    /// clears it when `text` is nil.
    @Sendable static func progressLine(_ text: String?) {
        let line = "\r\u{1B}[K" + TerminalText.sanitized(text ?? "")
        FileHandle.standardOutput.write(Data(line.utf8))
    }
}
