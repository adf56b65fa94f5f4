/// Why a command did not run, with the code `--json` reports and the exit status a script
/// ends with.
struct CommandError: Error, Equatable {
    /// A stable machine-readable code (`unknown_command`).
    let code: String
    /// One sentence for the user.
    let message: String
    /// 1 for a failed command, 2 for a usage error, 3 for a refusal by the version gate.
    var exitStatus: Int32 = 1

    /// An unknown command, with the nearest of `candidates` (the command words, or for `help`
    /// every command name, sub-commands included) suggested.
    static func unknownCommand(_ word: String, candidates: [String] = CommandCatalog.words) -> CommandError {
        let hint = Suggestion.nearest(to: word, in: candidates).map { " (did you mean \"\($0)\"?)" } ?? ""
        return CommandError(
            code: "unknown_command", message: "unknown command \"\(word)\"\(hint); type \"help\" for the list")
    }

    static func usage(_ message: String) -> CommandError {
        CommandError(code: "usage", message: message)
    }
}
