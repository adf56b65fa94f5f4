import Foundation
import Models

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The `XMLParser` delegate behind `XMLFeedParser`.
final class XMLFeedDelegate: NSObject, XMLParserDelegate {
    private(set) var format: FeedFormat?
    private(set) var rootName: String?
    /// Whether the root element has been closed: the document was read to its end.
    private(set) var rootClosed = false

    private let documentURL: URL?
    private var stack: [QualifiedName] = []
    private var bases: [URL?] = []
    private var text = ""
    /// Inside an Atom `type="xhtml"` construct: how deep in its markup, which is kept as HTML.
    private var xhtmlDepth: Int?
    /// The element being read is an Atom text construct of type html or xhtml.
    private var textIsMarkup = false

    private var channel = FieldSet()
    private var item: FieldSet?
    private var items: [FieldSet] = []
    private var author: Author?
    private var authorOwnerIsItem = false

    init(documentURL: URL?) {
        self.documentURL = documentURL
    }

    /// The values of one feed or item as they are read.
    struct FieldSet {
        var id: String?
        var title: String?
        var link: URL?
        var permalinkGUID: URL?
        var feedURL: URL?
        var description: String?
        var summary: String?
        var contentHTML: String?
        var published: Date?
        var updated: Date?
        var language: String?
        var icon: URL?
        var authors: [Author] = []
        var categories: [String] = []
        var enclosures: [Enclosure] = []
    }

    // MARK: Building the result

    func feed(format: FeedFormat) -> ParsedFeed {
        let parsedItems = items.map { fields -> ParsedItem in
            // RSS: content:encoded is the content and description the summary; without it the
            // description is the content. Atom: content, else the summary.
            ParsedItem(
                id: fields.id, title: fields.title, link: fields.link ?? fields.permalinkGUID, externalLink: nil,
                published: fields.published, updated: fields.updated, authors: fields.authors,
                summary: fields.summary ?? (fields.contentHTML != nil ? fields.description : nil),
                contentHTML: fields.contentHTML ?? fields.description ?? fields.summary, contentText: nil,
                categories: fields.categories, enclosures: fields.enclosures)
        }
        return ParsedFeed(
            format: format, title: channel.title, link: channel.link, feedURL: channel.feedURL,
            description: channel.description ?? channel.summary, language: channel.language,
            updated: channel.updated ?? channel.published, icon: channel.icon, authors: channel.authors,
            items: parsedItems)
    }

    // MARK: XMLParserDelegate

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String]
    ) {
        if let depth = xhtmlDepth {
            text += "<" + elementName
            for (key, value) in attributes.sorted(by: { $0.key < $1.key }) {
                text += " \(key)=\"\(MarkupEscaping.escape(value))\""
            }
            text += ">"
            xhtmlDepth = depth + 1
            return
        }
        let name = QualifiedName(namespaceURI, elementName)
        if stack.isEmpty {
            rootName = elementName
            format = Self.format(root: name, attributes: attributes)
        }
        let parentBase = bases.last ?? documentURL
        let base =
            attributes["xml:base"].flatMap { URL(string: $0, relativeTo: parentBase ?? nil)?.absoluteURL } ?? parentBase
        stack.append(name)
        bases.append(base)
        text = ""
        let isAtomText =
            [XMLNamespace.atom10, XMLNamespace.atom03].contains(name.namespace)
            && ["content", "summary", "title", "subtitle"].contains(name.local)
        textIsMarkup = isAtomText && ["html", "xhtml", "text/html"].contains(attributes["type"] ?? "")
        if isAtomText, attributes["type"] == "xhtml" { xhtmlDepth = 0 }

        switch (name.namespace, name.local) {
        case ("", "item"), (XMLNamespace.rss10, "item"), (XMLNamespace.rss090, "item"), (XMLNamespace.atom10, "entry"),
            (XMLNamespace.atom03, "entry"):
            item = FieldSet()
        case (XMLNamespace.atom10, "author"), (XMLNamespace.atom03, "author"), (XMLNamespace.atom10, "contributor"):
            author = Author()
            authorOwnerIsItem = item != nil
        case (XMLNamespace.atom10, "link"), (XMLNamespace.atom03, "link"):
            atomLink(attributes, base: base)
        case ("", "enclosure"):
            if let href = attributes["url"], let url = URL(string: href, relativeTo: base)?.absoluteURL {
                item?.enclosures.append(
                    Enclosure(
                        url: url, mimeType: attributes["type"], length: attributes["length"].flatMap { Int64($0) }))
            }
        case ("", "guid"):
            isPermaLinkGUID = attributes["isPermaLink"]?.lowercased() != "false"
        case ("", "category"), (XMLNamespace.atom10, "category"):
            if let term = attributes["term"] ?? attributes["label"], !term.isEmpty { categories(append: term) }
        case (XMLNamespace.media, "content"), (XMLNamespace.media, "thumbnail"):
            mediaEnclosure(attributes, base: base, isThumbnail: name.local == "thumbnail")
        case (XMLNamespace.itunes, "image"):
            if item == nil, channel.icon == nil, let href = attributes["href"] {
                channel.icon = URL(string: href, relativeTo: base)?.absoluteURL
            }
        default:
            break
        }
    }

    private var isPermaLinkGUID = true

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += xhtmlDepth == nil ? string : MarkupEscaping.escape(string)
    }

    func parser(_ parser: XMLParser, foundCDATA block: Data) {
        text += String(decoding: block, as: UTF8.self)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        if let depth = xhtmlDepth {
            if depth > 0 {
                text += "</\(elementName)>"
                xhtmlDepth = depth - 1
                return
            }
            xhtmlDepth = nil
            text = Self.unwrapDiv(text)
        }
        guard let name = stack.popLast() else { return }
        let base = bases.popLast() ?? documentURL
        if stack.isEmpty { rootClosed = true }
        let value = text.trimmedWhitespace
        text = ""
        let inItem = item != nil
        let inAuthor = author != nil

        if inAuthor {
            switch name.local {
            case "name": author?.name = value.nonEmpty
            case "email": author?.email = value.nonEmpty
            case "uri", "url": author?.uri = value.nonEmpty
            case "author", "contributor":
                if let finished = author, finished.name != nil || finished.email != nil || finished.uri != nil {
                    if authorOwnerIsItem { item?.authors.append(finished) } else { channel.authors.append(finished) }
                }
                author = nil
            default: break
            }
            return
        }

        switch (name.namespace, name.local) {
        case ("", "item"), (XMLNamespace.rss10, "item"), (XMLNamespace.rss090, "item"), (XMLNamespace.atom10, "entry"),
            (XMLNamespace.atom03, "entry"):
            if let finished = item { items.append(finished) }
            item = nil
        case (_, "title") where name.namespace != XMLNamespace.media:
            // Titles are plain text; an Atom title of type html or xhtml is rendered to text.
            let title = textIsMarkup ? HTMLText.plainText(value) : value
            set(\.title, title.nonEmpty, inItem: inItem, onlyIfEmpty: true)
        case ("", "link"), (XMLNamespace.rss10, "link"), (XMLNamespace.rss090, "link"):
            let resolved = URL(string: value, relativeTo: inItem ? (channel.link ?? base) : base)?.absoluteURL
            if !value.isEmpty { set(\.link, resolved, inItem: inItem, onlyIfEmpty: true) }
        case ("", "guid"):
            item?.id = value.nonEmpty
            if isPermaLinkGUID, let url = URL(string: value), url.scheme?.hasPrefix("http") == true {
                item?.permalinkGUID = url
            }
        case (XMLNamespace.atom10, "id"), (XMLNamespace.atom03, "id"):
            if inItem { item?.id = value.nonEmpty } else { channel.id = value.nonEmpty }
        case ("", "description"), (XMLNamespace.rss10, "description"), (XMLNamespace.rss090, "description"):
            set(\.description, value.nonEmpty, inItem: inItem, onlyIfEmpty: true)
        case (XMLNamespace.atom10, "subtitle"), (XMLNamespace.atom03, "tagline"):
            channel.description = value.nonEmpty
        case (XMLNamespace.atom10, "summary"), (XMLNamespace.atom03, "summary"):
            set(\.summary, value.nonEmpty, inItem: inItem, onlyIfEmpty: true)
        case (XMLNamespace.atom10, "content"), (XMLNamespace.atom03, "content"), (XMLNamespace.content, "encoded"):
            set(\.contentHTML, value.nonEmpty, inItem: inItem, onlyIfEmpty: false)
        case ("", "pubDate"), (XMLNamespace.atom10, "published"), (XMLNamespace.atom03, "issued"),
            (XMLNamespace.dublinCore, "date"), (XMLNamespace.dublinCoreTerms, "created"):
            set(\.published, FeedDate.date(from: value), inItem: inItem, onlyIfEmpty: true)
        case (XMLNamespace.atom10, "updated"), (XMLNamespace.atom03, "modified"), ("", "lastBuildDate"),
            (XMLNamespace.dublinCoreTerms, "modified"):
            set(\.updated, FeedDate.date(from: value), inItem: inItem, onlyIfEmpty: true)
        case ("", "language"), (XMLNamespace.dublinCore, "language"):
            channel.language = value.nonEmpty
        case ("", "author"), ("", "managingEditor"):
            if let parsed = Self.rssAuthor(value) {
                if inItem { item?.authors.append(parsed) } else { channel.authors.append(parsed) }
            }
        case (XMLNamespace.itunes, "author"):
            if let name = value.nonEmpty {
                let author = Author(name: name)
                if inItem {
                    if item?.authors.isEmpty == true { item?.authors.append(author) }
                } else if channel.authors.isEmpty {
                    channel.authors.append(author)
                }
            }
        case (XMLNamespace.dublinCore, "creator"):
            if let name = value.nonEmpty {
                if inItem {
                    item?.authors.append(Author(name: name))
                } else {
                    channel.authors.append(Author(name: name))
                }
            }
        case ("", "category"), (XMLNamespace.dublinCore, "subject"):
            if let term = value.nonEmpty { categories(append: term) }
        case (XMLNamespace.atom10, "icon"), (XMLNamespace.atom10, "logo"):
            if channel.icon == nil { channel.icon = URL(string: value, relativeTo: base)?.absoluteURL }
        case ("", "url") where stack.last?.local == "image" && !inItem:
            if channel.icon == nil { channel.icon = URL(string: value, relativeTo: base)?.absoluteURL }
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?) -> Data? {
        nil  // never load external entities
    }

    // MARK: Helpers

    /// XHTML content as HTML: the markup inside the wrapping `<div>` the spec requires.
    static func unwrapDiv(_ html: String) -> String {
        let trimmed = html.trimmedWhitespace
        guard trimmed.hasPrefix("<div"), trimmed.hasSuffix("</div>"), let open = trimmed.firstIndex(of: ">") else {
            return trimmed
        }
        return String(trimmed[trimmed.index(after: open)..<trimmed.index(trimmed.endIndex, offsetBy: -6)])
    }

    private func atomLink(_ attributes: [String: String], base: URL?) {
        guard let href = attributes["href"], let url = URL(string: href, relativeTo: base)?.absoluteURL else { return }
        let rel = attributes["rel"] ?? "alternate"
        switch rel {
        case "alternate":
            if item != nil {
                if item?.link == nil { item?.link = url }
            } else if channel.link == nil {
                channel.link = url
            }
        case "self":
            if item == nil { channel.feedURL = url }
        case "enclosure":
            item?.enclosures.append(
                Enclosure(url: url, mimeType: attributes["type"], length: attributes["length"].flatMap { Int64($0) }))
        default:
            break
        }
    }

    /// Media RSS `content` and `thumbnail` become enclosures (a URL already attached is not
    /// repeated); a thumbnail's type is taken to be an image.
    private func mediaEnclosure(_ attributes: [String: String], base: URL?, isThumbnail: Bool) {
        guard item != nil, let href = attributes["url"], let url = URL(string: href, relativeTo: base)?.absoluteURL,
            item?.enclosures.contains(where: { $0.url == url }) == false
        else { return }
        let type = attributes["type"] ?? (isThumbnail ? "image/*" : attributes["medium"].map { "\($0)/*" })
        item?.enclosures.append(
            Enclosure(url: url, mimeType: type, length: attributes["fileSize"].flatMap { Int64($0) }))
    }

    private func categories(append term: String) {
        if item != nil {
            if item?.categories.contains(term) == false { item?.categories.append(term) }
        } else if !channel.categories.contains(term) {
            channel.categories.append(term)
        }
    }

    private func set<Value>(
        _ keyPath: WritableKeyPath<FieldSet, Value?>, _ value: Value?, inItem: Bool, onlyIfEmpty: Bool
    ) {
        guard let value else { return }
        if inItem {
            if !onlyIfEmpty || item?[keyPath: keyPath] == nil { item?[keyPath: keyPath] = value }
        } else if !onlyIfEmpty || channel[keyPath: keyPath] == nil {
            channel[keyPath: keyPath] = value
        }
    }

    /// The format a root element announces.
    private static func format(root: QualifiedName, attributes: [String: String]) -> FeedFormat? {
        switch (root.namespace, root.local) {
        case ("", "rss"):
            let version = attributes["version"] ?? "2.0"
            return version.hasPrefix("0.9") ? .rss09x : .rss20
        case (XMLNamespace.rdf, "RDF"): return .rss10
        case (XMLNamespace.atom10, "feed"): return .atom10
        case (XMLNamespace.atom03, "feed"): return .atom03
        default: return nil
        }
    }

    /// RSS `author`: `jo@example.com (Jo)`, `Jo <jo@example.com>`, an address, or a name.
    static func rssAuthor(_ text: String) -> Author? {
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !value.isEmpty else { return nil }
        if let open = value.firstIndex(of: "("), value.hasSuffix(")") {
            let email = value[..<open].trimmingCharacters(in: .whitespaces)
            let name = value[value.index(after: open)..<value.index(before: value.endIndex)].trimmingCharacters(
                in: .whitespaces)
            return Author(name: name.nonEmpty, email: email.contains("@") ? email : nil)
        }
        if let open = value.firstIndex(of: "<"), value.hasSuffix(">") {
            let name = value[..<open].trimmingCharacters(in: .whitespaces)
            let email = value[value.index(after: open)..<value.index(before: value.endIndex)].trimmingCharacters(
                in: .whitespaces)
            return Author(name: name.nonEmpty, email: email.nonEmpty)
        }
        return value.contains("@") && !value.contains(" ") ? Author(email: value) : Author(name: value)
    }
}

extension String {
    /// The string, or `nil` when it is empty.
    var nonEmpty: String? { isEmpty ? nil : self }
}
