import Foundation
import Models

/// The values of one feed or item as they are read, and the `ParsedFeed` they become.
extension XMLFeedBuilder {
    struct FieldSet {
        var id: String?
        var title: String?
        /// A title to show when there is no other (Media RSS `media:title`).
        var fallbackTitle: String?
        var link: URL?
        /// A guid that is a permalink, or an Atom id: the link when there is no other and it is
        /// a web address (parsed only then).
        var permalinkID: String?
        var feedURL: URL?
        var description: String?
        var summary: String?
        var contentHTML: String?
        /// A description to use when there is no other (Dublin Core's `description`).
        var fallbackDescription: String?
        /// The `xml:base` in force where the descriptions, summary and content were read.
        var descriptionBase, fallbackDescriptionBase, summaryBase, contentBase: URL?
        var published: Date?
        var updated: Date?
        var language: String?
        /// The `xml:lang` of the root element or the channel.
        var xmlLanguage: String?
        var icon: URL?
        /// The channel's RSS `<image>` or Atom `logo`.
        var logo: URL?
        /// `itunes:image`: the episode's image, or the podcast's cover art.
        var image: URL?
        /// The first `media:thumbnail`; an image `media:content`.
        var thumbnail, mediaImage: URL?
        /// iTunes and Media RSS descriptions, used when the feed gives no other.
        var itunesSummary, itunesSubtitle, mediaDescription: String?
        /// `itunes:duration`, else a `media:content`'s `duration`, in seconds.
        var duration, mediaDuration: Int?
        /// `itunes:episode` and `itunes:season`.
        var episode, season: Int?
        var authors: [Author] = []
        var categories: [String] = []
        var enclosures: [Enclosure] = []
    }

    /// An item's fields as a `ParsedItem`. RSS: content:encoded is the content and
    /// description the summary; without it the description is the content. Atom: content,
    /// else the summary. The URLs inside them are made absolute against the `xml:base` where
    /// each was read, else the item's link, else the feed's, else the document's URL.
    func parsedItem(_ fields: consuming FieldSet) -> ParsedItem {
        let link = fields.link ?? Self.webAddress(fields.permalinkID)
        let itemBase = link ?? channel.link ?? documentURL
        func resolved(_ html: String?, _ base: URL?) -> String? {
            html.map { resolved($0, base) }
        }
        func resolved(_ html: String, _ base: URL?) -> String {
            HTMLURLResolver.resolvingURLs(in: html, against: base ?? itemBase)
        }
        let description =
            fields.description.map { resolved($0, fields.descriptionBase) }
            ?? fields.fallbackDescription.map { resolved($0, fields.fallbackDescriptionBase) }
        let summary = resolved(fields.summary, fields.summaryBase)
        let content = resolved(fields.contentHTML, fields.contentBase)
        // A podcast's or a video's description stands in for a summary the feed leaves out.
        let podcastSummary = [fields.itunesSummary, fields.mediaDescription, fields.itunesSubtitle].lazy
            .compactMap { $0 }.first
        return ParsedItem(
            id: fields.id, title: fields.title ?? fields.fallbackTitle, link: link, externalLink: nil,
            published: fields.published, updated: fields.updated, authors: fields.authors,
            summary: summary ?? (content != nil ? description : nil) ?? podcastSummary,
            contentHTML: content ?? description ?? summary, contentText: nil, categories: fields.categories,
            enclosures: fields.enclosures, image: fields.image ?? fields.thumbnail ?? fields.mediaImage,
            duration: fields.duration ?? fields.mediaDuration, episode: fields.episode, season: fields.season)
    }

    /// Keeps a finished item, or hands it on when the document is streamed. A streamed Atom
    /// entry without authors gets the feed's authors as read so far (`feed(format:)` gives the
    /// kept ones those read by the end; `streamedFeedAuthorsChanged` tells the two apart).
    mutating func finish(_ item: consuming ParsedItem) {
        guard let onItem else {
            items.append(item)
            return
        }
        var item = item
        if isAtom, item.authors.isEmpty {
            item.authors = channel.authors
            if streamedFeedAuthors == nil { streamedFeedAuthors = channel.authors }
        }
        deliveredCount += 1
        onItem(item)
    }

    /// How many items were read: kept and streamed.
    var itemCount: Int { items.count + deliveredCount }

    /// Whether a streamed Atom entry without authors was given other feed authors than those
    /// the document ends with (the feed's `<author>` after its entries): the document is then
    /// read again whole, and the streamed items replaced.
    var streamedFeedAuthorsChanged: Bool { streamedFeedAuthors.map { $0 != channel.authors } ?? false }

    private var isAtom: Bool { format == .atom10 || format == .atom03 }

    /// `text` as a URL when it is an absolute http or https address.
    static func webAddress(_ text: String?) -> URL? {
        guard let text, text.utf8.count > 7, text.utf8.prefix(4).map({ $0 | 0x20 }) == Array("http".utf8) else {
            return nil
        }
        return URL(string: text).flatMap { $0.scheme?.lowercased().hasPrefix("http") == true ? $0 : nil }
    }

    /// The feed read so far, in `format`. In Atom an entry without authors has the feed's
    /// (RFC 4287, 4.2.1).
    func feed(format: FeedFormat) -> ParsedFeed {
        var entries = items
        if isAtom, !channel.authors.isEmpty {
            for index in entries.indices where entries[index].authors.isEmpty {
                entries[index].authors = channel.authors
            }
        }
        return ParsedFeed(
            format: format, title: channel.title, link: channel.link ?? Self.webAddress(channel.permalinkID),
            feedURL: channel.feedURL,
            description: channel.description ?? channel.summary ?? channel.fallbackDescription
                ?? channel.itunesSummary ?? channel.itunesSubtitle ?? channel.mediaDescription,
            language: channel.language ?? channel.xmlLanguage,
            updated: channel.updated ?? channel.published, icon: channel.icon,
            image: channel.image ?? channel.logo ?? channel.thumbnail, authors: channel.authors,
            items: entries, warnings: unknownZones.map(FeedDate.unknownZoneWarning),
            refreshInterval: refreshInterval)
    }

    /// How often the feed says it changes: `ttl` minutes, else the syndication module's period
    /// divided by its frequency (once a day when it names a frequency and no period). Within a
    /// minute and a week; nonsense is no hint.
    var refreshInterval: TimeInterval? {
        var seconds: TimeInterval?
        if let ttl, ttl > 0 {
            seconds = TimeInterval(ttl) * 60
        } else if updatePeriod != nil || updateFrequency != nil {
            let periods: [String: TimeInterval] = [
                "hourly": 3_600, "daily": 86_400, "weekly": 604_800, "monthly": 2_592_000, "yearly": 31_536_000,
            ]
            guard let period = periods[updatePeriod ?? "daily"] else { return nil }
            let frequency = max(1, updateFrequency ?? 1)
            seconds = period / TimeInterval(frequency)
        }
        return seconds.map { min(max($0, 60), 604_800) }
    }
}
