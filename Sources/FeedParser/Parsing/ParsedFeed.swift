public import Foundation
public import Models

/// A feed as a parser read it, whatever its format.
public struct ParsedFeed: Sendable, Hashable {
    /// The format the document was in.
    public var format: FeedFormat
    /// The feed's title, as plain text.
    public var title: String?
    /// The site the feed belongs to.
    public var link: URL?
    /// Where the feed says it lives.
    public var feedURL: URL?
    /// The feed's description, as plain text.
    public var description: String?
    /// The language code (`en-us`).
    public var language: String?
    /// When the feed last changed.
    public var updated: Date?
    /// An icon or image for the feed.
    public var icon: URL?
    /// The feed's image: a podcast's cover art (`itunes:image`), the RSS channel's `<image>`,
    /// Atom's `logo`, a JSON Feed's `icon`, a Media RSS thumbnail.
    public var image: URL?
    public var authors: [Author]
    /// The entries, in document order.
    public var items: [ParsedItem]
    /// Problems the parser recovered from (a skipped item, a cut-off document).
    public var warnings: [String]
    /// How often the feed says it changes (RSS `ttl`, `sy:updatePeriod` and `updateFrequency`),
    /// between a minute and a week; `nil` when it does not say.
    public var refreshInterval: TimeInterval?

    public init(
        format: FeedFormat, title: String? = nil, link: URL? = nil, feedURL: URL? = nil, description: String? = nil,
        language: String? = nil, updated: Date? = nil, icon: URL? = nil, image: URL? = nil, authors: [Author] = [],
        items: [ParsedItem] = [], warnings: [String] = [], refreshInterval: TimeInterval? = nil
    ) {
        self.format = format
        self.title = title
        self.link = link
        self.feedURL = feedURL
        self.description = description
        self.language = language
        self.updated = updated
        self.icon = icon
        self.image = image
        self.authors = authors
        self.items = items
        self.warnings = warnings
        self.refreshInterval = refreshInterval
    }
}

/// What a streaming parse (`FeedDocumentParser.parse(data:url:charset:each:)`) hands its consumer.
public enum ParsedItemEvent: Sendable {
    /// The next item, in document order.
    case item(ParsedItem)
    /// Forget the items sent so far: the document is being read again (it was damaged, or
    /// what its items need came after them), and its items follow anew.
    case restart
}

/// One entry of a parsed feed.
public struct ParsedItem: Sendable, Hashable {
    /// The feed's own guid or id, when it has one.
    public var id: String?
    /// The stable identity used for de-duplication; never empty (see `ArticleIdentity`).
    public var uniqueID: String
    /// The title, as plain text.
    public var title: String?
    /// The entry's permalink.
    public var link: URL?
    /// The page a link post points to.
    public var externalLink: URL?
    /// When it was published.
    public var published: Date?
    /// When it last changed.
    public var updated: Date?
    /// Who wrote it.
    public var authors: [Author]
    /// A short summary, as plain text.
    public var summary: String?
    /// The content as published (HTML).
    public var contentHTML: String?
    /// The content as plain text: the feed's own, else the HTML rendered as text when asked
    /// (a parse that prints no text, as `parse --summary`, never renders it).
    public var contentText: String? {
        get { givenText ?? contentHTML.map(HTMLText.plainText).flatMap { $0.isEmpty ? nil : $0 } }
        set { givenText = newValue }
    }
    /// The plain text the feed gave itself (JSON Feed's `content_text`).
    private var givenText: String?
    /// Tags and categories.
    public var categories: [String]
    /// Attached media.
    public var enclosures: [Enclosure]
    /// The item's image: an episode's `itunes:image`, a Media RSS thumbnail, a JSON Feed
    /// `image` (else its `banner_image`).
    public var image: URL?
    /// A JSON Feed item's `banner_image`.
    public var bannerImage: URL?
    /// How long the episode or video lasts, in seconds (`itunes:duration`, Media RSS).
    public var duration: Int?
    /// The podcast episode's number (`itunes:episode`).
    public var episode: Int?
    /// The podcast season's number (`itunes:season`).
    public var season: Int?

    /// Creates an item; its `uniqueID` follows `ArticleIdentity`.
    public init(
        id: String? = nil, title: String? = nil, link: URL? = nil, externalLink: URL? = nil, published: Date? = nil,
        updated: Date? = nil, authors: [Author] = [], summary: String? = nil, contentHTML: String? = nil,
        contentText: String? = nil, categories: [String] = [], enclosures: [Enclosure] = [], image: URL? = nil,
        bannerImage: URL? = nil, duration: Int? = nil, episode: Int? = nil, season: Int? = nil
    ) {
        self.id = id
        self.title = title
        self.link = link
        self.externalLink = externalLink
        self.published = published
        self.updated = updated
        self.authors = authors
        self.summary = summary
        self.contentHTML = contentHTML
        self.givenText = contentText
        self.categories = categories
        self.enclosures = enclosures
        self.image = image
        self.bannerImage = bannerImage
        self.duration = duration
        self.episode = episode
        self.season = season
        self.uniqueID = ArticleIdentity.uniqueID(
            id: id, permalink: link, link: externalLink, title: title, date: published ?? updated,
            body: contentHTML ?? contentText ?? summary)
    }

    /// The article this item becomes in `feedID`.
    public func article(feedID: Int64) -> Article {
        Article(
            feedID: feedID, uniqueID: uniqueID, externalID: id, title: title, link: link, externalLink: externalLink,
            published: published, updated: updated, authors: authors, summary: summary, contentHTML: contentHTML,
            contentText: contentText, categories: categories, enclosures: enclosures, image: image,
            duration: duration, episode: episode, season: season)
    }
}
