import Foundation
import Models

/// `help`, `history` and `quit`: the commands about the session itself.
enum SessionCommands {
    static let commands: [Command] = [
        Command(
            ["help"], usage: "help [command]",
            summary: "list the commands, or show one command's usage and an example", example: "help feed add",
            arguments: [.init(name: "command", kind: .commandName, count: .many)], requires: .nothing
        ) { try help($0) },
        Command(
            ["history"], usage: "history",
            summary: "show the lines entered in earlier interactive sessions, oldest first", example: "history",
            requires: .nothing
        ) { history($0.history) },
        Command(
            ["quit", "exit"], usage: "quit | exit | Ctrl-D", summary: "leave Tidings (the history is already saved)",
            example: "quit", requires: .nothing
        ) { _ in
            var output = CommandOutput(text: "", json: .object(["ok": .bool(true)]))
            output.endsSession = true
            return output
        },
    ]

    private static func history(_ entries: [String]) -> CommandOutput {
        let width = String(entries.count).count
        let text = entries.enumerated().map { index, entry in
            String(repeating: " ", count: width - String(index + 1).count) + "\(index + 1)  \(entry)"
        }.joined(separator: "\n")
        return CommandOutput(text: text, json: .object(["history": .array(entries.map(JSONValue.string))]))
    }

    private static func help(_ input: CommandInput) throws -> CommandOutput {
        let display = input.context.display
        guard !input.positional.isEmpty else {
            let commands = CommandCatalog.all.map { command -> JSONValue in
                .object([
                    "name": .string(command.name), "usage": .string(command.usage), "summary": .string(command.summary),
                ])
            }
            return CommandOutput(
                text: "Commands:\n" + CommandCatalog.overview(width: display.width)
                    + "\n\nType \"help <command>\" for its usage and an example.",
                json: .object(["commands": .array(commands)]))
        }
        let topic = input.positional.joined(separator: " ")
        guard let command = CommandCatalog.command(named: topic) else {
            guard input.positional.count <= 3 else {
                throw CommandError.usage("help takes a command name, like \"help feed add\"")
            }
            throw CommandError.unknownCommand(topic, candidates: CommandCatalog.all.map(\.name))
        }
        let related = command.isGroup ? CommandCatalog.all.filter { $0.group == command.group && !$0.isGroup } : []
        let summary = TextWrap.wrap(command.summary, width: display.width)
        var text = "usage: \(command.usage)\n\(summary)\nexample: \(command.example)"
        if !related.isEmpty { text += "\n\n" + related.map { "  \($0.usage)" }.joined(separator: "\n") }
        return CommandOutput(
            text: text,
            json: .object([
                "name": .string(command.name), "usage": .string(command.usage), "summary": .string(command.summary),
                "example": .string(command.example),
            ]))
    }
}
