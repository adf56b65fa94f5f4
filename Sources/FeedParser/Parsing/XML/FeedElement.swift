internal import CLibXML2
import Foundation
import Markup

/// The elements the feed builder acts on; everything else is `.other`.
enum FeedElement: UInt8 {
    case other
    // Roots and containers: their own text is ignored.
    case rss, rdf, feed, feed03, channel, item, entry, image, textInput, atomSource, atomAuthor, atomContributor
    // RSS 0.9x/1.0/2.0.
    case title, link, description, guid, pubDate, lastBuildDate, language, rssAuthor, managingEditor
    case category, enclosure, url
    // Atom 1.0 and 0.3.
    case atomTitle, atomSubtitle, atomTagline, atomSummary, atomContent, atomID, atomLink, atomCategory
    case atomPublished, atomIssued, atomUpdated, atomModified, atomIcon, atomLogo, atomName, atomEmail, atomURI
    // Dublin Core, content, Media RSS, iTunes.
    case dcCreator, dcDate, dcSubject, dcLanguage, dcDescription, dctermsCreated, dctermsIssued, dctermsModified,
        contentEncoded
    case mediaContent, mediaThumbnail, mediaCategory, mediaTitle, mediaDescription
    case itunesAuthor, itunesImage, itunesCategory, itunesSummary, itunesSubtitle, itunesDuration, itunesEpisode
    case itunesSeason
    // How often the feed changes: RSS 2.0's ttl, the syndication module's period and frequency.
    case ttl, syUpdatePeriod, syUpdateFrequency

    /// Elements that hold other elements, not text.
    var isContainer: Bool {
        switch self {
        case .rss, .rdf, .feed, .feed03, .channel, .item, .entry, .image, .textInput, .atomSource, .atomAuthor,
            .atomContributor:
            true
        default: false
        }
    }

    /// Elements read from their attributes alone (their text, if any, is ignored).
    var isAttributeOnly: Bool {
        switch self {
        case .enclosure, .atomLink, .atomCategory, .mediaContent, .mediaThumbnail, .itunesImage, .itunesCategory:
            true
        default: false
        }
    }

    /// Elements whose value is their text: child elements inside one are not fields of their
    /// own, and their text is the element's (as a text construct's markup is kept as markup).
    var isTextField: Bool { self != .other && !isContainer && !isAttributeOnly }

    /// Text constructs whose child elements are kept as markup (HTML inside an RSS title or
    /// description, Atom XHTML content).
    var keepsChildMarkup: Bool {
        switch self {
        case .title, .description, .dcDescription, .contentEncoded, .atomTitle, .atomSubtitle, .atomTagline,
            .atomSummary,
            .atomContent:
            true
        default: false
        }
    }

    /// Atom text constructs, whose `type` says whether they hold text, HTML or XHTML.
    var isAtomText: Bool {
        switch self {
        case .atomTitle, .atomSubtitle, .atomTagline, .atomSummary, .atomContent: true
        default: false
        }
    }

    /// Every element the builder knows, by namespace URI (`nil`: no namespace) and local name.
    static let table: [(namespace: String?, names: [(String, FeedElement)])] = [
        (
            nil,
            [
                ("item", .item), ("title", .title), ("link", .link), ("description", .description),
                ("guid", .guid), ("pubDate", .pubDate), ("category", .category), ("enclosure", .enclosure),
                ("author", .rssAuthor), ("channel", .channel), ("rss", .rss), ("lastBuildDate", .lastBuildDate),
                ("language", .language), ("managingEditor", .managingEditor), ("image", .image), ("url", .url),
                ("textInput", .textInput), ("textinput", .textInput), ("ttl", .ttl),
            ]
        ),
        (
            XMLNamespace.atom10,
            [
                ("entry", .entry), ("title", .atomTitle), ("link", .atomLink), ("id", .atomID),
                ("updated", .atomUpdated), ("published", .atomPublished), ("summary", .atomSummary),
                ("content", .atomContent), ("author", .atomAuthor), ("name", .atomName), ("email", .atomEmail),
                ("uri", .atomURI), ("category", .atomCategory), ("contributor", .atomContributor),
                ("feed", .feed), ("subtitle", .atomSubtitle), ("icon", .atomIcon), ("logo", .atomLogo),
                ("source", .atomSource), ("item", .entry),
            ]
        ),
        (
            XMLNamespace.atom03,
            [
                ("entry", .entry), ("title", .atomTitle), ("link", .atomLink), ("id", .atomID),
                ("modified", .atomModified), ("issued", .atomIssued), ("summary", .atomSummary),
                ("content", .atomContent), ("author", .atomAuthor), ("name", .atomName), ("email", .atomEmail),
                ("url", .atomURI), ("uri", .atomURI), ("contributor", .atomContributor), ("feed", .feed03),
                ("tagline", .atomTagline), ("item", .entry),
            ]
        ),
        (XMLNamespace.rss10, rdfNames),
        (XMLNamespace.rss090, rdfNames),
        (XMLNamespace.rdf, [("RDF", .rdf)]),
        (
            XMLNamespace.dublinCore,
            [
                ("creator", .dcCreator), ("date", .dcDate), ("subject", .dcSubject), ("language", .dcLanguage),
                ("title", .title), ("author", .dcCreator), ("description", .dcDescription),
            ]
        ),
        (
            XMLNamespace.dublinCoreTerms,
            [("created", .dctermsCreated), ("issued", .dctermsIssued), ("modified", .dctermsModified)]
        ),
        (XMLNamespace.content, [("encoded", .contentEncoded)]),
        (
            XMLNamespace.syndication,
            [("updatePeriod", .syUpdatePeriod), ("updateFrequency", .syUpdateFrequency)]
        ),
        (XMLNamespace.media, mediaNames),
        (XMLNamespace.mediaWithoutSlash, mediaNames),
        (XMLNamespace.itunes, itunesNames),
        (XMLNamespace.itunesCapitalized, itunesNames),
    ]

    /// RSS 1.0's and 0.90's elements (the channel's image and text input among them).
    private static let rdfNames: [(String, FeedElement)] = [
        ("item", .item), ("title", .title), ("link", .link), ("description", .description), ("channel", .channel),
        ("image", .image), ("url", .url), ("textinput", .textInput), ("textInput", .textInput),
    ]
    private static let mediaNames: [(String, FeedElement)] = [
        ("content", .mediaContent), ("thumbnail", .mediaThumbnail), ("category", .mediaCategory),
        ("title", .mediaTitle), ("description", .mediaDescription),
    ]
    private static let itunesNames: [(String, FeedElement)] = [
        ("author", .itunesAuthor), ("image", .itunesImage), ("title", .title), ("category", .itunesCategory),
        ("summary", .itunesSummary), ("subtitle", .itunesSubtitle), ("duration", .itunesDuration),
        ("episode", .itunesEpisode), ("season", .itunesSeason),
    ]
}

/// The element and attribute names the builder compares against, interned in the parser's
/// dictionary: libxml2 hands every name out of that dictionary, so a name is recognised by
/// comparing pointers, with no allocation and no byte comparison per element.
struct InternedNames {
    typealias Name = UnsafePointer<xmlChar>

    private var namespaces: [Name?] = []
    private var locals: [[(Name, FeedElement)]] = []

    let xmlNamespace: Name
    let base, type, href, rel, length, url, isPermaLink, term, label, medium, fileSize, duration, version: Name
    let text, mode, about, resource, lang, rdfNamespace, atom10Namespace, atom03Namespace, rssLocal, feedLocal: Name
    /// A namespace read as another: the namespace of a root `<rss>` or `<feed>` that is not the
    /// one its format defines (Userland's RSS namespaces, Atom without or with a made-up one).
    private var alias: (from: Name?, to: Name?)?

    /// Interns every name in `dict`; `nil` when libxml2 is out of memory.
    init?(dict: xmlDictPtr) {
        func intern(_ text: String) -> Name? { xmlDictLookup(dict, text, -1) }
        guard let xmlNamespace = intern(XMLNamespace.xml), let base = intern("base"), let type = intern("type"),
            let href = intern("href"), let rel = intern("rel"), let length = intern("length"),
            let url = intern("url"), let isPermaLink = intern("isPermaLink"), let term = intern("term"),
            let label = intern("label"), let medium = intern("medium"), let fileSize = intern("fileSize"),
            let duration = intern("duration"),
            let version = intern("version"), let text = intern("text"), let mode = intern("mode"),
            let about = intern("about"), let resource = intern("resource"), let lang = intern("lang"),
            let rdfNamespace = intern(XMLNamespace.rdf),
            let atom10Namespace = intern(XMLNamespace.atom10), let atom03Namespace = intern(XMLNamespace.atom03),
            let rssLocal = intern("rss"), let feedLocal = intern("feed")
        else { return nil }
        (self.text, self.mode, self.about, self.resource, self.lang, self.rdfNamespace) =
            (text, mode, about, resource, lang, rdfNamespace)
        (self.atom10Namespace, self.atom03Namespace, self.rssLocal, self.feedLocal) =
            (atom10Namespace, atom03Namespace, rssLocal, feedLocal)
        (self.xmlNamespace, self.base, self.type, self.href, self.rel, self.length) =
            (xmlNamespace, base, type, href, rel, length)
        (self.url, self.isPermaLink, self.term, self.label, self.medium, self.fileSize, self.version) =
            (url, isPermaLink, term, label, medium, fileSize, version)
        self.duration = duration
        for (namespace, names) in FeedElement.table {
            var interned: [(Name, FeedElement)] = []
            for (local, element) in names {
                guard let name = intern(local) else { return nil }
                interned.append((name, element))
            }
            if let namespace {
                guard let uri = intern(namespace) else { return nil }
                namespaces.append(uri)
            } else {
                namespaces.append(nil)
            }
            locals.append(interned)
        }
    }

    /// The element named `local` in the namespace `uri` (both from the parser's dictionary).
    func element(local: Name, namespace uri: Name?) -> FeedElement {
        let uri = alias.map { uri == $0.from ? $0.to : uri } ?? uri
        guard let index = namespaces.firstIndex(where: { $0 == uri }) else { return .other }
        for (name, element) in locals[index] where name == local { return element }
        return .other
    }
}

extension InternedNames {
    /// Reads every element in `uri` as if it were in `target` from now on.
    mutating func read(_ uri: Name?, as target: Name?) { alias = (uri, target) }

    /// The element a root element in a namespace of its own stands for, reading that namespace
    /// as the format's from then on, as liberal readers do: `<rss>` in any namespace is RSS, and
    /// `<feed>` without the Atom namespace is Atom (0.3 when its version says so).
    mutating func rootElement(local: Name, namespace uri: Name?, version: String?) -> FeedElement {
        if local == rssLocal, uri != nil {
            read(uri, as: nil)
        } else if local == feedLocal, uri != atom10Namespace, uri != atom03Namespace {
            read(uri, as: version?.trimmedWhitespace == "0.3" ? atom03Namespace : atom10Namespace)
        }
        return element(local: local, namespace: uri)
    }
}

/// The attributes of a SAX2 start-element event: five pointers each (local name, prefix,
/// namespace URI, value start, value end), read without copying.
struct SAXAttributes {
    let pointer: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    let count: Int

    /// The value of the attribute `local` in `namespace` (`nil`: unprefixed), decoded.
    func value(_ local: InternedNames.Name, namespace: InternedNames.Name? = nil) -> String? {
        guard let pointer else { return nil }
        for index in 0..<count {
            let entry = pointer + index * 5
            guard entry[0] == local, entry[2] == namespace, let start = entry[3], let end = entry[4] else { continue }
            let bytes = UnsafeBufferPointer(start: start, count: end - start)
            return bytes.contains(UInt8(ascii: "&"))
                ? String(decoding: Self.decoded(bytes), as: UTF8.self) : String(decoding: bytes, as: UTF8.self)
        }
        return nil
    }

    /// Whether a value holds a C1 control (U+0080-U+009F), which a character reference such as
    /// `&#150;` gives (see `SAXFeedReader.Diagnostics.abandoned`).
    var holdsC1Control: Bool {
        guard let pointer else { return false }
        for index in 0..<count {
            let entry = pointer + index * 5
            guard var position = entry[3], let end = entry[4] else { continue }
            while position < end, let found = memchr(position, 0xC2, end - position) {
                let next = UnsafePointer(found.assumingMemoryBound(to: xmlChar.self)) + 1
                if next < end, next.pointee < 0xA0 { return true }
                position = next
            }
        }
        return false
    }

    /// Each attribute's prefix, local name and value (UTF-8), in document order.
    func visit(_ body: (_ prefix: UnsafePointer<xmlChar>?, _ local: UnsafePointer<xmlChar>, [UInt8]) -> Void) {
        guard let pointer else { return }
        for index in 0..<count {
            let entry = pointer + index * 5
            guard let local = entry[0], let start = entry[3], let end = entry[4] else { continue }
            body(entry[1], local, Self.decoded(UnsafeBufferPointer(start: start, count: end - start)))
        }
    }

    /// An attribute value as libxml2 gives it without entity substitution, where a literal
    /// `&` is written `&#38;`, with those references turned back into `&`.
    private static func decoded(_ bytes: UnsafeBufferPointer<xmlChar>) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "&"), index + 4 < bytes.count, bytes[index + 1] == UInt8(ascii: "#"),
                bytes[index + 2] == UInt8(ascii: "3"), bytes[index + 3] == UInt8(ascii: "8"),
                bytes[index + 4] == UInt8(ascii: ";")
            {
                output.append(UInt8(ascii: "&"))
                index += 5
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return output
    }
}
