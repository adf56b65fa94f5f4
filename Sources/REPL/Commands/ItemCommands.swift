import Feed
import Foundation
import Models

/// `items`, `item show|open|mark`, `read`.
struct ItemCommands {
    let context: CommandContext

    static let commands: [Command] = [
        Command(
            ["items"],
            usage:
                "items [--feed ID] [--tag TAG] [--unread] [--starred] [--new] [--search TEXT] [--since DATE] [--view NAME] [--limit N] [--page N]",
            summary:
                "articles, newest first, 20 a page (● unread, ★ starred); dates: today, -2w, 2026-11-01. "
                + "--feed takes ids, ranges and lists (4,5); --tag the feeds with a tag or one inside it; "
                + "--view a saved view's filter, the options given beside it winning; --new what the last refresh "
                + "that brought articles brought. "
                + "--search: every word must occur in the title or text, case ignored; a word of three or more "
                + "characters matches anywhere, inside other words too; a shorter one matches the start of a word "
                + "(accents ignored), or anywhere when it is Chinese, Japanese, Korean, Thai, an emoji or a symbol. "
                + "The list shown is the one next, prev and more move through",
            example: "items --unread --since -3d",
            options: filterOptions + [.value("view", .view), .value("limit"), .value("page")]
        ) { try await ItemCommands(context: $0.context).items($0) },
        Command(
            ["more"], usage: "more", summary: "the next page of the list items last showed (Enter after a page)",
            example: "more"
        ) { try await ItemCommands(context: $0.context).more() },
        Command(
            ["next"], aliases: ["n"], usage: "next [--no-pager]",
            summary:
                "show the next unread article of the list items last showed (else of every unread article) "
                + "and mark it read; n, read without an id, and Enter after an article do the same",
            example: "next", options: [.flag("no-pager")]
        ) { try await ItemCommands(context: $0.context).next($0) },
        Command(
            ["prev"], aliases: ["previous"], usage: "prev [--no-pager]",
            summary: "show the nearest unread article before the one last shown (once all are read, the one before)",
            example: "prev", options: [.flag("no-pager")]
        ) { try await ItemCommands(context: $0.context).previous($0) },
        Command(
            ["item"], usage: "item show|open|mark|download", summary: "read, open, mark or download articles",
            example: "item show 1",
            byID: "item show", action: nil),
        Command(
            ["item show", "read"], aliases: ["item read"], usage: "item show [ID...] [--no-pager] (or read [ID...])",
            summary:
                "articles as text (paragraphs, lists, verbatim code, quotes, tables, [image: alt], numbered links listed after it, enclosures; an episode's season, number, length and artwork), paged through $PAGER when longer than the screen; marks them read. Ids take ranges and lists (read 3-5,9); without one, the next unread article",
            example: "read 1", arguments: [.init(name: "ID", kind: .itemID, count: .many)],
            options: [.flag("no-pager")]
        ) { try await ItemCommands(context: $0.context).show($0) },
        Command(
            ["item open"], usage: "item open <ID> [N]",
            summary:
                "open the article's web page, or its link N as item show numbers them, with $BROWSER (else xdg-open); marks it read",
            example: "item open 1",
            arguments: [.init(name: "ID", kind: .itemID), .init(name: "N", kind: .text, count: .optional)]
        ) { try await ItemCommands(context: $0.context).open($0) },
        Command(
            ["item mark"],
            usage:
                "item mark <ID...> read|unread|star|unstar, or item mark --all read [--feed ID] [--tag TAG] [--view NAME] [--before DATE]",
            summary:
                "mark articles; ids take ranges and lists (item mark 812-815 read); --all marks every article read, "
                + "of the feeds, the tag or the view given, dated before DATE if given",
            example: "item mark 1 2 star",
            arguments: [.init(name: "ID", kind: .itemID, count: .many)],
            options: [
                .value("feed", .feedID), .value("tag", .tag), .value("view", .view), .flag("all"), .value("before"),
            ]
        ) { try await ItemCommands(context: $0.context).mark($0) },
    ]

    /// The most words a search may hold: each is one more condition in the query.
    static let maxSearchWords = 100

    /// `items …`: a page of articles, newest first.
    private func items(_ input: CommandInput) async throws -> CommandOutput {
        let arguments = try await ViewCommands.withView(input.arguments, context: context)
        let query = try await Self.query(arguments, context: context)
        let limit = try arguments.positiveInt("limit", atMost: 10_000) ?? 20
        let page = try arguments.positiveInt("page") ?? 1
        return try await list(ReadingState.Listing(query: query, pageSize: limit, page: page))
    }

    /// The options that choose articles, which `items` takes and a view saves.
    static let filterOptions: [Command.Option] = [
        .value("feed", .feedID), .value("tag", .tag), .flag("unread"), .flag("starred"), .flag("new"),
        .value("search"), .value("since"),
    ]

    /// `filterOptions` as `ArgumentList` reads them (a saved view's words).
    static let filterOptionKinds = Dictionary(
        filterOptions.map { ($0.name, $0.kind) }, uniquingKeysWith: { first, _ in first })

    /// The articles the filter options of `arguments` choose (every feed named must exist).
    static func query(_ arguments: ArgumentList, context: CommandContext) async throws -> ArticleQuery {
        let feedIDs = try arguments.ids("feed")
        for feedID in feedIDs { _ = try await context.feeds.subscription(id: feedID) }
        let since = try arguments.value("since").map { text in try context.parseDate(text, "--since") }
        let search = arguments.value("search")?.trimmingCharacters(in: .whitespaces)
        if let search, search.isEmpty { throw CommandError.usage("--search needs some text") }
        if let words = search?.split(whereSeparator: \.isWhitespace).count, words > Self.maxSearchWords {
            throw CommandError.usage("--search takes at most \(Self.maxSearchWords) words (this has \(words))")
        }
        var query = ArticleQuery(
            feedID: feedIDs.count == 1 ? feedIDs[0] : nil, feedIDs: feedIDs.count > 1 ? feedIDs : [],
            unreadOnly: arguments.has("unread"), starredOnly: arguments.has("starred"), search: search, since: since,
            before: try arguments.value("before").map { try context.parseDate($0, "--before") },
            tag: try Self.tag(arguments))
        // What the last refresh that brought articles brought (everything before the first).
        if arguments.has("new") { query.afterID = try await context.feeds.lastRefreshMark() ?? 0 }
        return query
    }

    /// The `--tag` given, normalized (`/Tech//Swift` is `Tech/Swift`).
    static func tag(_ arguments: ArgumentList) throws -> String? {
        guard let tag = arguments.value("tag") else { return nil }
        if let problem = FeedTag.problem(with: tag) { throw CommandError.usage("--tag: \(problem)") }
        return FeedTag.normalized(tag)
    }

    /// `more`: the next page of the list `items` last showed.
    private func more() async throws -> CommandOutput {
        guard context.reading.hasListing else {
            throw CommandError(code: "no_list", message: "more continues a list: show one with items first")
        }
        var listing = context.reading.listing(defaultOrder: .newestFirst)
        let total = try await context.feeds.page(matching: listing.query, limit: 1).total
        guard listing.page * listing.pageSize < total else {
            throw CommandError(code: "no_more", message: "that was the last page of the list (\(total) items)")
        }
        listing.page += 1
        return try await list(listing)
    }

    /// A page of `listing`, which becomes the list reading moves through.
    private func list(_ listing: ReadingState.Listing) async throws -> CommandOutput {
        let (query, limit, page) = (listing.query, listing.pageSize, listing.page)
        let viewModel = ArticleListViewModel(service: context.feeds, pageSize: limit)
        await viewModel.showPage(page, of: query)
        if case .failed(let message, _) = viewModel.state { throw CommandError(code: "storage", message: message) }
        let content = viewModel.state.content
        let rows = content?.orderedRows ?? []
        let (titles, accounts) = try await feedTitles()
        let presentation = DatePresentation(locale: context.display.locale, timeZone: context.display.timeZone)
        var table = Table(columns: [
            .init(title: "ID", alignRight: true), .init(title: "", alignRight: false), .init(title: "DATE"),
            .init(title: "FEED", flexible: true, minimumWidth: 6), .init(title: "TITLE", flexible: true),
        ])
        table.rows = rows.map { row in
            [
                String(row.id), Self.marks(row.status),
                // Its own date (a future one too), else the time it arrived.
                presentation.relative(row.article.sortDate ?? row.sortDate, now: context.now()),
                // A feed account's item says so before its feed (`[acct 1] Swift blog`).
                Table.fit(
                    (accounts[row.article.feedID].map { "[acct \($0)] " } ?? "") + (titles[row.article.feedID] ?? ""),
                    width: 20),
                row.article.title ?? "(untitled)",
            ]
        }
        let total = content?.total ?? 0
        var text: String
        if rows.isEmpty {
            if total > 0 {
                text = "no items on page \(page) (there are \(total))"
            } else {
                text = titles.isEmpty ? "no items yet: subscribe with \"feed add <url-or-path>\"" : "no items match"
            }
        } else {
            text = table.render(context.display)
            let first = (page - 1) * limit + 1
            if first + rows.count - 1 < total {
                text += "\n\(first)–\(first + rows.count - 1) of \(total); more (or Enter) for the next page"
            }
        }
        var shown = listing
        shown.firstShown = rows.first.map { ArticlePosition(sortDate: $0.sortDate, id: $0.id) }
        context.reading.showed(shown, hasMore: (page - 1) * limit + rows.count < total)
        let json = JSONValue.object([
            "items": .array(
                rows.map { row in
                    .object([
                        "id": .int(row.id), "feed_id": .int(row.article.feedID), "title": .string(row.article.title),
                        "link": .url(row.article.link),
                        "published": .date(row.article.published ?? row.article.updated),
                        "unread": .bool(!row.status.isRead), "starred": .bool(row.status.isStarred),
                        "account": accounts[row.article.feedID].map { .int($0) } ?? .null,
                    ])
                }),
            "total": .int(total), "page": .int(page),
        ])
        return CommandOutput(text: text, json: json)
    }

    /// `●` unread, `★` starred.
    static func marks(_ status: ArticleStatus) -> String {
        (status.isRead ? " " : "●") + (status.isStarred ? "★" : " ")
    }

    /// `item open <ID>`: opens the article's web page with `$BROWSER` (else `xdg-open`), as
    /// newsboat's `o` does, and marks it read. Only an http(s) link is opened: a feed cannot
    /// make the browser open a local file or run a `javascript:` URL.
    private func open(_ input: CommandInput) async throws -> CommandOutput {
        let id = try input.id("ID")
        let article = try await context.feeds.article(id: id).article
        let link: URL
        if let number = input.text("N") {
            // Numbered as item show lists them.
            let links = ArticleText(html: article.contentHTML ?? article.summary ?? "", width: nil).links
            guard let index = Int(number), index >= 1 else {
                throw CommandError.usage("N must be a link number like 2, as item show lists them (got \"\(number)\")")
            }
            guard index <= links.count else {
                let has = links.isEmpty ? "no links" : links.count == 1 ? "one link" : "\(links.count) links"
                throw CommandError(code: "no_link", message: "item #\(id) has \(has); there is no link \(index)")
            }
            guard let url = URL(string: links[index - 1]) else {
                throw CommandError(
                    code: "unsafe_link",
                    message:
                        "link \(index) of item #\(id) is not a web address: \(TerminalText.sanitized(links[index - 1]))"
                )
            }
            link = url
        } else {
            guard let own = article.link ?? article.externalLink else {
                throw CommandError(code: "no_link", message: "item #\(id) has no link to open")
            }
            link = own
        }
        guard ["http", "https"].contains(link.scheme?.lowercased() ?? "") else {
            throw CommandError(
                code: "unsafe_link", message: "item #\(id) links to \(link.absoluteString), which is not a web address")
        }
        try context.openURL(link, await context.settingValues()["browser"] ?? "xdg-open")
        try await context.feeds.mark([id], .read)
        return CommandOutput(
            text: "opened \(link.absoluteString)",
            json: .object(["ok": .bool(true), "id": .int(id), "url": .string(link.absoluteString)]))
    }

    /// `season 2, episode 14`, `episode 14`, `season 2`; `nil` with neither.
    static func episode(season: Int?, episode: Int?) -> String? {
        let parts = [season.map { "season \($0)" }, episode.map { "episode \($0)" }].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// A duration in seconds as a podcast app shows it: `1:02:03`, `42:05`, `0:59`.
    static func clock(_ seconds: Int) -> String {
        let (hours, minutes, rest) = (seconds / 3600, seconds / 60 % 60, seconds % 60)
        let two = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(rest))" : "\(minutes):\(two(rest))"
    }

    /// `[audio/mpeg, 12.3 MB] https://…/episode.mp3`.
    static func describe(_ enclosure: Enclosure) -> String {
        var facts: [String] = []
        if let type = enclosure.mimeType, !type.isEmpty { facts.append(TerminalText.sanitized(type)) }
        if let length = enclosure.length, length > 0 {
            facts.append(ByteCountFormatter.string(fromByteCount: length, countStyle: .file))
        }
        let label = facts.isEmpty ? "" : "[\(facts.joined(separator: ", "))] "
        return label + TerminalText.sanitized(enclosure.url.absoluteString)
    }

    /// `item mark <ID...> read|unread|star|unstar` and `item mark --feed ID --all read`.
    private func mark(_ input: CommandInput) async throws -> CommandOutput {
        let (arguments, usage) = (input.arguments, input.usage)
        guard let last = arguments.positional.last?.lowercased() else { throw CommandError.usage("usage: \(usage)") }
        guard let action = ArticleMark(rawValue: last) else {
            let hint = Suggestion.nearest(to: last, in: ArticleMark.allCases.map(\.rawValue)).map {
                " (did you mean \"\($0)\"?)"
            }
            throw CommandError.usage("\"\(last)\" is not read, unread, star or unstar\(hint ?? ""); usage: \(usage)")
        }
        let whole = ["all", "feed", "tag", "view", "before"].filter { arguments.has($0) }
        if !whole.isEmpty {
            guard arguments.has("all"), arguments.positional.count == 1 else {
                throw CommandError.usage(
                    "mark many articles with: item mark --all read [--feed ID] [--tag TAG] [--view NAME] [--before DATE]"
                        + (arguments.has("all") ? " (no ids with --all)" : ""))
            }
            guard action == .read else { throw CommandError.usage("only \"read\" applies with --all") }
            let feedIDs = try arguments.ids("feed")
            let query = try await Self.query(
                try await ViewCommands.withView(arguments, context: context), context: context)
            let changed = try await context.feeds.markAllRead(matching: query)
            var scope = ""
            if !feedIDs.isEmpty { scope += " of " + FeedCommands.feeds(feedIDs) }
            if let view = arguments.value("view") { scope += " of view \(TerminalText.sanitized(view))" }
            if let tag = arguments.value("tag").map(FeedTag.normalized) {
                scope += " tagged \(TerminalText.sanitized(tag))"
            }
            if let before = arguments.value("before") { scope += " dated before \(TerminalText.sanitized(before))" }
            return CommandOutput(
                text: "marked \(counted(changed, "item"))\(scope) read",
                json: .object(["ok": .bool(true), "changed": .int(changed)]))
        }
        let idWords = arguments.positional.dropLast()
        guard !idWords.isEmpty else { throw CommandError.usage("missing <ID...>; usage: \(usage)") }
        var ids: [Int64] = []
        for word in idWords { ids += try ArgumentList.ids(word, what: "an item id") }
        try await context.feeds.mark(ids, action)
        let verb =
            ["read": "read", "unread": "unread", "star": "starred", "unstar": "unstarred"][action.rawValue]
            ?? action.rawValue
        return .ok("marked \(ids.count) \(ids.count == 1 ? "item" : "items") \(verb)")
    }

    /// Each feed's title, and the feed account of those that have one.
    private func feedTitles() async throws -> (titles: [Int64: String], accounts: [Int64: Int64]) {
        var titles: [Int64: String] = [:]
        var accounts: [Int64: Int64] = [:]
        for feed in try await context.feeds.subscriptions() {
            titles[feed.id ?? 0] = feed.title
            if let account = feed.accountID { accounts[feed.id ?? 0] = account }
        }
        return (titles, accounts)
    }
}
