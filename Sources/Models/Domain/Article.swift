public import Foundation

/// One entry of a feed, whatever format it came in (RSS, Atom, JSON Feed or a database row).
public struct Article: Sendable, Hashable, Codable, Identifiable {
    /// The stored row id; `nil` until the article is saved.
    public var id: Int64?
    /// The subscription this article belongs to.
    public var feedID: Int64
    /// The stable identity used for de-duplication within the feed; never empty.
    public var uniqueID: String
    /// The feed's own guid or id, when it published one.
    public var externalID: String?
    /// The title as plain text.
    public var title: String?
    /// The article's permalink.
    public var link: URL?
    /// The page the article is about, for link posts (JSON Feed `external_url`).
    public var externalLink: URL?
    /// When it was first published.
    public var published: Date?
    /// When it last changed.
    public var updated: Date?
    /// Who wrote it.
    public var authors: [Author]
    /// A short plain-text summary.
    public var summary: String?
    /// The content as the feed published it (HTML).
    public var contentHTML: String?
    /// The content as plain text.
    public var contentText: String?
    /// Tags and categories.
    public var categories: [String]
    /// Attached media (podcast audio, images).
    public var enclosures: [Enclosure]
    /// The article's image (an episode's artwork, a video's thumbnail).
    public var image: URL?
    /// How long the episode or video lasts, in seconds.
    public var duration: Int?
    /// The podcast episode's number.
    public var episode: Int?
    /// The podcast season's number.
    public var season: Int?

    // Acronym properties get explicit keys spelled the way a snake_case round trip spells them
    // (`feed_id` ↔ `feedId`), so `JSONCoding`'s coders read back exactly what they wrote.
    private enum CodingKeys: String, CodingKey {
        case id, title, link, published, updated, authors, summary, categories, enclosures
        case feedID = "feedId", uniqueID = "uniqueId", externalID = "externalId"
        case externalLink, contentText
        case contentHTML = "contentHtml"
        case image, duration, episode, season
    }

    public init(
        id: Int64? = nil, feedID: Int64, uniqueID: String, externalID: String? = nil,
        title: String? = nil, link: URL? = nil, externalLink: URL? = nil,
        published: Date? = nil, updated: Date? = nil, authors: [Author] = [],
        summary: String? = nil, contentHTML: String? = nil, contentText: String? = nil,
        categories: [String] = [], enclosures: [Enclosure] = [], image: URL? = nil, duration: Int? = nil,
        episode: Int? = nil, season: Int? = nil
    ) {
        self.id = id
        self.feedID = feedID
        self.uniqueID = uniqueID
        self.externalID = externalID
        self.title = title
        self.link = link
        self.externalLink = externalLink
        self.published = published
        self.updated = updated
        self.authors = authors
        self.summary = summary
        self.contentHTML = contentHTML
        self.contentText = contentText
        self.categories = categories
        self.enclosures = enclosures
        self.image = image
        self.duration = duration
        self.episode = episode
        self.season = season
    }

    /// The date lists sort and show by: published, else updated.
    public var sortDate: Date? { published ?? updated }
}

/// A person credited on a feed or an article.
public struct Author: Sendable, Hashable, Codable {
    public var name: String?
    /// An e-mail address.
    public var email: String?
    /// A home page.
    public var uri: String?

    /// Creates an author; at least one field should be non-nil.
    public init(name: String? = nil, email: String? = nil, uri: String? = nil) {
        self.name = name
        self.email = email
        self.uri = uri
    }
}

/// A media file attached to an article.
public struct Enclosure: Sendable, Hashable, Codable {
    /// Where the file is.
    public var url: URL
    /// Its MIME type (`audio/mpeg`).
    public var mimeType: String?
    /// Its size in bytes.
    public var length: Int64?

    private enum CodingKeys: String, CodingKey {
        case url
        case mimeType = "type"
        case length
    }

    public init(url: URL, mimeType: String? = nil, length: Int64? = nil) {
        self.url = url
        self.mimeType = mimeType
        self.length = length
    }
}

/// What the user has done with an article. Kept apart from the article, keyed by its feed and
/// unique id, so a status outlives the article and can exist before it arrives.
public struct ArticleStatus: Sendable, Hashable, Codable {
    /// The feed of the article.
    public var feedID: Int64
    /// The article's unique id within that feed.
    public var uniqueID: String
    /// Whether the user has read it.
    public var isRead: Bool
    /// Whether the user starred it.
    public var isStarred: Bool
    /// When Tidings first saw it.
    public var arrivedAt: Date

    // Acronym properties get explicit keys spelled the way a snake_case round trip spells them
    // (`feed_id` ↔ `feedId`), so `JSONCoding`'s coders read back exactly what they wrote.
    private enum CodingKeys: String, CodingKey {
        case feedID = "feedId", uniqueID = "uniqueId", isRead, isStarred, arrivedAt
    }

    /// Creates a status; a new article is unread and unstarred.
    public init(feedID: Int64, uniqueID: String, isRead: Bool = false, isStarred: Bool = false, arrivedAt: Date) {
        self.feedID = feedID
        self.uniqueID = uniqueID
        self.isRead = isRead
        self.isStarred = isStarred
        self.arrivedAt = arrivedAt
    }
}
