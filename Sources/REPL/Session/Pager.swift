import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Long output through the user's pager, as git and man do: `$PAGER` (default `less -R`, with
/// `LESS=FRX` unless the user set `LESS`), only when standard output is a terminal and the text
/// is longer than the screen. The pager holds the terminal while it runs (see `TerminalJob`).
enum Pager {
    /// Pages `text` and returns `true`, or returns `false` (the caller prints it) when standard
    /// output is not a terminal, the text fits the screen, or no pager could be started.
    static func page(_ text: String, environment: [String: String], command pager: String? = nil) -> Bool {
        guard isatty(STDOUT_FILENO) != 0, let screen = Display.terminalSize() else { return false }
        let rows = text.split(separator: "\n", omittingEmptySubsequences: false).reduce(0) { total, line in
            total + max(1, (DisplayWidth.of(line) + screen.columns - 1) / screen.columns)
        }
        guard rows >= screen.rows else { return false }
        let command =
            pager ?? environment["PAGER"].flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
            ?? "less -R"
        var variables = environment
        if variables["LESS"] == nil { variables["LESS"] = "FRX" }
        guard let job = try? TerminalJob(script: command, environment: variables).start(feedingInput: true) else {
            return false
        }
        job.finish(writing: Data((TerminalText.forTerminal(text) + "\n").utf8))
        return true
    }
}
