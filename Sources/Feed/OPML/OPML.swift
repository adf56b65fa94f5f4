public import Foundation
import Models

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// One subscription in an OPML file.
public struct OPMLSubscription: Sendable, Hashable {
    /// The feed's URL (`xmlUrl`).
    public var feedURL: URL
    /// Its title (`title`, else `text`).
    public var title: String?
    /// The site (`htmlUrl`).
    public var homePageURL: URL?
    /// The folders it sits in, outermost first.
    public var categories: [String]

    /// Creates a subscription.
    public init(feedURL: URL, title: String? = nil, homePageURL: URL? = nil, categories: [String] = []) {
        self.feedURL = feedURL
        self.title = title
        self.homePageURL = homePageURL
        self.categories = categories
    }
}

/// OPML 2.0 subscription lists: reading (nested outlines as folders) and writing.
public enum OPML {
    /// The subscriptions of an OPML document, in document order, without repeated URLs.
    ///
    /// - Throws: `FeedParseError.notAFeed` when the document is not OPML, `.malformed` when it
    ///   cannot be read at all.
    public static func subscriptions(in data: Data) throws(FeedParseError) -> [OPMLSubscription] {
        let parser = XMLParser(data: HTMLEntityPreprocessor.process(data))
        parser.shouldResolveExternalEntities = false
        let delegate = OPMLDelegate()
        parser.delegate = delegate
        let succeeded = parser.parse()
        guard delegate.rootName?.lowercased() == "opml" else {
            if let root = delegate.rootName { throw .notAFeed("an XML document whose root is <\(root)>, not <opml>") }
            throw .malformed(parser.parserError.map(XMLFeedParser.describe) ?? "the document is empty")
        }
        if (!succeeded || parser.parserError != nil) && delegate.subscriptions.isEmpty {
            throw .malformed(parser.parserError.map(XMLFeedParser.describe) ?? "the OPML is not well formed")
        }
        return delegate.subscriptions
    }

    /// An OPML 2.0 document listing `subscriptions`, folders as nested outlines.
    public static func document(title: String, subscriptions: [OPMLSubscription], created: Date = Date()) -> Data {
        var lines = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "<opml version=\"2.0\">", "  <head>",
            "    <title>\(MarkupEscaping.escape(title))</title>",
            "    <dateCreated>\(RFC822.string(from: created))</dateCreated>",
            "  </head>", "  <body>",
        ]
        var folders: [String: [OPMLSubscription]] = [:]
        var order: [String] = []
        for subscription in subscriptions {
            let folder = subscription.categories.first ?? ""
            if folders[folder] == nil { order.append(folder) }
            folders[folder, default: []].append(subscription)
        }
        for folder in order {
            let indent = folder.isEmpty ? "    " : "      "
            if !folder.isEmpty {
                lines.append(
                    "    <outline text=\"\(MarkupEscaping.escape(folder))\" title=\"\(MarkupEscaping.escape(folder))\">"
                )
            }
            for subscription in folders[folder] ?? [] {
                let title = MarkupEscaping.escape(subscription.title ?? subscription.feedURL.absoluteString)
                var attributes =
                    "type=\"rss\" text=\"\(title)\" title=\"\(title)\" xmlUrl=\"\(MarkupEscaping.escape(subscription.feedURL.absoluteString))\""
                if let home = subscription.homePageURL {
                    attributes += " htmlUrl=\"\(MarkupEscaping.escape(home.absoluteString))\""
                }
                lines.append("\(indent)<outline \(attributes)/>")
            }
            if !folder.isEmpty { lines.append("    </outline>") }
        }
        lines += ["  </body>", "</opml>", ""]
        return Data(lines.joined(separator: "\n").utf8)
    }
}

/// Collects subscription outlines, tracking the folder outlines around them.
private final class OPMLDelegate: NSObject, XMLParserDelegate {
    var rootName: String?
    var subscriptions: [OPMLSubscription] = []
    private var folders: [String?] = []
    private var seen = Set<URL>()

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String]
    ) {
        if rootName == nil { rootName = elementName }
        guard elementName.lowercased() == "outline" else { return }
        let lowered = Dictionary(
            attributes.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        let title = (lowered["title"] ?? lowered["text"]).map { $0.trimmedWhitespace }.flatMap { $0.isEmpty ? nil : $0 }
        if let xmlURL = lowered["xmlurl"]?.trimmedWhitespace, let url = URL(string: xmlURL), url.scheme != nil {
            if seen.insert(url).inserted {
                subscriptions.append(
                    OPMLSubscription(
                        feedURL: url, title: title, homePageURL: lowered["htmlurl"].flatMap(URL.init(string:)),
                        categories: folders.compactMap { $0 }))
            }
            folders.append(nil)
        } else {
            folders.append(title)
        }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        if elementName.lowercased() == "outline", !folders.isEmpty { folders.removeLast() }
    }
}
