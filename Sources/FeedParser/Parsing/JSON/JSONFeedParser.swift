import Foundation
import Markup
import Models

/// Reads JSON Feed 1.0 and 1.1 (https://jsonfeed.org/version/1.1).
///
/// The JSON is read by `JSONScanner` (RFC 8259, bounded nesting; a trailing comma is read, with
/// a warning). Liberal like the best readers: a `version` that is not the specification's URL
/// is read, with a warning, when the feed has items; ids may be strings or numbers; an item's
/// `image` and `banner_image` and the feed's `icon` and `favicon` are kept; the 1.0 `author` and the 1.1
/// `authors` are both read, relative URLs are resolved against the feed's `home_page_url`,
/// else its `feed_url`, else the document's URL (SPEC §5; those two against the document's
/// URL), the URLs inside an item's `content_html` against the item's `url`, and an item that
/// is not an object, or has nothing usable, is skipped with a warning instead of failing the
/// feed.
enum JSONFeedParser {
    static func parse(_ data: Data, url: URL?) throws(FeedParseError) -> ParsedFeed {
        let feed: JSONNode
        var warnings: [String] = []
        do {
            let (node, trailingCommas) = try JSONScanner.parse(data, allowingTrailingCommas: true)
            feed = node
            if trailingCommas > 0 {
                warnings.append(
                    "the JSON ends \(trailingCommas) objects or arrays with a comma, which JSON does not allow; read it anyway"
                )
            }
        } catch {
            throw .malformed("the JSON is not valid (\(error.message) at byte \(error.offset))")
        }
        guard feed.isObject else { throw .notAFeed("the JSON is not an object") }
        let format = try Self.format(feed, warnings: &warnings)
        let feedURL = Self.url(feed["feed_url"], base: url)
        let home = Self.url(feed["home_page_url"], base: feedURL ?? url)
        let base = [home, feedURL].first { $0?.scheme != nil } ?? url

        var unknownZones: [String] = []
        var items: [ParsedItem] = []
        let feedAuthors = Self.authors(feed, base: base)
        let rawItems = feed["items"]?.array ?? []
        if let value = feed["items"], value.array == nil { warnings.append("\"items\" is not an array") }
        for (index, item) in rawItems.enumerated() {
            guard item.isObject else {
                warnings.append("items[\(index)] is not an object; skipped")
                continue
            }
            guard var parsed = Self.item(item, base: base, unknownZones: &unknownZones) else {
                warnings.append("items[\(index)] has no id, link, title or content; skipped")
                continue
            }
            // An item without authors has the feed's (JSON Feed 1.1, "authors").
            if parsed.authors.isEmpty { parsed.authors = feedAuthors }
            items.append(parsed)
        }
        warnings += unknownZones.map(FeedDate.unknownZoneWarning)
        return ParsedFeed(
            format: format, title: Self.title(feed["title"]), link: home, feedURL: feedURL,
            description: Self.text(feed["description"]), language: Self.text(feed["language"]), updated: nil,
            icon: Self.url(feed["icon"], base: base) ?? Self.url(feed["favicon"], base: base),
            image: Self.url(feed["icon"], base: base), authors: feedAuthors, items: items, warnings: warnings)
    }

    /// The JSON Feed version the document announces. One whose `version` is missing or is not
    /// the specification's URL is still read, with a warning, when it has items that are
    /// objects with something a feed item has (as the best readers do); else it is no feed.
    private static func format(_ feed: JSONNode, warnings: inout [String]) throws(FeedParseError) -> FeedFormat {
        let version = feed["version"]?.string?.trimmedWhitespace
        if let version, version.contains("jsonfeed.org/version/") {
            return version.hasSuffix("/1") ? .jsonFeed10 : .jsonFeed11
        }
        let itemKeys = ["id", "url", "title", "content_html", "content_text", "summary"]
        let hasItems =
            feed["items"]?.array?.contains { item in item.isObject && itemKeys.contains { item[$0] != nil } } ?? false
        guard hasItems else { throw .notAFeed("the JSON has no JSON Feed \"version\"") }
        let stated = version.map { "\"\($0)\"" } ?? "missing"
        warnings.append(
            "the JSON Feed \"version\" is \(stated), not https://jsonfeed.org/version/1.1; read it as JSON Feed by its items"
        )
        return version == "1" || version == "1.0" ? .jsonFeed10 : .jsonFeed11
    }

    private static func item(_ item: JSONNode, base: URL?, unknownZones: inout [String]) -> ParsedItem? {
        func date(_ value: JSONNode?) -> Date? {
            guard let reading = value?.string.flatMap(FeedDate.reading) else { return nil }
            if let zone = reading.unknownZone, !unknownZones.contains(zone) { unknownZones.append(zone) }
            return reading.date
        }
        let id: String? =
            switch item["id"] {
            case .string(let text): text
            case .number(let text): Self.numberText(text)
            default: nil
            }
        let link = url(item["url"], base: base)
        let parsed = ParsedItem(
            id: id, title: title(item["title"]), link: link,
            externalLink: url(item["external_url"], base: base),
            published: date(item["date_published"]), updated: date(item["date_modified"]),
            authors: authors(item, base: base), summary: text(item["summary"]),
            contentHTML: text(item["content_html"]).map {
                HTMLURLResolver.resolvingURLs(in: $0, against: link ?? base)
            },
            contentText: text(item["content_text"]),
            categories: (item["tags"]?.array ?? []).compactMap { text($0) },
            enclosures: (item["attachments"]?.array ?? []).compactMap { attachment($0, base: base) }.reduce(
                into: []
            ) { $0.appendMerging($1) },
            image: url(item["image"], base: base) ?? url(item["banner_image"], base: base),
            bannerImage: url(item["banner_image"], base: base))
        let hasSomething =
            id != nil || parsed.link != nil || parsed.title != nil || parsed.contentHTML != nil
            || parsed.contentText != nil || parsed.summary != nil
        return hasSomething ? parsed : nil
    }

    /// A numeric id as text: an integer as written (`42`), any other number as its value
    /// prints (`1.5`, `1e3` is `1000`).
    private static func numberText(_ text: String) -> String {
        if Int64(text) != nil { return text }
        guard let value = Double(text) else { return text }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    private static func authors(_ object: JSONNode, base: URL?) -> [Author] {
        var list: [Author] = []
        for value in object["authors"]?.array ?? [] {
            if let author = author(value, base: base) { list.appendMerging(author) }
        }
        if list.isEmpty, let single = object["author"].flatMap({ author($0, base: base) }) { list = [single] }
        return list
    }

    private static func author(_ value: JSONNode, base: URL?) -> Author? {
        guard value.isObject else { return nil }
        let author = Author(
            name: title(value["name"]), email: nil,
            uri: url(value["url"], base: base)?.absoluteString ?? text(value["url"]))
        return author.name == nil && author.uri == nil ? nil : author
    }

    private static func attachment(_ value: JSONNode, base: URL?) -> Enclosure? {
        guard value.isObject, let url = url(value["url"], base: base) else { return nil }
        let size: Int64? =
            if case .number(let text)? = value["size_in_bytes"] {
                Int64(text) ?? Double(text).flatMap { $0.isFinite && abs($0) < 9e18 ? Int64($0) : nil }
            } else {
                nil
            }
        return Enclosure(url: url, mimeType: text(value["mime_type"]), length: size)
    }

    /// A title or a name: plain text in JSON Feed, but feeds write HTML into them, entities
    /// above all (`Caf&eacute;`), as they do in RSS; read like RSS titles (`HTMLText.line`).
    private static func title(_ value: JSONNode?) -> String? { text(value).flatMap(HTMLText.line) }

    /// A non-empty string value, trimmed.
    private static func text(_ value: JSONNode?) -> String? {
        guard let string = value?.string else { return nil }
        let trimmed = string.trimmedWhitespace
        return trimmed.isEmpty ? nil : trimmed
    }

    /// An absolute URL from a string value, resolved against `base` when relative.
    private static func url(_ value: JSONNode?, base: URL?) -> URL? {
        guard let string = text(value), let url = URL(string: string, relativeTo: base) else { return nil }
        return url.absoluteURL
    }
}
