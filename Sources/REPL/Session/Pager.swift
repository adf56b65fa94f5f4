import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Long output through the user's pager, as git and man do: `$PAGER` (default `less -R`, with
/// `LESS=FRX` unless the user set `LESS`), only when standard output is a terminal and the text
/// is longer than the screen.
enum Pager {
    /// Pages `text` and returns `true`, or returns `false` (the caller prints it) when standard
    /// output is not a terminal, the text fits the screen, or no pager could be started.
    static func page(_ text: String, environment: [String: String]) -> Bool {
        guard isatty(STDOUT_FILENO) != 0, let screen = Display.terminalSize() else { return false }
        let rows = text.split(separator: "\n", omittingEmptySubsequences: false).reduce(0) { total, line in
            total + max(1, (DisplayWidth.of(line) + screen.columns - 1) / screen.columns)
        }
        guard rows >= screen.rows else { return false }
        let command =
            environment["PAGER"].flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
            ?? "less -R"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        var variables = environment
        if variables["LESS"] == nil { variables["LESS"] = "FRX" }
        process.environment = variables
        let input = Pipe()
        process.standardInput = input
        do {
            try process.run()
        } catch {
            return false
        }
        // A pager that quits early closes the pipe: ignore SIGPIPE while writing to it.
        let previous = signal(SIGPIPE, SIG_IGN)
        try? input.fileHandleForWriting.write(contentsOf: Data((TerminalText.forTerminal(text) + "\n").utf8))
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        signal(SIGPIPE, previous)
        return true
    }
}
