import Config
import Foundation
import Models

/// `config show|refresh|get`.
struct ConfigCommands {
    let context: CommandContext

    static let subcommands = ["show", "refresh", "get"]

    func run(_ words: [String]) async throws -> CommandOutput {
        guard let sub = words.first?.lowercased() else {
            throw CommandError.usage("config needs a sub-command: show, refresh, get; try \"help config\"")
        }
        let rest = Array(words.dropFirst())
        switch sub {
        case "show":
            try ArgumentList(rest, command: "config show").expectPositional(atMost: 0, usage: "config show")
            return await show()
        case "refresh":
            try ArgumentList(rest, command: "config refresh").expectPositional(atMost: 0, usage: "config refresh")
            return try await refresh()
        case "get":
            let arguments = try ArgumentList(rest, command: "config get")
            try arguments.expectPositional(atMost: 1, usage: "config get <key>")
            return try get(try arguments.positional(0, name: "key", usage: "config get <key>"))
        default:
            let hint = Suggestion.nearest(to: sub, in: Self.subcommands).map { " (did you mean \"config \($0)\"?)" }
            throw CommandError.usage("config has no sub-command \"\(sub)\"\(hint ?? "")")
        }
    }

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
