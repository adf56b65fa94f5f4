import Feed
import Foundation
import Models

/// `item show`, `read`, `next` and `prev`: articles shown as text, and reading on through a list.
extension ItemCommands {
    /// `item show [ID...] [--no-pager]` / `read [ID...]`: each article as text (see `ArticleText`),
    /// its links and enclosures listed after it; paged through `$PAGER` when longer than the
    /// terminal. Marks them read. Without an id, `next`.
    func show(_ input: CommandInput) async throws -> CommandOutput {
        let ids = try input.ids("ID")
        guard !ids.isEmpty else { return try await next(input) }
        var shown: [Shown] = []
        for id in ids { shown.append(try await render(id)) }
        return await present(shown, pager: !input.arguments.has("no-pager"))
    }

    /// `next`: the next unread article of the list reading moves through, after the article last
    /// shown (else from the top of the page shown).
    func next(_ input: CommandInput) async throws -> CommandOutput {
        let settings = await context.settingValues()
        let order = ArticleOrder(rawValue: settings["order"] ?? "") ?? .newestFirst
        let listing = context.reading.listing(defaultOrder: order)
        var query = listing.query
        query.unreadOnly = true
        query.after = context.reading.start(of: listing)
        guard let next = try await context.feeds.articles(matching: query, limit: 1).first else {
            let scope = context.reading.hasListing ? " in this list" : ""
            throw CommandError(code: "no_unread", message: "no more unread articles\(scope)")
        }
        return await present([try await render(next.id)], pager: !input.arguments.has("no-pager"), settings: settings)
    }

    /// `prev`: the nearest unread article before the one last shown, in the list's order; when
    /// every earlier one is read, the article just before it (so reading can go back).
    func previous(_ input: CommandInput) async throws -> CommandOutput {
        guard let current = context.reading.current else {
            throw CommandError(code: "no_article", message: "prev goes back from an article shown: none is yet")
        }
        var query = context.reading.listing(defaultOrder: .newestFirst).query
        query.order = query.order == .newestFirst ? .oldestFirst : .newestFirst
        query.after = current
        query.unreadOnly = true
        var found = try await context.feeds.articles(matching: query, limit: 1).first
        if found == nil {
            query.unreadOnly = false
            found = try await context.feeds.articles(matching: query, limit: 1).first
        }
        guard let previous = found else {
            throw CommandError(code: "no_article", message: "this is the first article of the list")
        }
        return await present([try await render(previous.id)], pager: !input.arguments.has("no-pager"))
    }

    /// An article as `item show` shows it.
    struct Shown {
        var text: String
        var json: JSONValue
    }

    /// Shows `articles` one after another, through the pager when asked and long; the last one
    /// is where reading goes on.
    /// `settings` when the caller has read them already, else read now.
    static func values(_ settings: SettingValues?, _ context: CommandContext) async -> SettingValues {
        if let settings { return settings }
        return await context.settingValues()
    }

    /// `settings`: those in force when the caller has read them already.
    func present(_ articles: [Shown], pager: Bool, settings: SettingValues? = nil) async -> CommandOutput {
        let text = articles.map(\.text).joined(separator: "\n\n" + String(repeating: "─", count: 40) + "\n\n")
        let json = articles.count == 1 ? articles[0].json : .object(["items": .array(articles.map(\.json))])
        if pager, context.page(text, await Self.values(settings, context)["pager"] ?? "less -R") {
            return CommandOutput(text: "", json: json)
        }
        return CommandOutput(text: text, json: json)
    }

    /// Marks article `id` read and renders it; reading goes on after it.
    func render(_ id: Int64) async throws -> Shown {
        let viewModel = ArticleListViewModel(service: context.feeds)
        let stored = try await viewModel.open(id: id)
        let article = stored.article
        let feed = try? await context.feeds.subscription(id: article.feedID)
        let presentation = DatePresentation(locale: context.display.locale, timeZone: context.display.timeZone)
        let author = article.authors.compactMap { $0.name ?? $0.email }.joined(separator: ", ")
        let width = context.display.width
        let rendered: ArticleText
        if let html = article.contentHTML ?? article.summary, !html.isEmpty {
            rendered = ArticleText(html: html, width: width)
        } else {
            rendered = ArticleText(body: TextWrap.wrap(article.contentText ?? "", width: width), links: [])
        }
        var lines = [context.display.styled(TerminalText.sanitized(article.title ?? "(untitled)"), "1")]
        lines.append("feed:   " + TerminalText.sanitized(feed?.title ?? "#\(article.feedID)"))
        if !author.isEmpty { lines.append("author: " + TerminalText.sanitized(author)) }
        if let date = article.sortDate ?? Optional(stored.sortDate) {
            lines.append("date:   " + presentation.fullDate(date))
        }
        if let link = article.link { lines.append("link:   " + TerminalText.sanitized(link.absoluteString)) }
        if let episode = Self.episode(season: article.season, episode: article.episode) {
            lines.append("episode: " + episode)
        }
        if let duration = article.duration, duration > 0 { lines.append("length: " + Self.clock(duration)) }
        if let image = article.image { lines.append("image:  " + TerminalText.sanitized(image.absoluteString)) }
        if stored.status.isStarred { lines.append("starred") }
        if !rendered.body.isEmpty { lines.append("\n" + TerminalText.sanitizedKeepingLines(rendered.body)) }
        if !rendered.links.isEmpty {
            lines.append("\nLinks:")
            for (index, link) in rendered.links.enumerated() {
                lines.append("[\(index + 1)] " + TerminalText.sanitized(link))
            }
        }
        if !article.enclosures.isEmpty {
            lines.append("\nEnclosures:")
            for enclosure in article.enclosures { lines.append(Self.describe(enclosure)) }
        }
        let text = lines.joined(separator: "\n")
        let json = JSONValue.object([
            "id": .int(id), "feed_id": .int(article.feedID), "feed": .string(feed?.title),
            "title": .string(article.title),
            "link": .url(article.link), "published": .date(article.published ?? article.updated),
            "author": .string(author.isEmpty ? nil : author), "content_text": .string(rendered.body),
            "links": .array(rendered.links.map { .string($0) }),
            "enclosures": .array(
                article.enclosures.map {
                    .object([
                        "url": .string($0.url.absoluteString), "type": .string($0.mimeType),
                        "length": $0.length.map { .int(Int($0)) } ?? .null,
                    ])
                }),
            "unread": .bool(false), "starred": .bool(stored.status.isStarred),
            "image": .url(article.image), "duration": article.duration.map { .int($0) } ?? .null,
            "episode": article.episode.map { .int($0) } ?? .null, "season": article.season.map { .int($0) } ?? .null,
        ])
        context.reading.read(ArticlePosition(sortDate: stored.sortDate, id: id))
        return Shown(text: text, json: json)
    }
}
