import Config
import Foundation
import Models

/// `config show|refresh|get`.
struct ConfigCommands {
    let context: CommandContext

    static let commands: [Command] = [
        Command(
            ["config"], usage: "config show|refresh|get", summary: "the remote configuration", example: "config show",
            requires: .database, action: nil),
        Command(
            ["config show"], usage: "config show",
            summary: "every key with its value and source, the minimum version and the last refresh",
            example: "config show", requires: .database
        ) { await ConfigCommands(context: $0.context).show() },
        Command(
            ["config refresh"], usage: "config refresh",
            summary: "fetch the remote config now, activate and keep it, print the changed keys",
            example: "config refresh", requires: .database
        ) {
            var output = try await ConfigCommands(context: $0.context).refresh()
            output.notice = $0.context.updateBanner()
            return output
        },
        Command(
            ["config get"], usage: "config get <key>", summary: "one value (nested keys with dots)",
            example: "config get features.fullTextSearch", arguments: [.init(name: "key", kind: .configKey)],
            requires: .database
        ) { try ConfigCommands(context: $0.context).get($0.text("key") ?? "") },
    ]

    private func show() async -> CommandOutput {
        let provider = context.config
        let entries = provider.entries
        var table = Table(columns: [.init(title: "KEY"), .init(title: "VALUE", flexible: true), .init(title: "SOURCE")])
        table.rows = entries.map { [$0.key, $0.value.description, $0.source.rawValue] }
        let required = provider.isUpdateRequired(appVersion: context.appVersion)
        let minimum = provider.minVersion?.description
        var lines = [table.render(context.display), ""]
        lines.append(
            "config url:      \(provider.configURL?.absoluteString ?? "none (the bundled values are in force)")")
        lines.append(
            "minimum version: \(minimum ?? "none")" + (provider.minVersionProblem.map { " (\($0))" } ?? ""))
        lines.append(
            "this version:    \(context.appVersion)"
                + (required ? " — " + context.display.styled("update required", "31") : " (no update required)"))
        let lastAttempt = await provider.lastAttempt()
        if let last = lastAttempt {
            lines.append("last refresh:    \(RFC3339.string(from: last.at)) (\(last.result))")
        } else {
            lines.append("last refresh:    never")
        }
        if let problem = provider.cacheProblem {
            lines.append("cache problem:   " + (problem.errorDescription ?? "\(problem)"))
        }
        let json = JSONValue.object([
            "values": .array(
                entries.map {
                    .object(["key": .string($0.key), "value": $0.value, "source": .string($0.source.rawValue)])
                }),
            "min_version": .string(minimum), "app_version": .string(context.appVersion.description),
            "update_required": .bool(required), "config_url": .string(provider.configURL?.absoluteString),
            "last_refresh": lastAttempt.map { .object(["at": .date($0.at), "result": .string($0.result)]) }
                ?? .null,
        ])
        return CommandOutput(text: lines.joined(separator: "\n"), json: json)
    }

    private func refresh() async throws -> CommandOutput {
        if let problem = context.configURLProblem { throw CommandError.usage(problem) }
        let outcome = await context.config.refresh(force: true)
        switch outcome {
        case .failed(.cancelled):
            throw CancellationError()
        case .failed(let error):
            throw CommandError(
                code: "config_refresh_failed",
                message: "config refresh failed: \(error.errorDescription ?? "\(error)"); keeping the current values")
        case .throttled(let until):
            throw CommandError(
                code: "config_refresh_failed", message: "config refresh throttled until \(RFC3339.string(from: until))")
        case .notModified:
            return CommandOutput(
                text: "config not modified", json: .object(["changed": .array([]), "not_modified": .bool(true)]))
        case .updated(let keys):
            let text =
                keys.isEmpty
                ? "config refreshed: no keys changed" : "config refreshed: changed " + keys.joined(separator: ", ")
            return CommandOutput(
                text: text, json: .object(["changed": .array(keys.map { .string($0) }), "not_modified": .bool(false)]))
        }
    }

    private func get(_ key: String) throws -> CommandOutput {
        guard let value = context.config.value(forKey: key) else {
            let keys = context.config.entries.map(\.key)
            let hint = Suggestion.nearest(to: key, in: keys).map { " (did you mean \"\($0)\"?)" } ?? ""
            throw CommandError(code: "not_found", message: "no config key \"\(key)\"\(hint)")
        }
        return CommandOutput(
            text: "\(value.value.description)  (\(value.source.rawValue))",
            json: .object([
                "key": .string(key), "value": value.value, "source": .string(value.source.rawValue),
                "fetched_at": .date(value.fetchedAt),
            ]))
    }
}
