import Foundation
import Models

/// Reads JSON Feed 1.0 and 1.1 (https://jsonfeed.org/version/1.1).
///
/// Liberal like the best readers: ids may be strings or numbers, the 1.0 `author` and the 1.1
/// `authors` are both read, relative URLs are resolved against the document's URL, and an
/// item that is not an object, or has nothing usable, is skipped with a warning instead of
/// failing the feed.
enum JSONFeedParser {
    static func parse(_ data: Data, url: URL?) throws(FeedParseError) -> ParsedFeed {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw .malformed("the JSON is not valid (\(error.localizedDescription))")
        }
        guard let feed = object as? [String: Any] else { throw .notAFeed("the JSON is not an object") }
        guard let version = feed["version"] as? String, version.contains("jsonfeed.org/version/") else {
            throw .notAFeed("the JSON has no JSON Feed \"version\"")
        }
        let format: FeedFormat = version.hasSuffix("/1") ? .jsonFeed10 : .jsonFeed11
        let base = url
        let feedURL = Self.url(feed["feed_url"], base: base)
        let home = Self.url(feed["home_page_url"], base: feedURL ?? base)

        var warnings: [String] = []
        var items: [ParsedItem] = []
        let feedAuthors = Self.authors(feed)
        let rawItems = feed["items"] as? [Any] ?? []
        if feed["items"] != nil, feed["items"] as? [Any] == nil { warnings.append("\"items\" is not an array") }
        for (index, raw) in rawItems.enumerated() {
            guard let item = raw as? [String: Any] else {
                warnings.append("items[\(index)] is not an object; skipped")
                continue
            }
            guard var parsed = Self.item(item, base: feedURL ?? base) else {
                warnings.append("items[\(index)] has no id, link, title or content; skipped")
                continue
            }
            // An item without authors has the feed's (JSON Feed 1.1, "authors").
            if parsed.authors.isEmpty { parsed.authors = feedAuthors }
            items.append(parsed)
        }
        return ParsedFeed(
            format: format, title: Self.text(feed["title"]), link: home, feedURL: feedURL,
            description: Self.text(feed["description"]), language: Self.text(feed["language"]), updated: nil,
            icon: Self.url(feed["icon"], base: home ?? base) ?? Self.url(feed["favicon"], base: home ?? base),
            authors: feedAuthors, items: items, warnings: warnings)
    }

    private static func item(_ item: [String: Any], base: URL?) -> ParsedItem? {
        let id: String? =
            switch item["id"] {
            case let text as String: text
            case let number as NSNumber: number.stringValue
            default: nil
            }
        let parsed = ParsedItem(
            id: id, title: text(item["title"]), link: url(item["url"], base: base),
            externalLink: url(item["external_url"], base: base),
            published: (item["date_published"] as? String).flatMap(FeedDate.date(from:)),
            updated: (item["date_modified"] as? String).flatMap(FeedDate.date(from:)), authors: authors(item),
            summary: text(item["summary"]), contentHTML: text(item["content_html"]),
            contentText: text(item["content_text"]),
            categories: (item["tags"] as? [Any] ?? []).compactMap { text($0) },
            enclosures: (item["attachments"] as? [Any] ?? []).compactMap { attachment($0, base: base) })
        let hasSomething =
            id != nil || parsed.link != nil || parsed.title != nil || parsed.contentHTML != nil
            || parsed.contentText != nil || parsed.summary != nil
        return hasSomething ? parsed : nil
    }

    private static func authors(_ object: [String: Any]) -> [Author] {
        var list = (object["authors"] as? [Any] ?? []).compactMap(author)
        if list.isEmpty, let single = object["author"].flatMap(author) { list = [single] }
        return list
    }

    private static func author(_ value: Any) -> Author? {
        guard let object = value as? [String: Any] else { return nil }
        let author = Author(name: text(object["name"]), email: nil, uri: text(object["url"]))
        return author.name == nil && author.uri == nil ? nil : author
    }

    private static func attachment(_ value: Any, base: URL?) -> Enclosure? {
        guard let object = value as? [String: Any], let url = url(object["url"], base: base) else { return nil }
        let size = (object["size_in_bytes"] as? NSNumber)?.int64Value
        return Enclosure(url: url, mimeType: text(object["mime_type"]), length: size)
    }

    /// A non-empty string value, trimmed.
    private static func text(_ value: Any?) -> String? {
        guard let string = value as? String else { return nil }
        let trimmed = string.trimmedWhitespace
        return trimmed.isEmpty ? nil : trimmed
    }

    /// An absolute URL from a string value, resolved against `base` when relative.
    private static func url(_ value: Any?, base: URL?) -> URL? {
        guard let string = text(value), let url = URL(string: string, relativeTo: base) else { return nil }
        return url.absoluteURL
    }
}
