import Foundation

/// One REPL command as help describes it.
struct CommandHelp: Sendable, Equatable {
    /// The words that invoke it (`help`), the first being its name.
    let names: [String]
    /// The synopsis (`help [command]`).
    let usage: String
    /// One sentence on what it does.
    let summary: String
    /// A line to try.
    let example: String

    var name: String { names[0] }
}

/// The commands this build of the REPL offers, in the order `help` lists them.
enum CommandCatalog {
    static let all: [CommandHelp] = [
        CommandHelp(
            names: ["help"], usage: "help [command]",
            summary: "list the commands, or show one command's usage and an example",
            example: "help history"),
        CommandHelp(
            names: ["history"], usage: "history",
            summary: "show the lines entered in earlier interactive sessions, oldest first",
            example: "history"),
        CommandHelp(
            names: ["quit", "exit"], usage: "quit | exit | Ctrl-D",
            summary: "leave Tidings (the history is already saved)",
            example: "quit"),
    ]

    /// Every word that names a command, for completion and suggestions.
    static var words: [String] { all.flatMap(\.names) }

    /// The command a word names.
    static func command(named word: String) -> CommandHelp? {
        all.first { $0.names.contains(word.lowercased()) }
    }

    /// The REPL commands as a block of text, for `help` and `tidings --help`.
    static var overview: String {
        let width = all.map(\.usage.count).max() ?? 0
        return all.map { "  " + $0.usage.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.summary }
            .joined(separator: "\n")
    }
}
