import Feed
import Foundation
import Models
import Networking

/// `feed add|list|refresh|remove|rename|import|export|discover`.
struct FeedCommands {
    let context: CommandContext

    static let commands: [Command] = [
        Command(
            ["feed"], usage: "feed add|list|refresh|remove|rename|import|export|discover",
            summary: "manage subscriptions", example: "feed list", action: nil),
        Command(
            ["feed add"], usage: "feed add <url-or-path> [--title T]",
            summary: "subscribe (an HTML page is searched for its feed) and fetch it at once",
            example: "feed add https://www.swift.org/atom.xml", arguments: [.init(name: "url-or-path", kind: .path)],
            options: [.value("title")]
        ) { try await FeedCommands(context: $0.context).add($0) },
        Command(
            ["feed list"], aliases: ["feed ls"], usage: "feed list",
            summary: "subscriptions with unread/total counts, the last refresh result and the URL", example: "feed list"
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
            ["feed import"], usage: "feed import <opml-file>",
            summary: "subscribe to an OPML list without fetching (run feed refresh next)",
            example: "feed import ~/feeds.opml", arguments: [.init(name: "opml-file", kind: .path)]
        ) { try await FeedCommands(context: $0.context).importOPML($0) },
        Command(
            ["feed export"], usage: "feed export <opml-file>", summary: "write the subscriptions as OPML 2.0",
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
            "added feed #\(id) \"\(TerminalText.sanitized(summary.feed.title))\": \(counted(summary.itemCount, "item")) (\(summary.newCount) new)"
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
                "other_feeds": .array(summary.otherFeeds.map { .string($0.absoluteString) }),
            ]))
    }

    private func list(_ input: CommandInput) async throws -> CommandOutput {
        let rows: [FeedSummary]
        do {
            rows = try await context.feeds.summaries()
        } catch {
            throw CommandError(code: "storage", message: error.errorDescription ?? "\(error)")
        }
        if rows.isEmpty {
            return CommandOutput(
                text: "no feeds yet; add one with \"feed add <url>\"", json: .object(["feeds": .array([])]))
        }
        let display = context.display
        return .deferred(
            text: {
                var table = Table(columns: [
                    .init(title: "ID", alignRight: true), .init(title: "TITLE", flexible: true),
                    .init(title: "UNREAD", alignRight: true),
                    .init(title: "LAST RESULT", flexible: true, minimumWidth: 11),
                    .init(title: "URL", flexible: true, minimumWidth: 20),
                ])
                table.rows = rows.map { row in
                    [
                        String(row.id), row.title, "\(row.counts.unread)/\(row.counts.total)",
                        Self.result(isGone: row.isGone, lastResult: row.lastResult), row.url,
                    ]
                }
                return table.render(display)
            },
            json: {
                .object([
                    "feeds": .array(
                        rows.map { row in
                            .object([
                                "id": .int(row.id), "title": .string(row.title), "url": .string(row.url),
                                "unread": .int(row.counts.unread), "total": .int(row.counts.total),
                                "last_result": .string(row.lastResult?.description),
                                "refreshed_at": .date(row.lastRefreshedAt),
                            ])
                        })
                ])
            })
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
                line = "refreshing \(done)/\(total) … \(TerminalText.sanitized(feed.title))"
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
            "refreshed \(counted(summary.refreshed, "feed")): \(counted(summary.newItems, "new item")), "
            + "\(summary.notModified) not modified, \(summary.failed.count) failed"
        if summary.skipped > 0 { text += ", \(summary.skipped) skipped" }
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
            "failed": .array(
                summary.failed.map {
                    .object([
                        "id": .int($0.feedID), "url": .string($0.url.absoluteString), "reason": .string($0.reason),
                    ])
                }),
            "resumed": .array(
                summary.resumed.map { .object(["id": .int($0.feedID), "url": .string($0.url.absoluteString)]) }),
        ])
        var output = CommandOutput(text: text, json: json)
        if summary.storingFailed {
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
        return .ok("removed feed #\(id) \"\(TerminalText.sanitized(feed.title))\" and its \(counted(total, "item"))")
    }

    private func rename(_ input: CommandInput) async throws -> CommandOutput {
        let id = try input.id("ID")
        let title = input.text("title") ?? ""
        try await context.feeds.rename(id: id, to: title)
        return .ok("renamed feed #\(id) to \"\(TerminalText.sanitized(title))\"")
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
