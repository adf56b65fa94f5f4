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
    /// The folders it sits in, outermost first (its first place in the document).
    public var categories: [String]
    /// Every place it sits in, each a folder path outermost first (`[]` for the top level): a
    /// feed listed in two folders is one subscription with two places.
    public var places: [[String]]
    /// Where each of `places` comes in the document: its index among all the feed outlines.
    public var placeOrder: [Int]

    public init(
        feedURL: URL, title: String? = nil, homePageURL: URL? = nil, categories: [String] = [],
        places: [[String]]? = nil, placeOrder: [Int]? = nil
    ) {
        self.feedURL = feedURL
        self.title = title
        self.homePageURL = homePageURL
        self.categories = categories
        self.places = places ?? [categories]
        self.placeOrder = placeOrder ?? Array(self.places.indices)
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

    /// An OPML 2.0 document listing `subscriptions`, each at every one of its places, folders as
    /// nested outlines. A folder is written where its first feed comes, so a document read and
    /// written again keeps its folders, their nesting and their order.
    public static func document(title: String, subscriptions: [OPMLSubscription], created: Date = Date()) -> Data {
        var lines = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "<opml version=\"2.0\">", "  <head>",
            "    <title>\(MarkupEscaping.escape(title))</title>",
            "    <dateCreated>\(RFC822.string(from: created))</dateCreated>",
            "  </head>", "  <body>",
        ]
        let root = Folder(name: "")
        for subscription in subscriptions {
            for place in subscription.places.isEmpty ? [[]] : subscription.places {
                var folder = root
                for name in place { folder = folder.child(named: name) }
                folder.entries.append(.feed(subscription))
            }
        }
        root.write(into: &lines, indent: "    ")
        lines += ["  </body>", "</opml>", ""]
        return Data(lines.joined(separator: "\n").utf8)
    }
}

/// A folder of an OPML document being written: its feeds and folders in their order.
private final class Folder {
    enum Entry {
        case feed(OPMLSubscription)
        case folder(Folder)
    }

    let name: String
    var entries: [Entry] = []
    private var children: [String: Folder] = [:]

    init(name: String) { self.name = name }

    func child(named name: String) -> Folder {
        if let existing = children[name] { return existing }
        let folder = Folder(name: name)
        children[name] = folder
        entries.append(.folder(folder))
        return folder
    }

    func write(into lines: inout [String], indent: String) {
        for entry in entries {
            switch entry {
            case .feed(let subscription):
                let title = MarkupEscaping.escape(subscription.title ?? subscription.feedURL.absoluteString)
                var attributes =
                    "type=\"rss\" text=\"\(title)\" title=\"\(title)\" xmlUrl=\"\(MarkupEscaping.escape(subscription.feedURL.absoluteString))\""
                if let home = subscription.homePageURL {
                    attributes += " htmlUrl=\"\(MarkupEscaping.escape(home.absoluteString))\""
                }
                lines.append("\(indent)<outline \(attributes)/>")
            case .folder(let folder):
                let name = MarkupEscaping.escape(folder.name)
                lines.append("\(indent)<outline text=\"\(name)\" title=\"\(name)\">")
                folder.write(into: &lines, indent: indent + "  ")
                lines.append("\(indent)</outline>")
            }
        }
    }
}
