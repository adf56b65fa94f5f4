import Chores
import Feed
import Foundation
import Models

/// `task sync`, `task sync status`, `task sync setup <collection-url> [--user NAME] [--list NAME]`,
/// `task sync stop [--list NAME]`.
struct ChoreSyncCommands {
    let context: CommandContext

    private var service: ChoreSyncService { context.choreSync }

    static let commands: [Command] = [
        Command(
            ["task sync"], usage: "task sync",
            summary:
                "two-way sync of the tasks with the CalDAV collection set up, then what was sent, received and deleted, and the conflicts",
            example: "task sync"
        ) { try await ChoreSyncCommands(context: $0.context).sync($0) },
        Command(
            ["task sync status"], usage: "task sync status", summary: "the CalDAV set-up and the last sync",
            example: "task sync status"
        ) { try await ChoreSyncCommands(context: $0.context).status($0) },
        Command(
            ["task sync setup"], aliases: ["task sync set-up"],
            usage: "task sync setup <collection-url> [--user NAME] [--list NAME]",
            summary:
                "share the tasks through a CalDAV calendar collection (checked first), or with --list one list through a collection of its own; the password comes from ~/.netrc or $TIDINGS_CALDAV_PASSWORD and is never stored",
            example: "task sync setup https://dav.example.org/alice/groceries/ --user alice --list groceries",
            arguments: [.init(name: "collection-url", kind: .text)],
            options: [.value("user"), .value("list", .taskList)]
        ) { try await ChoreSyncCommands(context: $0.context).setUp($0) },
        Command(
            ["task sync stop"], usage: "task sync stop [--list NAME]",
            summary:
                "stop sharing the tasks (the tasks stay here and on the server), or with --list only that list's own collection",
            example: "task sync stop --list groceries",
            options: [.value("list", .taskList)]
        ) { try await ChoreSyncCommands(context: $0.context).stop($0) },
    ]

    private func sync(_ input: CommandInput) async throws -> CommandOutput {
        let summary: ChoreSyncSummary
        do {
            summary = try await service.sync()
        } catch {
            throw Self.commandError(error)
        }
        return Self.output(summary)
    }

    /// A summary as printed: the counts, then each conflict and each chore skipped.
    static func output(_ summary: ChoreSyncSummary) -> CommandOutput {
        var lines = ["synced: " + summary.line]
        for conflict in summary.conflicts {
            lines.append("conflict: \"\(TerminalText.sanitized(conflict.task))\": \(conflict.resolution)")
        }
        for problem in summary.problems {
            lines.append("skipped: \(TerminalText.sanitized(problem.href)): \(TerminalText.sanitized(problem.reason))")
        }
        let json = JSONValue.object([
            "sent": .int(summary.sent), "received": .int(summary.received), "deleted": .int(summary.deleted),
            "conflicts": .array(
                summary.conflicts.map {
                    .object([
                        "task": .string($0.task), "fields": .array($0.fields.map { .string($0) }),
                        "resolution": .string($0.resolution),
                        "discarded": .object($0.discarded.mapValues { .string($0) }),
                    ])
                }),
            "skipped": .array(
                summary.problems.map { .object(["href": .string($0.href), "reason": .string($0.reason)]) }),
        ])
        return CommandOutput(text: lines.joined(separator: "\n"), json: json)
    }

    private func status(_ input: CommandInput) async throws -> CommandOutput {
        let statuses: [ChoreSyncStatus]
        do {
            statuses = try await service.statuses()
        } catch {
            throw Self.commandError(error)
        }
        // The top level is the other lists' collection, as it was before lists had their own.
        let unshared: [String: JSONValue] = [
            "url": .null, "user": .null, "last_sync": .null, "shared": .int(0), "pending": .int(0),
        ]
        guard !statuses.isEmpty else {
            var object = unshared
            object["lists"] = .array([])
            return CommandOutput(
                text: "chores are not shared: set up a CalDAV collection with \"task sync setup <collection-url>\"",
                json: .object(object))
        }
        var lines: [String] = []
        for status in statuses {
            let which = status.list.map { "the list \"\(TerminalText.sanitized($0))\"" } ?? "chores"
            if !lines.isEmpty { lines.append("") }
            lines.append("sharing \(which) with \(status.url.absoluteString) as \(TerminalText.sanitized(status.user))")
            if let at = status.lastSyncAt {
                lines.append("last sync: \(context.clock(at)), \(TerminalText.sanitized(status.lastResult ?? ""))")
            } else {
                lines.append("not synced yet: run \"task sync\"")
            }
            lines.append(
                "\(status.shared) \(status.shared == 1 ? "task" : "tasks") shared, \(status.pending) \(status.pending == 1 ? "change" : "changes") to send"
            )
        }
        func json(_ status: ChoreSyncStatus) -> [String: JSONValue] {
            [
                "url": .url(status.url), "user": .string(status.user),
                "last_sync": status.lastSyncAt.map { .object(["at": .date($0), "result": .string(status.lastResult)]) }
                    ?? .null,
                "shared": .int(status.shared), "pending": .int(status.pending),
            ]
        }
        var object = statuses.first { $0.list == nil }.map(json) ?? unshared
        object["lists"] = .array(
            statuses.filter { $0.list != nil }.map { status in
                var entry = json(status)
                entry["list"] = .string(status.list)
                return .object(entry)
            })
        return CommandOutput(text: lines.joined(separator: "\n"), json: .object(object))
    }

    private func setUp(_ input: CommandInput) async throws -> CommandOutput {
        let (arguments, usage) = (input.arguments, input.usage)
        let text = input.text("collection-url") ?? ""
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            url.host?.isEmpty == false
        else {
            throw CommandError(code: "invalid_url", message: "\"\(text)\" is not an http or https URL of a collection")
        }
        let user = arguments.value("user").flatMap { $0.isEmpty ? nil : $0 }
        let list = arguments.value("list")
        let name: String?
        do {
            name = try await service.setUp(collection: url, user: user, list: list)
        } catch .remote(let reason) where reason.hasPrefix("TIDINGS_CALDAV_PASSWORD is set but no user") {
            throw CommandError.usage("TIDINGS_CALDAV_PASSWORD is set but no user is named; usage: \(usage)")
        } catch {
            throw Self.commandError(error)
        }
        let statuses = (try? await service.statuses()) ?? []
        // The collection just set up: the one of that list (in any case), or of the other lists.
        let named = list?.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard let status = statuses.first(where: { $0.list?.lowercased() == named }) else {
            return .ok("sharing chores with \(url.absoluteString)")
        }
        let displayName = name.map { " (\"\(TerminalText.sanitized($0))\")" } ?? ""
        let which = status.list.map { "the list \"\(TerminalText.sanitized($0))\"" } ?? "chores"
        var line =
            "sharing \(which) with \(status.url.absoluteString)\(displayName) as \(TerminalText.sanitized(status.user)); run \"task sync\" to sync now"
        if status.list == nil, statuses.count > 1 { line += " (the lists with collections of their own stay there)" }
        var json: [String: JSONValue] = ["ok": .bool(true), "url": .url(status.url), "user": .string(status.user)]
        json["list"] = status.list.map { .string($0) } ?? .null
        return CommandOutput(text: line, json: .object(json))
    }

    private func stop(_ input: CommandInput) async throws -> CommandOutput {
        let list = input.arguments.value("list")
        do {
            try await service.stopSharing(list: list)
        } catch {
            throw Self.commandError(error)
        }
        let text =
            if let list {
                "the list \"\(TerminalText.sanitized(list))\" has no collection of its own any more: its tasks go to the other lists' collection at the next sync, if one is set up"
            } else {
                "chores are not shared any more; the tasks stay here and on the server"
            }
        return CommandOutput(text: text, json: .object(["ok": .bool(true), "list": list.map { .string($0) } ?? .null]))
    }


    static func commandError(_ error: ChoreSyncError) -> CommandError {
        switch error {
        case .notSetUp: CommandError(code: "not_set_up", message: error.description)
        case .invalid: CommandError(code: "invalid", message: error.description)
        case .remote: CommandError(code: "sync_failed", message: error.description)
        case .storage: CommandError(code: "storage", message: error.description)
        }
    }
}
