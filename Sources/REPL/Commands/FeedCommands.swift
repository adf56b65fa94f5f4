import Accounts
import Feed
import Foundation
import Models
import Networking

/// `feed add|list|refresh|remove|rename|import|export|discover`.
struct FeedCommands {
    let context: CommandContext

    static let commands: [Command] = [
        Command(
            ["feed"], usage: "feed add|list|refresh|remove|rename|tag|untag|tags|keep|purge|import|export|discover",
            summary: "manage subscriptions", example: "feed list", action: nil),
        Command(
            ["feed add"], usage: "feed add <url-or-path> [--title T]",
            summary: "subscribe (an HTML page is searched for its feed) and fetch it at once",
            example: "feed add https://www.swift.org/atom.xml", arguments: [.init(name: "url-or-path", kind: .path)],
            options: [.value("title")]
        ) { try await FeedCommands(context: $0.context).add($0) },
        Command(
            ["feed list"], aliases: ["feed ls"], usage: "feed list [--tag TAG] [--unread]",
            summary:
                "subscriptions with unread/total counts, the last refresh result, the URL and the tags; --tag only "
                + "the feeds with that tag or one inside it, --unread only those with unread articles",
            example: "feed list --unread", options: [.value("tag"), .flag("unread")]
        ) { try await FeedCommands(context: $0.context).list($0) },
        Command(
            ["feed refresh"], usage: "feed refresh [ID...]",
            summary: "refresh the given feeds or all, concurrently, and summarise", example: "feed refresh",
            arguments: [.init(name: "ID", kind: .feedID, count: .many)]
        ) { try await FeedCommands(context: $0.context).refresh($0) },
        Command(
            ["feed remove"], aliases: ["feed rm"], usage: "feed remove <ID>",
            summary: "unsubscribe and delete the feed's items (starred ones too)", example: "feed remove 3",
            arguments: [.init(name: "ID", kind: .feedID)]
        ) { try await FeedCommands(context: $0.context).remove($0) },
        Command(
            ["feed rename"], usage: "feed rename <ID> <title>", summary: "rename a feed",
            example: "feed rename 3 Swift blog",
            arguments: [.init(name: "ID", kind: .feedID), .init(name: "title", kind: .text, count: .rest)]
        ) { try await FeedCommands(context: $0.context).rename($0) },
        Command(
            ["feed tag"], usage: "feed tag <ID> <tag...>",
            summary:
                "give feeds tags (ID takes ranges and lists); an OPML folder is a tag, Tech/Swift for folder "
                + "Swift inside Tech, and a tag takes the tags inside it when listing",
            example: "feed tag 3,4 news",
            arguments: [.init(name: "ID", kind: .feedID), .init(name: "tag", kind: .tag, count: .rest)]
        ) { try await FeedCommands(context: $0.context).tag($0) },
        Command(
            ["feed untag"], usage: "feed untag <ID> [tag...]", summary: "remove tags from feeds, every tag without one",
            example: "feed untag 3 news",
            arguments: [.init(name: "ID", kind: .feedID), .init(name: "tag", kind: .tag, count: .many)]
        ) { try await FeedCommands(context: $0.context).untag($0) },
        Command(
            ["feed tags"], usage: "feed tags",
            summary: "every tag with its feeds and their unread/total articles (a folder counts the folders inside it)",
            example: "feed tags"
        ) { try await FeedCommands(context: $0.context).tags() },
        Command(
            ["feed keep"], usage: "feed keep <ID> [--items N] [--days D] [--default]",
            summary:
                "one feed's retention: keep at most N articles (the newest), read ones for D days, never a "
                + "starred one (0 keeps all); --default goes back to keep-items and keep-days; alone, shows it",
            example: "feed keep 3 --items 200 --days 30", arguments: [.init(name: "ID", kind: .feedID)],
            options: [.value("items"), .value("days"), .flag("default")]
        ) { try await FeedCommands(context: $0.context).keep($0) },
        Command(
            ["feed purge"], usage: "feed purge",
            summary: "delete now what retention lets go (a refresh does it after it stores), and shrink the database",
            example: "feed purge"
        ) { try await FeedCommands(context: $0.context).purge() },
        Command(
            ["feed import"], usage: "feed import <opml-file>",
            summary: "subscribe to an OPML list without fetching (run feed refresh next); its folders become tags",
            example: "feed import ~/feeds.opml", arguments: [.init(name: "opml-file", kind: .path)]
        ) { try await FeedCommands(context: $0.context).importOPML($0) },
        Command(
            ["feed export"], usage: "feed export <opml-file>",
            summary: "write the subscriptions as OPML 2.0, tags as folders",
            example: "feed export ~/feeds.opml", arguments: [.init(name: "opml-file", kind: .path)]
        ) { try await FeedCommands(context: $0.context).exportOPML($0) },
        Command(
            ["feed discover"], usage: "feed discover <url>",
            summary: "list the feeds an HTML page links to, without subscribing",
            example: "feed discover https://www.swift.org/", arguments: [.init(name: "url", kind: .text)]
        ) { try await FeedCommands(context: $0.context).discover($0) },
    ]

    private func add(_ input: CommandInput) async throws -> CommandOutput {
        let summary = try await context.feeds.subscribe(
            url: FeedService.url(from: input.text("url-or-path") ?? ""), title: input.arguments.value("title"))
        let id = summary.feed.id ?? 0
        var text =
            "added feed #\(id) \"\(TerminalText.quoted(summary.feed.title))\": \(counted(summary.itemCount, "item")) (\(summary.newCount) new\(Self.describe(summary.rules, separator: "; ")))"
        if !summary.otherFeeds.isEmpty {
            text += "\nthe page also links to:"
            for other in summary.otherFeeds { text += "\n  feed add " + TerminalText.sanitized(other.absoluteString) }
        }
        for warning in summary.warnings { text += "\nwarning: " + TerminalText.sanitized(warning) }
        return CommandOutput(
            text: text,
            json: .object([
                "id": .int(id), "title": .string(summary.feed.title), "url": .string(summary.feed.url.absoluteString),
                "items": .int(summary.itemCount), "new_items": .int(summary.newCount),
                "rules": .object(["read": .int(summary.rules.read), "hidden": .int(summary.rules.hidden)]),
                "other_feeds": .array(summary.otherFeeds.map { .string($0.absoluteString) }),
            ]))
    }

    private func list(_ input: CommandInput) async throws -> CommandOutput {
        var rows: [FeedSummary]
        do {
            rows = try await context.feeds.summaries()
        } catch {
            throw CommandError(code: "storage", message: error.errorDescription ?? "\(error)")
        }
        let filtered = input.arguments.has("tag") || input.arguments.has("unread")
        if let tag = input.arguments.value("tag") {
            if let problem = FeedTag.problem(with: tag) { throw CommandError.usage("--tag: \(problem)") }
            let wanted = FeedTag.normalized(tag)
            rows = rows.filter { row in row.tags.contains { $0 == wanted || $0.hasPrefix(wanted + "/") } }
        }
        if input.arguments.has("unread") { rows = rows.filter { $0.counts.unread > 0 } }
        if rows.isEmpty {
            return CommandOutput(
                text: filtered ? "no feeds match" : "no feeds yet; add one with \"feed add <url>\"",
                json: .object(["feeds": .array([])]))
        }
        let tagged = rows.contains { !$0.tags.isEmpty }
        let listed = rows
        let display = context.display
        return .deferred(
            text: {
                var columns: [Table.Column] = [
                    .init(title: "ID", alignRight: true), .init(title: "TITLE", flexible: true),
                    .init(title: "UNREAD", alignRight: true),
                    .init(title: "LAST RESULT", flexible: true, minimumWidth: 11),
                    .init(title: "URL", flexible: true, minimumWidth: 20),
                ]
                // Tags only when some feed has one: a list without tags stays as it was.
                if tagged { columns.insert(.init(title: "TAGS", flexible: true, minimumWidth: 6), at: 3) }
                var table = Table(columns: columns)
                table.rows = listed.map { row in
                    var cells = [
                        String(row.id), row.title, "\(row.counts.unread)/\(row.counts.total)",
                        row.accountID.map { "via account #\($0)" }
                            ?? Self.result(isGone: row.isGone, lastResult: row.lastResult), row.url,
                    ]
                    if tagged { cells.insert(row.tags.joined(separator: " "), at: 3) }
                    return cells
                }
                return table.render(display)
            },
            json: {
                .object([
                    "feeds": .array(
                        listed.map { row in
                            .object([
                                "id": .int(row.id), "title": .string(row.title), "url": .string(row.url),
                                "unread": .int(row.counts.unread), "total": .int(row.counts.total),
                                "last_result": .string(row.lastResult?.description),
                                "refreshed_at": .date(row.lastRefreshedAt),
                                "tags": .array(row.tags.map { .string($0) }),
                                "account": row.accountID.map { .int($0) } ?? .null,
                            ])
                        })
                ])
            })
    }

    /// Syncs the feed accounts a refresh of `ids` (every feed when empty) covers.
    private func syncAccounts(of ids: [Int64]) async -> (lines: [String], entries: [JSONValue], failed: Int) {
        guard let service = context.accounts else { return ([], [], 0) }
        var chosen: Set<Int64>?
        if !ids.isEmpty {
            var owners = Set<Int64>()
            for id in ids {
                if let account = try? await context.feeds.subscription(id: id).accountID { owners.insert(account) }
            }
            guard !owners.isEmpty else { return ([], [], 0) }
            chosen = owners
        }
        var results: [(account: FeedAccount, result: Result<AccountSyncSummary, AccountError>)] = []
        if let chosen {
            for id in chosen.sorted() { results += (try? await service.sync(id: id)) ?? [] }
        } else {
            results = (try? await service.sync()) ?? []
        }
        return AccountCommands.report(results)
    }

    /// `, 809 of them older than six months and already read`, when any arrived read.
    static func newDetails(_ summary: RefreshSummary) -> String {
        guard summary.arrivedRead > 0 else { return "" }
        let all = summary.arrivedRead == summary.newItems
        return ", \(all ? "all" : "\(summary.arrivedRead)") of them older than six months and already read"
    }

    /// `Swift.org 3, LWN 9`: the feeds that brought new articles, most first (the first five,
    /// then how many more).
    static func arrivals(_ summary: RefreshSummary) -> String {
        let shown = summary.newByFeed.prefix(5).map { "\(TerminalText.quoted($0.title)) \($0.count)" }
        let more = summary.newByFeed.count - shown.count
        return shown.joined(separator: ", ") + (more > 0 ? " and \(more) more" : "")
    }

    /// What rules did, as a refresh or an add reports it: `; rules hid 2, marked 1 read`, or nothing.
    static func describe(_ rules: RuleOutcome, separator: String, parenthesized: Bool = false) -> String {
        var parts: [String] = []
        if rules.hidden > 0 { parts.append("hid \(rules.hidden)") }
        if rules.read > 0 { parts.append("marked \(rules.read) read") }
        // A rule whose regular expression ran too long on some item (see `rule test`).
        for id in rules.stopped { parts.append("stopped #\(id), too slow") }
        guard !parts.isEmpty else { return "" }
        let text = "rules " + parts.joined(separator: ", ")
        return parenthesized ? "\(separator)(\(text))" : separator + text
    }

    /// The last result as the list shows it.
    static func result(isGone: Bool, lastResult: RefreshResult?) -> String {
        if isGone { return "gone" }
        switch lastResult {
        case nil: return "never refreshed"
        case .ok?: return "ok"
        case .notModified?: return "not modified"
        case .failed(let reason)?: return "error: " + reason
        }
    }

    private func refresh(_ input: CommandInput) async throws -> CommandOutput {
        let ids = try input.ids("ID")
        let progress = context.progress
        let showProgress = context.display.isTerminal
        let display = context.display
        let viewModel = FeedListViewModel(service: context.feeds)
        defer { if showProgress { progress(nil) } }
        let summary = try await viewModel.refresh(ids.isEmpty ? nil : ids) { event in
            guard showProgress else { return }
            let line: String
            switch event {
            case .feedFinished(let feed, _, let done, let total):
                line = "refreshing \(done)/\(total) … \(TerminalText.quoted(feed.title))"
            case .indexing(let newItems):
                line = "indexing \(counted(newItems, "new item")) for search …"
            case .started, .finished, .failedToStart:
                return
            }
            // One column short of the width, read now: a line that fills the last column wraps
            // on some terminals and leaves a stale row behind.
            progress(DisplayWidth.fit(line, width: max(10, (display.width ?? 80) - 1)))
        }
        if summary.cancelled { throw FeedError.cancelled }
        var text =
            "refreshed \(counted(summary.refreshed, "feed")): \(counted(summary.newItems, "new item"))"
            + Self.newDetails(summary) + "\(Self.describe(summary.rules, separator: " ", parenthesized: true)), "
            + "\(summary.notModified) not modified, \(summary.failed.count) failed"
        if summary.skipped > 0 { text += ", \(summary.skipped) skipped" }
        if !summary.newByFeed.isEmpty { text += "\n  new: " + Self.arrivals(summary) + "; items --new lists them" }
        if summary.purged.deleted > 0 {
            text +=
                "\n  purged \(counted(summary.purged.deleted, "old article"))" + Self.freed(summary.purged.freedBytes)
        }
        for failure in summary.failed {
            text +=
                "\n  " + context.display.styled("#\(failure.feedID)", "31") + " \(failure.url.absoluteString): "
                + TerminalText.sanitized(failure.reason)
        }
        for back in summary.resumed {
            text += "\n  #\(back.feedID) \(back.url.absoluteString): answers again (\(back.reason)); polling resumes"
        }
        if let failure = summary.searchIndexFailure {
            text +=
                "\nwarning: the new items are not indexed for search yet (\(failure)); "
                + "the next search will index them"
        }
        let json = JSONValue.object([
            "refreshed": .int(summary.refreshed), "new_items": .int(summary.newItems),
            "not_modified": .int(summary.notModified), "skipped": .int(summary.skipped),
            "rules": .object(["read": .int(summary.rules.read), "hidden": .int(summary.rules.hidden)]),
            "arrived_read": .int(summary.arrivedRead), "purged": .int(summary.purged.deleted),
            "new_by_feed": .array(
                summary.newByFeed.map {
                    .object(["id": .int($0.feedID), "title": .string($0.title), "new": .int($0.count)])
                }),
            "failed": .array(
                summary.failed.map {
                    .object([
                        "id": .int($0.feedID), "url": .string($0.url.absoluteString), "reason": .string($0.reason),
                    ])
                }),
            "resumed": .array(
                summary.resumed.map { .object(["id": .int($0.feedID), "url": .string($0.url.absoluteString)]) }),
        ])
        // A feed account's feeds are its server's to fetch: its sync refreshes them (every
        // account for a whole refresh; else the accounts of the feeds named).
        let accounts = await syncAccounts(of: ids)
        if !accounts.lines.isEmpty { text += "\n" + accounts.lines.joined(separator: "\n") }
        var document = json
        if !accounts.entries.isEmpty, case .object(var fields) = json {
            fields["accounts"] = .array(accounts.entries)
            document = .object(fields)
        }
        var output = CommandOutput(text: text, json: document)
        if accounts.failed > 0, accounts.failed == accounts.entries.count, summary.refreshed == 0 {
            output.failure = CommandError(code: "sync_failed", message: "no account could be synced")
        } else if summary.storingFailed {
            output.failure = CommandError(code: "storage_failed", message: "the results could not be stored")
        } else if summary.nothingRefreshed {
            output.failure = CommandError(
                code: "refresh_failed",
                message: summary.refreshed == 1 ? "the feed could not be refreshed" : "no feed could be refreshed")
        }
        return output
    }

    private func remove(_ input: CommandInput) async throws -> CommandOutput {
        let id = try input.id("ID")
        let feed = try await context.feeds.subscription(id: id)
        let total = try await context.feeds.articleCounts()[id]?.total ?? 0
        try await context.feeds.unsubscribe(id: id)
        return .ok("removed feed #\(id) \"\(TerminalText.quoted(feed.title))\" and its \(counted(total, "item"))")
    }

    private func rename(_ input: CommandInput) async throws -> CommandOutput {
        let id = try input.id("ID")
        let title = input.text("title") ?? ""
        try await context.feeds.rename(id: id, to: title)
        return .ok("renamed feed #\(id) to \"\(TerminalText.quoted(title))\"")
    }

    private func importOPML(_ input: CommandInput) async throws -> CommandOutput {
        let path = input.path("opml-file")
        let data: Data
        do {
            data = try LocalFile.read(URL(fileURLWithPath: path))
        } catch {
            throw FeedError.file("cannot read \(path): \(error.reason)")
        }
        let summary = try await context.feeds.importOPML(data)
        var text = "imported \(counted(summary.imported, "feed")), \(summary.alreadyPresent) already present"
        if !summary.skipped.isEmpty {
            text +=
                ", \(summary.skipped.count) skipped (not http or https: "
                + summary.skipped.map(TerminalText.sanitized).joined(separator: ", ") + ")"
        }
        if summary.imported > 0 { text += "; run \"feed refresh\" to fetch them" }
        return CommandOutput(
            text: text,
            json: .object([
                "imported": .int(summary.imported), "already_present": .int(summary.alreadyPresent),
                "skipped": .array(summary.skipped.map { .string($0) }),
            ]))
    }

    private func exportOPML(_ input: CommandInput) async throws -> CommandOutput {
        let path = input.path("opml-file")
        let data = try await context.feeds.exportOPML()
        let count = try await context.feeds.subscriptions().count
        do {
            try FileOutput.write(data, to: path)
        } catch {
            throw FeedError.file("cannot write \(path): \(error.reason)")
        }
        // Exported to standard output, the OPML document is the whole output.
        return CommandOutput(
            text: FileOutput.isStandardOutput(path) ? "" : "exported \(counted(count, "feed")) to \(path)",
            json: .object(["exported": .int(count), "path": .string(path)]))
    }

    private func discover(_ input: CommandInput) async throws -> CommandOutput {
        let source = input.path("url")
        let found = try await context.feeds.discover(url: FeedService.url(from: source))
        var table = Table(columns: [.init(title: "URL"), .init(title: "TITLE", flexible: true), .init(title: "TYPE")])
        table.rows = found.map { [$0.url.absoluteString, $0.title ?? "", $0.type ?? ""] }
        return CommandOutput(
            text: found.isEmpty ? "no feeds found at \(source)" : table.render(context.display),
            json: .object([
                "feeds": .array(
                    found.map {
                        .object([
                            "url": .string($0.url.absoluteString), "title": .string($0.title), "type": .string($0.type),
                        ])
                    })
            ]))
    }
}
