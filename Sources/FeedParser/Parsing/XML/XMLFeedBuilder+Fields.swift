import Foundation
import Markup
import Models

/// What the builder takes from each element: attributes as it opens, text as it closes.
extension XMLFeedBuilder {
    mutating func start(_ element: FeedElement, attributes: SAXAttributes) {
        switch element {
        case .item, .entry:
            // An item opened inside another (a malformed document) ends the open one first.
            if let open = item.take() { finish(parsedItem(open)) }
            item = FieldSet()
            // An RSS 1.0 item is identified by its rdf:about URI.
            item?.id = attributes.value(names.about, namespace: names.rdfNamespace)?.trimmedWhitespace.nonEmpty
        case .atomAuthor, .atomContributor:
            author = Author()
            authorOwnerIsItem = item != nil
        case .atomLink where isFieldOfParent:
            atomLink(attributes)
        case .enclosure:
            if let href = attributes.value(names.url), let url = resolve(href) {
                item?.enclosures.appendMerging(
                    Enclosure(
                        url: url, mimeType: attributes.value(names.type),
                        length: attributes.value(names.length).flatMap { Int64($0.trimmedWhitespace) }))
            }
        case .guid:
            isPermaLinkGUID = attributes.value(names.isPermaLink)?.lowercased() != "false"
        case .atomCategory:
            if let term = attributes.value(names.term) ?? attributes.value(names.label), !term.isEmpty {
                categories(append: term)
            }
        case .mediaContent, .mediaThumbnail:
            media(attributes, isThumbnail: element == .mediaThumbnail)
        case .itunesCategory:
            if let term = attributes.value(names.text)?.trimmedWhitespace.nonEmpty { categories(append: term) }
        case .image where item == nil:
            // RSS 1.0: the channel's `<image rdf:resource="…">` names the image; the top-level
            // `<image rdf:about="…">` then gives its `<url>` (read as RSS 2.0's is).
            if let reference = attributes.value(names.resource, namespace: names.rdfNamespace) {
                channelImage(reference)
            }
        case .itunesImage:
            itunesImage(attributes)
        default:
            break
        }
    }

    mutating func end(_ element: FeedElement, value: String, isMarkup: Bool) {
        let inItem = item != nil
        if author != nil {
            switch element {
            case .atomName: author?.name = HTMLText.line(value)
            case .atomEmail: author?.email = value.nonEmpty
            case .atomURI:
                let uri = value.nonEmpty.map(resolvedURI)
                author?.uri = uri
            case .atomAuthor, .atomContributor:
                if let finished = author, finished.name != nil || finished.email != nil || finished.uri != nil {
                    if authorOwnerIsItem {
                        item?.authors.appendMerging(finished)
                    } else {
                        channel.authors.appendMerging(finished)
                    }
                }
                author = nil
            default: break
            }
            return
        }
        let inImage = parent == .image
        switch element {
        case .item, .entry:
            // Taken out, not copied: the fields move into the item.
            if let finished = item.take() { finish(parsedItem(finished)) }
        case .title where !inImage:
            // RSS titles are plain text, but feeds put HTML in them: render it when it is HTML.
            // Titles read as one line: runs of whitespace (line breaks from the markup, or from
            // rendered HTML) become one space.
            set(\.title, HTMLText.line(value), inItem: inItem, onlyIfEmpty: true)
        case .mediaTitle:
            if inItem { item?.fallbackTitle = value.collapsingWhitespace.nonEmpty }
        case .atomTitle where isFieldOfParent:
            let title = isMarkup ? HTMLText.plainText(value) : value
            set(\.title, title.collapsingWhitespace.nonEmpty, inItem: inItem, onlyIfEmpty: true)
        case .link where !inImage:
            if !value.isEmpty { set(\.link, resolve(value), inItem: inItem, onlyIfEmpty: true) }
        case .guid:
            item?.id = value.nonEmpty
            if isPermaLinkGUID { item?.permalinkID = value.nonEmpty }
        case .atomID:
            // Only the entry's or the feed's own id: not one inside an extension element.
            // An id that is a web address is the link when there is no other, as an RSS guid
            // that is a permalink is.
            switch parent {
            case .entry, .item:
                item?.id = value.nonEmpty
                item?.permalinkID = value.nonEmpty
            case .feed, .feed03, .channel:
                channel.id = value.nonEmpty
                channel.permalinkID = value.nonEmpty
            default: break
            }
        case .description where !inImage:
            set(\.description, value.nonEmpty, inItem: inItem, onlyIfEmpty: true, base: \.descriptionBase)
        case .dcDescription where isFieldOfParent:
            set(
                \.fallbackDescription, value.nonEmpty, inItem: inItem, onlyIfEmpty: true,
                base: \.fallbackDescriptionBase)
        case .atomSubtitle, .atomTagline:
            channel.description = (isMarkup ? HTMLText.plainText(value) : value).nonEmpty
        case .atomSummary where isFieldOfParent:
            set(\.summary, value.nonEmpty, inItem: inItem, onlyIfEmpty: true, base: \.summaryBase)
        case .atomContent, .contentEncoded:
            set(\.contentHTML, value.nonEmpty, inItem: inItem, onlyIfEmpty: false, base: \.contentBase)
        case .pubDate, .atomPublished, .atomIssued, .dcDate, .dctermsCreated, .dctermsIssued:
            set(\.published, date(value), inItem: inItem, onlyIfEmpty: true)
        case .atomUpdated, .atomModified, .lastBuildDate, .dctermsModified:
            set(\.updated, date(value), inItem: inItem, onlyIfEmpty: true)
        case .language, .dcLanguage:
            if !inItem { channel.language = value.nonEmpty }
        case .ttl:
            if !inItem { ttl = Int(value.trimmedWhitespace) }
        case .syUpdatePeriod:
            if !inItem { updatePeriod = value.trimmedWhitespace.lowercased() }
        case .syUpdateFrequency:
            if !inItem { updateFrequency = Int(value.trimmedWhitespace) }
        case .rssAuthor, .managingEditor:
            if let parsed = RSSAuthor.parse(value) {
                if inItem { item?.authors.appendMerging(parsed) } else { channel.authors.appendMerging(parsed) }
            }
        case .itunesAuthor:
            if let name = HTMLText.line(value) {
                if inItem {
                    if item?.authors.isEmpty == true { item?.authors.appendMerging(Author(name: name)) }
                } else if channel.authors.isEmpty {
                    channel.authors.appendMerging(Author(name: name))
                }
            }
        case .dcCreator:
            if let parsed = RSSAuthor.parse(value) {
                if inItem { item?.authors.appendMerging(parsed) } else { channel.authors.appendMerging(parsed) }
            }
        case .category, .dcSubject, .mediaCategory:
            if let term = value.nonEmpty { categories(append: term) }
        case .atomIcon:
            if channel.icon == nil, !value.isEmpty { channel.icon = resolve(value) }
        case .atomLogo:
            channelImage(value)
        case .url where inImage && !inItem:
            channelImage(value)
        case .itunesSummary, .itunesSubtitle, .itunesDuration, .itunesEpisode, .itunesSeason, .mediaDescription:
            podcastField(element, value: value)
        default:
            break
        }
    }

    /// The date `text` gives, noting a zone it names that no table knows (read as UTC).
    private mutating func date(_ text: String) -> Date? {
        guard let reading = FeedDate.reading(text) else { return nil }
        if let zone = reading.unknownZone, !unknownZones.contains(zone) { unknownZones.append(zone) }
        return reading.date
    }

    /// An Atom person's `uri` made absolute against the nearest `xml:base`, else the document's
    /// URL (RFC 4287's bases; not the feed's link); as written when it has a scheme or the base
    /// is not an http(s) URL.
    private func resolvedURI(_ text: String) -> String {
        guard let base = xmlBase ?? documentURL, let scheme = base.scheme?.lowercased(),
            scheme == "http" || scheme == "https", URL(string: text)?.scheme == nil,
            let url = URL(string: text, relativeTo: base)?.absoluteURL
        else { return text }
        return url.absoluteString
    }

    /// `reference` made absolute against `base`. An empty reference (`href=""`) is the base
    /// itself, without its fragment (RFC 3986, 5.2.2). Elements whose text is empty are absent
    /// instead, and never get here: only an attribute can hold an empty reference.
    func resolve(_ reference: String) -> URL? {
        let reference = reference.trimmedWhitespace
        guard reference.isEmpty else { return URL(string: reference, relativeTo: base)?.absoluteURL }
        guard let base = base?.absoluteURL, base.fragment != nil,
            var components = URLComponents(url: base, resolvingAgainstBaseURL: false)
        else { return base?.absoluteURL }
        components.fragment = nil
        return components.url ?? base
    }

    private mutating func atomLink(_ attributes: SAXAttributes) {
        guard let href = attributes.value(names.href), let url = resolve(href) else { return }
        switch attributes.value(names.rel)?.trimmedWhitespace ?? "alternate" {
        case "alternate", "":
            if item != nil {
                if item?.link == nil { item?.link = url }
            } else if channel.link == nil {
                channel.link = url
            }
        case "self":
            if item == nil { channel.feedURL = url }
        case "enclosure":
            item?.enclosures.appendMerging(
                Enclosure(
                    url: url, mimeType: attributes.value(names.type),
                    length: attributes.value(names.length).flatMap { Int64($0.trimmedWhitespace) }))
        default:
            break
        }
    }

    mutating func categories(append term: String) {
        if item != nil {
            if item?.categories.contains(term) == false { item?.categories.append(term) }
        } else if !channel.categories.contains(term) {
            channel.categories.append(term)
        }
    }

    /// Sets a field of the item (or the feed) to `value`; for an item's HTML field, `base`
    /// keeps the `xml:base` in force where it was read, for the URLs inside it.
    mutating func set<Value>(
        _ keyPath: WritableKeyPath<FieldSet, Value?>, _ value: Value?, inItem: Bool, onlyIfEmpty: Bool,
        base: WritableKeyPath<FieldSet, URL?>? = nil
    ) {
        guard let value else { return }
        if inItem {
            if !onlyIfEmpty || item?[keyPath: keyPath] == nil {
                item?[keyPath: keyPath] = value
                if let base {
                    let xmlBase = xmlBase
                    item?[keyPath: base] = xmlBase
                }
            }
        } else if !onlyIfEmpty || channel[keyPath: keyPath] == nil {
            channel[keyPath: keyPath] = value
        }
    }
}
