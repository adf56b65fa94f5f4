import Config
import Feed
import Foundation
import Models

/// Runs one command against the services: the part of a session that may be cancelled
/// (Ctrl-C) while it runs.
struct CommandRunner: Sendable {
    let context: CommandContext
    let historyEntries: [String]

    /// Finds the command `words` name in the catalogue, checks its words against its declaration
    /// and what it requires (a usable database, no update required), and runs it.
    func run(_ typed: [String]) async throws -> CommandOutput {
        let words = await expandingAlias(typed)
        let (command, rest) = try CommandCatalog.resolve(words)
        if command.requires >= .currentVersion, context.config.isUpdateRequired(appVersion: context.appVersion) {
            let minimum = context.config.minVersion.map { "\($0)" } ?? "a newer version"
            throw CommandError(
                code: "update_required",
                message:
                    "update required: this is Tidings \(context.appVersion) and the configuration requires \(minimum); "
                    + "\"\(words[0].lowercased())\" is refused until you update (config commands still work)",
                exitStatus: 3)
        }
        if command.requires >= .database, let problem = context.databaseProblem() {
            throw CommandError(code: "database_gone", message: problem)
        }
        let arguments = try ArgumentList(
            rest, command: command.name, options: command.optionKinds, literalAfter: command.literalAfter)
        try command.checkCount(arguments.positional)
        guard let action = command.action else { throw CommandError.unknownCommand(command.name) }
        // Enter continues only what the last command showed (an article, a page).
        context.reading.interrupted()
        return try await action(
            CommandInput(command: command, context: context, arguments: arguments, history: historyEntries))
    }
}

extension CommandRunner {
    /// `typed` with an alias in its first word replaced by the words it stands for (once: an
    /// alias names a command, never another alias). A command's own word is never an alias, and
    /// only a word that is no command costs a look in the database.
    func expandingAlias(_ typed: [String]) async -> [String] {
        guard let first = typed.first?.lowercased(), !CommandCatalog.words.contains(first),
            let stored = await context.settings?.value("alias." + first)
        else { return typed }
        let words = SettingCommands.words(stored)
        return words.isEmpty ? typed : words + typed.dropFirst()
    }
}

extension CommandContext {
    /// The banner shown when the configuration requires a newer version; `nil` otherwise.
    func updateBanner() -> String? {
        guard config.isUpdateRequired(appVersion: appVersion), let minimum = config.minVersion else { return nil }
        return display.styled(
            "*** Update required: this is Tidings \(appVersion), and the configuration requires \(minimum) or later. "
                + "Feed, item and task commands are refused until then. ***", "1;31")
    }
}
