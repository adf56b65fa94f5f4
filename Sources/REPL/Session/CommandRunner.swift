import Config
import Feed
import Foundation
import Models

/// Runs one command against the services: the part of a session that may be cancelled
/// (Ctrl-C) while it runs.
struct CommandRunner: Sendable {
    let context: CommandContext
    let console: Console
    let historyEntries: [String]

    /// The banner shown when the configuration requires a newer version; `nil` otherwise.
    func updateBanner() -> String? {
        guard context.config.isUpdateRequired(appVersion: context.appVersion), let minimum = context.config.minVersion
        else {
            return nil
        }
        return context.display.styled(
            "*** Update required: this is Tidings \(context.appVersion), and the configuration requires \(minimum) or later. "
                + "Feed, item and task commands are refused until then. ***", "1;31")
    }

    private static let gated: Set<String> = ["feed", "items", "item", "read", "task"]

    func run(_ command: String, _ arguments: [String]) async throws -> CommandOutput {
        if Self.gated.contains(command), context.config.isUpdateRequired(appVersion: context.appVersion) {
            let minimum = context.config.minVersion.map { "\($0)" } ?? "a newer version"
            throw CommandError(
                code: "update_required",
                message:
                    "update required: this is Tidings \(context.appVersion) and the configuration requires \(minimum); "
                    + "\"\(command)\" is refused until you update (config commands still work)",
                exitStatus: 3)
        }
        if command != "help" && command != "history", let problem = context.databaseProblem() {
            throw CommandError(code: "database_gone", message: problem)
        }
        switch command {
        case "help": return try help(arguments)
        case "history": return try showHistory(arguments)
        case "feed": return try await FeedCommands(context: context).run(arguments)
        case "items": return try await ItemCommands(context: context).items(arguments)
        case "item": return try await ItemCommands(context: context).item(arguments)
        case "read": return try await ItemCommands(context: context).show(arguments)
        case "task": return try await TaskCommands(context: context).run(arguments)
        case "config":
            let output = try await ConfigCommands(context: context).run(arguments)
            if arguments.first?.lowercased() == "refresh", let banner = updateBanner() { console.err(banner) }
            return output
        default: throw CommandError.unknownCommand(command)
        }
    }

    private func showHistory(_ arguments: [String]) throws -> CommandOutput {
        try ArgumentList(arguments, command: "history").expectPositional(atMost: 0, usage: "history")
        let entries = historyEntries
        let width = String(entries.count).count
        let text = entries.enumerated().map { index, entry in
            String(repeating: " ", count: width - String(index + 1).count) + "\(index + 1)  \(entry)"
        }.joined(separator: "\n")
        return CommandOutput(text: text, json: .object(["history": .array(entries.map(JSONValue.string))]))
    }

    private func help(_ arguments: [String]) throws -> CommandOutput {
        guard !arguments.isEmpty else {
            let commands = CommandCatalog.all.map { command -> JSONValue in
                .object([
                    "name": .string(command.name), "usage": .string(command.usage), "summary": .string(command.summary),
                ])
            }
            return CommandOutput(
                text: "Commands:\n" + CommandCatalog.overview(width: context.display.width)
                    + "\n\nType \"help <command>\" for its usage and an example.",
                json: .object(["commands": .array(commands)]))
        }
        let topic = arguments.joined(separator: " ")
        guard let command = CommandCatalog.command(named: topic) else {
            guard arguments.count <= 2 else {
                throw CommandError.usage("help takes a command name, like \"help feed add\"")
            }
            throw CommandError.unknownCommand(topic, candidates: CommandCatalog.all.map(\.name))
        }
        let related = CommandCatalog.all.filter {
            $0.group == command.group && $0.name != command.name && command.isGroup
        }
        let summary = TextWrap.wrap(command.summary, width: context.display.width)
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
