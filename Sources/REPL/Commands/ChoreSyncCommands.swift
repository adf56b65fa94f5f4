import Chores
import Feed
import Foundation
import Models

/// `task sync`, `task sync status`, `task sync setup <collection-url> [--user NAME]`.
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
            ["task sync setup"], aliases: ["task sync set-up"], usage: "task sync setup <collection-url> [--user NAME]",
            summary:
                "share the tasks through a CalDAV calendar collection (checked first); the password comes from ~/.netrc or $TIDINGS_CALDAV_PASSWORD and is never stored",
            example: "task sync setup https://dav.example.org/alice/chores/ --user alice",
            arguments: [.init(name: "collection-url", kind: .text)], options: [.value("user")]
        ) { try await ChoreSyncCommands(context: $0.context).setUp($0) },
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
        let found: ChoreSyncStatus?
        do {
            found = try await service.status()
        } catch {
            throw Self.commandError(error)
        }
        guard let status = found else {
            return CommandOutput(
                text: "chores are not shared: set up a CalDAV collection with \"task sync setup <collection-url>\"",
                json: .object(["url": .null, "user": .null, "last_sync": .null, "shared": .int(0), "pending": .int(0)]))
        }
        var lines = ["sharing chores with \(status.url.absoluteString) as \(TerminalText.sanitized(status.user))"]
        if let at = status.lastSyncAt {
            lines.append("last sync: \(clock(at)), \(TerminalText.sanitized(status.lastResult ?? ""))")
        } else {
            lines.append("not synced yet: run \"task sync\"")
        }
        lines.append(
            "\(status.shared) \(status.shared == 1 ? "task" : "tasks") shared, \(status.pending) \(status.pending == 1 ? "change" : "changes") to send"
        )
        let lastSync: JSONValue =
            status.lastSyncAt.map { .object(["at": .date($0), "result": .string(status.lastResult)]) } ?? .null
        return CommandOutput(
            text: lines.joined(separator: "\n"),
            json: .object([
                "url": .url(status.url), "user": .string(status.user), "last_sync": lastSync,
                "shared": .int(status.shared), "pending": .int(status.pending),
            ]))
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
        let name: String?
        do {
            name = try await service.setUp(collection: url, user: user)
        } catch .remote(let reason) where reason.hasPrefix("TIDINGS_CALDAV_PASSWORD is set but no user") {
            throw CommandError.usage("TIDINGS_CALDAV_PASSWORD is set but no user is named; usage: \(usage)")
        } catch {
            throw Self.commandError(error)
        }
        guard let status = try? await service.status() else {
            return .ok("sharing chores with \(url.absoluteString)")
        }
        let named = name.map { " (\"\(TerminalText.sanitized($0))\")" } ?? ""
        return CommandOutput(
            text:
                "sharing chores with \(status.url.absoluteString)\(named) as \(TerminalText.sanitized(status.user)); run \"task sync\" to sync now",
            json: .object(["ok": .bool(true), "url": .url(status.url), "user": .string(status.user)]))
    }

    /// `2026-11-23 12:00` in the user's time zone.
    private func clock(_ date: Date) -> String {
        let parts = context.calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return String(
            format: "%04d-%02d-%02d %02d:%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0,
            parts.minute ?? 0)
    }

    static func commandError(_ error: ChoreSyncError) -> CommandError {
        switch error {
        case .notSetUp: CommandError(code: "not_set_up", message: error.description)
        case .remote: CommandError(code: "sync_failed", message: error.description)
        case .storage: CommandError(code: "storage", message: error.description)
        }
    }
}
