import Feed
import Foundation
import Models

/// How `tidings parse` prints a feed: SPEC.md section 5's JSON, a summary line, or text.
enum ParsedFeedRenderer {
    /// SPEC.md's JSON object: absent values are null, lists are [], dates RFC 3339 UTC; the
    /// recoverable problems met are listed under `warnings`. Beyond SPEC's keys: the feed's
    /// `image`, and each item's `image`, `banner_image`, `duration` (seconds), `episode` and
    /// `season`.
    static func json(_ feed: ParsedFeed) -> JSONValue {
        .object([
            "format": .string(feed.format.rawValue),
            "title": .string(feed.title), "link": .url(feed.link), "feed_url": .url(feed.feedURL),
            "description": .string(feed.description), "language": .string(feed.language),
            "updated": .date(feed.updated), "icon": .url(feed.icon), "image": .url(feed.image),
            "authors": .array(feed.authors.map(author)),
            "items": .array(feed.items.map(item)),
            "warnings": .array(feed.warnings.map(JSONValue.string)),
        ])
    }

    /// `rss2.0 "Title": 50 items, 0 warnings`.
    /// `itemCount` for a feed whose items were streamed past
    /// (`FeedDocumentParser.parse(data:url:charset:each:)`).
    static func summary(_ feed: ParsedFeed, itemCount: Int? = nil) -> String {
        let title = TerminalText.quoted(feed.title ?? "")
        let items = counted(itemCount ?? feed.items.count, "item")
        return "\(feed.format.rawValue) \"\(title)\": \(items), \(counted(feed.warnings.count, "warning"))"
    }

    /// The summary line, the warnings, then one line per item: date, title, link.
    static func text(_ feed: ParsedFeed) -> String {
        var lines = [summary(feed)]
        if let link = feed.link { lines.append(link.absoluteString) }
        lines += feed.warnings.map { "warning: \(TerminalText.sanitized($0))" }
        for item in feed.items {
            let day =
                (item.published ?? item.updated).map { String(RFC3339.string(from: $0).prefix(10)) } ?? "          "
            let title = TerminalText.sanitized(item.title ?? "(untitled)")
            lines.append("\(day)  \(title)" + (item.link.map { "  \($0.absoluteString)" } ?? ""))
        }
        return lines.joined(separator: "\n")
    }

    private static func item(_ item: ParsedItem) -> JSONValue {
        .object([
            "id": .string(item.id), "unique_id": .string(item.uniqueID), "title": .string(item.title),
            "link": .url(item.link), "published": .date(item.published), "updated": .date(item.updated),
            "authors": .array(item.authors.map(author)), "summary": .string(item.summary),
            "content_html": .string(item.contentHTML), "content_text": .string(item.contentText),
            "categories": .array(item.categories.map(JSONValue.string)),
            "enclosures": .array(
                item.enclosures.map { enclosure in
                    .object([
                        "url": .string(enclosure.url.absoluteString), "type": .string(enclosure.mimeType),
                        "length": enclosure.length.map { .integer(Int($0)) } ?? .null,
                    ])
                }),
            "image": .url(item.image), "banner_image": .url(item.bannerImage), "duration": integer(item.duration),
            "episode": integer(item.episode), "season": integer(item.season),
        ])
    }

    private static func integer(_ value: Int?) -> JSONValue { value.map { .integer($0) } ?? .null }

    private static func author(_ author: Author) -> JSONValue {
        .object(["name": .string(author.name), "email": .string(author.email), "uri": .string(author.uri)])
    }

}
