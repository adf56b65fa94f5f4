import Accounts
import Foundation
import Models

/// `account add fever <url> [--user NAME]`, `account list`, `account remove <ID>`,
/// `account sync [ID]`, `account status`: feed accounts, whose server owns the subscriptions
/// and fetches the feeds.
struct AccountCommands {
    let context: CommandContext

    static let commands: [Command] = [
        Command(
            ["account"], usage: "account add|list|remove|sync|status",
            summary: "feed accounts: a feed server (the Fever API) that keeps the subscriptions and fetches the feeds",
            example: "account list", action: nil),
        Command(
            ["account add"], usage: "account add <kind> <url> [--user NAME]",
            summary:
                "add the account of a feed server, checked first; the kind is fever (the Fever API of FreshRSS, Miniflux, Coldsweat…); the password comes from ~/.netrc or $TIDINGS_FEVER_PASSWORD and is never stored",
            example: "account add fever https://rss.example.org/api/fever.php --user alice",
            arguments: [.init(name: "kind", kind: .choice(["fever"])), .init(name: "url", kind: .text)],
            options: [.value("user")]
        ) { try await AccountCommands(context: $0.context).add($0) },
        Command(
            ["account list"], aliases: ["account ls"], usage: "account list",
            summary: "the accounts: server, user, feeds, marks to send, last sync", example: "account list"
        ) { try await AccountCommands(context: $0.context).list($0) },
        Command(
            ["account remove"], aliases: ["account rm"], usage: "account remove <ID>",
            summary: "remove an account with its feeds and their items here (the server keeps them)",
            example: "account remove 1", arguments: [.init(name: "ID", kind: .text)]
        ) { try await AccountCommands(context: $0.context).remove($0) },
        Command(
            ["account sync"], usage: "account sync [ID]",
            summary:
                "two-way sync of one account (all without an ID): the marks made here sent, then the server's feeds, new items, and read and starred states",
            example: "account sync", arguments: [.init(name: "ID", kind: .text, count: .optional)]
        ) { try await AccountCommands(context: $0.context).sync($0) },
        Command(
            ["account status"], usage: "account status",
            summary: "each account's last sync, or why it stopped, and the marks waiting to be sent",
            example: "account status"
        ) { try await AccountCommands(context: $0.context).status($0) },
    ]

    private var service: AccountService {
        get throws {
            guard let accounts = context.accounts else {
                throw CommandError(code: "unavailable", message: "feed accounts need the database")
            }
            return accounts
        }
    }

    private func add(_ input: CommandInput) async throws -> CommandOutput {
        let kind = input.text("kind") ?? ""
        let text = input.text("url") ?? ""
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            url.host?.isEmpty == false
        else {
            throw CommandError(code: "invalid_url", message: "\"\(TerminalText.sanitized(text))\" is not an http or https URL")
        }
        let user = input.arguments.value("user").flatMap { $0.isEmpty ? nil : $0 }
        let account: FeedAccount
        do {
            account = try await service.add(kind: kind, endpoint: url, user: user)
        } catch let error as AccountError {
            throw Self.commandError(error)
        }
        return CommandOutput(
            text:
                "added account #\(account.id): \(TerminalText.sanitized(account.user)) at \(TerminalText.sanitized(account.endpoint.absoluteString)); run \"account sync\" to fetch its feeds",
            json: .object(["account": Self.json(account)]))
    }

    private func list(_ input: CommandInput) async throws -> CommandOutput {
        let accounts = try await all()
        guard !accounts.isEmpty else {
            return Self.noAccounts("no accounts")
        }
        var table = Table(columns: [
            .init(title: "ID", alignRight: true), .init(title: "KIND"), .init(title: "USER"),
            .init(title: "SERVER", flexible: true), .init(title: "FEEDS", alignRight: true),
            .init(title: "TO SEND", alignRight: true), .init(title: "LAST SYNC"),
        ])
        for account in accounts {
            table.rows.append([
                "#\(account.id)", account.kind, account.user, account.endpoint.absoluteString, "\(account.feeds)",
                "\(account.pendingMarks)",
                account.problem != nil ? "failed" : account.syncedAt.map(context.clock) ?? "never",
            ])
        }
        return CommandOutput(
            text: table.render(context.display), json: .object(["accounts": .array(accounts.map(Self.json))]))
    }

    private func remove(_ input: CommandInput) async throws -> CommandOutput {
        let id = try input.id("ID")
        let account = try await all().first { $0.id == id }
        do {
            try await service.remove(id: id)
        } catch let error as AccountError {
            throw Self.commandError(error)
        }
        let feeds = account?.feeds ?? 0
        return CommandOutput(
            text: "removed account #\(id) and its \(feeds) \(feeds == 1 ? "feed" : "feeds") (the server keeps them)",
            json: .object(["ok": .bool(true), "id": .int(id)]))
    }

    private func sync(_ input: CommandInput) async throws -> CommandOutput {
        let id = try input.positional.isEmpty ? nil : input.id("ID")
        let results: [(account: FeedAccount, result: Result<AccountSyncSummary, AccountError>)]
        do {
            results = try await service.sync(id: id)
        } catch let error as AccountError {
            throw Self.commandError(error)
        }
        guard !results.isEmpty else {
            return Self.noAccounts("no accounts to sync")
        }
        let (lines, entries, failed) = Self.report(results)
        return CommandOutput(
            text: lines.joined(separator: "\n"), json: .object(["accounts": .array(entries)]),
            failure: failed > 0 ? CommandError(code: "sync_failed", message: "an account did not sync") : nil)
    }

    /// Each account's outcome as lines and JSON entries, and how many failed.
    static func report(_ results: [(account: FeedAccount, result: Result<AccountSyncSummary, AccountError>)])
        -> (lines: [String], entries: [JSONValue], failed: Int)
    {
        var lines: [String] = []
        var entries: [JSONValue] = []
        var failed = 0
        for (account, result) in results {
            switch result {
            case .success(let summary):
                lines.append("account #\(account.id): " + Self.line(summary))
                for reason in summary.skipped { lines.append("  skipped: \(TerminalText.sanitized(reason))") }
                entries.append(
                    .object([
                        "id": .int(account.id), "marks_sent": .int(summary.marksSent),
                        "marks_dropped": .int(summary.marksDropped), "feeds_added": .int(summary.feedsAdded),
                        "feeds_removed": .int(summary.feedsRemoved), "new_items": .int(summary.newItems),
                        "read_changed": .int(summary.states.read), "starred_changed": .int(summary.states.starred),
                        "skipped": .int(summary.skippedCount), "error": .null,
                    ]))
            case .failure(let error):
                failed += 1
                let message = TerminalText.sanitized(error.errorDescription ?? "\(error)")
                lines.append("account #\(account.id): failed: \(message); the marks made here wait for the next sync")
                entries.append(.object(["id": .int(account.id), "error": .string(error.errorDescription ?? "\(error)")]))
            }
        }
        return (lines, entries, failed)
    }

    private func status(_ input: CommandInput) async throws -> CommandOutput {
        let accounts = try await all()
        guard !accounts.isEmpty else {
            return Self.noAccounts("no accounts")
        }
        var lines: [String] = []
        for account in accounts {
            if !lines.isEmpty { lines.append("") }
            lines.append(
                "account #\(account.id): \(TerminalText.sanitized(account.user)) at \(TerminalText.sanitized(account.endpoint.absoluteString)), \(account.feeds) \(account.feeds == 1 ? "feed" : "feeds")"
            )
            if let problem = account.problem {
                lines.append("last sync failed: \(TerminalText.sanitized(problem))")
            } else if let at = account.syncedAt {
                lines.append("last sync: \(context.clock(at))")
            } else {
                lines.append("not synced yet: run \"account sync\"")
            }
            lines.append(
                "\(account.pendingMarks) \(account.pendingMarks == 1 ? "mark" : "marks") made here to send")
        }
        return CommandOutput(
            text: lines.joined(separator: "\n"), json: .object(["accounts": .array(accounts.map(Self.json))]))
    }

    private func all() async throws -> [FeedAccount] {
        do {
            return try await service.accounts()
        } catch let error as AccountError {
            throw Self.commandError(error)
        }
    }

    /// What the account commands print when there is none.
    private static func noAccounts(_ what: String) -> CommandOutput {
        CommandOutput(
            text: "\(what): add one with \"account add fever <url>\"", json: .object(["accounts": .array([])]))
    }

    static func line(_ summary: AccountSyncSummary) -> String {
        var parts = [
            "\(summary.newItems) new \(summary.newItems == 1 ? "item" : "items")",
            "\(summary.marksSent) \(summary.marksSent == 1 ? "mark" : "marks") sent",
        ]
        if summary.feedsAdded > 0 { parts.append("\(summary.feedsAdded) \(summary.feedsAdded == 1 ? "feed" : "feeds") added") }
        if summary.feedsRemoved > 0 {
            parts.append("\(summary.feedsRemoved) \(summary.feedsRemoved == 1 ? "feed" : "feeds") removed")
        }
        if summary.states.read > 0 { parts.append("\(summary.states.read) read or unread elsewhere") }
        if summary.states.starred > 0 { parts.append("\(summary.states.starred) starred or unstarred elsewhere") }
        if summary.skippedCount > 0 { parts.append("\(summary.skippedCount) skipped") }
        return parts.joined(separator: ", ")
    }

    static func json(_ account: FeedAccount) -> JSONValue {
        .object([
            "id": .int(account.id), "kind": .string(account.kind), "url": .url(account.endpoint),
            "user": .string(account.user), "feeds": .int(account.feeds), "pending": .int(account.pendingMarks),
            "synced_at": .date(account.syncedAt), "problem": .string(account.problem),
        ])
    }

    static func commandError(_ error: AccountError) -> CommandError {
        let code =
            switch error {
            case .notFound: "not_found"
            case .unsupportedKind: "usage"
            case .noPassword: "no_password"
            case .alreadyAdded: "already_added"
            case .server(.unauthorized): "unauthorized"
            case .server(.insecureEndpoint): "insecure_url"
            case .server, .sync: "sync_failed"
            case .storage: "storage"
            }
        return CommandError(code: code, message: TerminalText.sanitized(error.errorDescription ?? "\(error)"))
    }
}
