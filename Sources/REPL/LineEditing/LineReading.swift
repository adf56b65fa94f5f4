/// A source of input lines for an interactive session.
protocol LineReading {
    /// Shows `prompt` and returns the next line without its newline; `nil` at end of input.
    /// Blocks the calling thread until a line is complete.
    func readLine(prompt: String) -> String?
    /// Makes a line recallable with Up/Down for the rest of the session.
    func remember(_ line: String)
    /// Gets ready for the next line (loads what completion offers).
    func prepare() async
}

extension LineReading {
    /// Nothing to prepare by default.
    func prepare() async {}
}
