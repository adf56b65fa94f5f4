public import Foundation
import Markup
import Models

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
    ///   cannot be read at all or goes past a limit (size, nesting, outline count; see
    ///   `OPMLReader.limits`).
    public static func subscriptions(in data: Data) throws(FeedParseError) -> [OPMLSubscription] {
        let limit = OPMLReader.limits.maximumBytes
        guard data.count <= limit else {
            throw .malformed(refusal(.tooLarge(bytes: data.count, limit: limit)))
        }
        guard let read = OPMLReader.read(HTMLEntityPreprocessor.process(data).data) else {
            throw .malformed(XMLLibrary.startFailure)
        }
        if let exceeded = read.limitExceeded { throw .malformed(refusal(exceeded)) }
        guard read.rootName?.lowercased() == "opml" else {
            if let root = read.rootName { throw .notAFeed("an XML document whose root is <\(root)>, not <opml>") }
            throw .malformed(read.firstError.map { "the XML is not well formed (\($0))" } ?? "the document is empty")
        }
        if let error = read.firstError, read.subscriptions.isEmpty {
            throw .malformed("the OPML is not well formed (\(error))")
        }
        return read.subscriptions
    }

    private static func refusal(_ exceeded: XMLLimitExceeded) -> String {
        "the OPML is refused: \(exceeded)"
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
