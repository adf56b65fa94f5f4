public import Foundation
import Markup

/// A feed an HTML page links to.
public struct DiscoveredFeed: Sendable, Hashable {
    /// The feed's absolute URL.
    public var url: URL
    /// The link's `title`, if any.
    public var title: String?
    /// The link's media type (`application/rss+xml`).
    public var type: String?

    public init(url: URL, title: String? = nil, type: String? = nil) {
        self.url = url
        self.title = title
        self.type = type
    }
}

/// Finds the feeds of a web page: its `<link rel="alternate">` feed links first, then the
/// paths sites commonly serve feeds at.
public enum FeedDiscovery {
    /// Media types of feed links.
    static let feedTypes: Set<String> = [
        "application/rss+xml", "application/atom+xml", "application/feed+json", "application/json",
        "application/rdf+xml", "application/x.atom+xml", "application/x-atom+xml",
    ]

    /// Where sites commonly serve feeds, tried when a page links to none.
    public static let commonPaths = ["/feed", "/rss", "/atom.xml", "/feed.json", "/index.xml"]

    /// The feed links of an HTML page, in page order, without repeats; relative hrefs are
    /// resolved against `<base href>` when present, else the page's URL.
    ///
    /// A page fetched from the web only leads to http and https links: a `file:` (or any other
    /// scheme's) link, or a `<base>` that would turn relative links into one, is dropped. Only a
    /// page the user named as a local file may link to other local files.
    public static func feedLinks(inHTML html: Data, pageURL: URL) -> [DiscoveredFeed] {
        var base = pageURL
        var found: [DiscoveredFeed] = []
        for tag in headTags(in: html.prefix(2_000_000)) {
            let attributes = tag.attributes
            if tag.name == .base, let href = attributes["href"], let url = URL(string: href, relativeTo: pageURL) {
                base = url.absoluteURL
                continue
            }
            guard tag.name == .link,
                let rel = attributes["rel"]?.lowercased(), rel.split(separator: " ").contains("alternate"),
                let type = attributes["type"]?.lowercased().split(separator: ";").first.map({
                    $0.trimmingCharacters(in: .whitespaces)
                }),
                feedTypes.contains(type),
                let href = attributes["href"],
                let url = URL(string: href.trimmingCharacters(in: .whitespaces), relativeTo: base)?.absoluteURL,
                mayFollow(url, from: pageURL)
            else { continue }
            if !found.contains(where: { $0.url == url }) {
                found.append(DiscoveredFeed(url: url, title: attributes["title"].map(HTMLEntities.decode), type: type))
            }
        }
        return found
    }

    /// Whether a link found in the document at `pageURL` may be fetched: http and https
    /// always, `file:` only from a local file.
    static func mayFollow(_ url: URL, from pageURL: URL) -> Bool {
        switch url.scheme?.lowercased() {
        case "http", "https": url.host?.isEmpty == false
        case "file": pageURL.isFileURL
        default: false
        }
    }

    /// The common feed URLs of the site `pageURL` belongs to.
    public static func commonFeedURLs(for pageURL: URL) -> [URL] {
        commonPaths.compactMap { URL(string: $0, relativeTo: pageURL)?.absoluteURL }
    }

    /// The `<link>` and `<base>` tags of a document's head (up to its `<body>`), in order, with
    /// their attributes; those in comments, scripts and the title are text, not tags.
    private static func headTags(in html: Data) -> [(name: PackedName, attributes: [String: String])] {
        html.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var result: [(PackedName, [String: String])] = []
            var tokenizer = HTMLTokenizer(bytes)
            while let token = tokenizer.next() {
                guard case .startTag(let tag) = token else { continue }
                if tag.name == .link || tag.name == .base {
                    result.append((tag.name, HTMLAttributes.parse(tag, in: bytes)))
                } else if tag.name == .body {
                    break  // feed links live in the head
                }
            }
            return result
        }
    }
}

extension PackedName {
    fileprivate static let link = PackedName("link")
    fileprivate static let base = PackedName("base")
    fileprivate static let body = PackedName("body")
}
