public import Foundation

/// A subscription: where a feed lives and what Tidings knows about its last refresh.
public struct FeedSource: Sendable, Hashable, Codable, Identifiable {
    /// The stored row id; `nil` until the subscription is saved.
    public var id: Int64?
    /// Where the feed is fetched from.
    public var url: URL
    /// The title to show (the user's rename, else the feed's own).
    public var title: String
    /// The site the feed belongs to.
    public var homePageURL: URL?
    /// The format the feed was last published in.
    public var format: FeedFormat?
    /// The `ETag` of the last response, for conditional GET.
    public var etag: String?
    /// The `Last-Modified` of the last response, for conditional GET.
    public var lastModified: String?
    /// A hash of the last body, so an unchanged body is not parsed again.
    public var contentHash: String?
    /// How the last refresh went.
    public var lastResult: RefreshResult?
    /// When the last refresh finished.
    public var lastRefreshedAt: Date?
    /// The server answered 410 Gone: the feed is no longer polled.
    public var isGone: Bool
    /// A server asked (429/503 with `Retry-After`) not to be polled before this time.
    public var retryAfter: Date?
    /// How often the feed says it changes (its `ttl`, `sy:updatePeriod`, or the server's
    /// `Cache-Control: max-age`, the longest): an automatic refresh leaves it alone for that long.
    public var pace: TimeInterval?
    /// The feed account whose server owns this subscription and fetches the feed (`nil`: a
    /// subscription of this app's own, which it fetches itself).
    public var accountID: Int64?

    // Acronym properties get explicit keys spelled the way a snake_case round trip spells them
    // (`feed_id` ↔ `feedId`), so `JSONCoding`'s coders read back exactly what they wrote.
    private enum CodingKeys: String, CodingKey {
        case id, url, title, format, etag, lastModified, contentHash, lastResult, lastRefreshedAt, isGone, retryAfter
        case pace
        case homePageURL = "homePageUrl"
    }

    public init(
        id: Int64? = nil, url: URL, title: String, homePageURL: URL? = nil, format: FeedFormat? = nil,
        etag: String? = nil, lastModified: String? = nil, contentHash: String? = nil,
        lastResult: RefreshResult? = nil, lastRefreshedAt: Date? = nil, isGone: Bool = false, retryAfter: Date? = nil,
        pace: TimeInterval? = nil, accountID: Int64? = nil
    ) {
        self.id = id
        self.url = url
        self.title = title
        self.homePageURL = homePageURL
        self.format = format
        self.etag = etag
        self.lastModified = lastModified
        self.contentHash = contentHash
        self.lastResult = lastResult
        self.lastRefreshedAt = lastRefreshedAt
        self.isGone = isGone
        self.retryAfter = retryAfter
        self.pace = pace
        self.accountID = accountID
    }

    /// Decodes a feed; `isGone` may be absent (documents written before it existed).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decodeIfPresent(Int64.self, forKey: .id)
        url = try container.decode(URL.self, forKey: .url)
        title = try container.decode(String.self, forKey: .title)
        homePageURL = try container.decodeIfPresent(URL.self, forKey: .homePageURL)
        format = try container.decodeIfPresent(FeedFormat.self, forKey: .format)
        etag = try container.decodeIfPresent(String.self, forKey: .etag)
        lastModified = try container.decodeIfPresent(String.self, forKey: .lastModified)
        contentHash = try container.decodeIfPresent(String.self, forKey: .contentHash)
        lastResult = try container.decodeIfPresent(RefreshResult.self, forKey: .lastResult)
        lastRefreshedAt = try container.decodeIfPresent(Date.self, forKey: .lastRefreshedAt)
        isGone = try container.decodeIfPresent(Bool.self, forKey: .isGone) ?? false
        retryAfter = try container.decodeIfPresent(Date.self, forKey: .retryAfter)
        pace = try container.decodeIfPresent(TimeInterval.self, forKey: .pace)
    }
}

/// The outcome of one feed refresh, written as SPEC's `last_result`: `ok`, `not_modified` or
/// `error: <reason>`.
public enum RefreshResult: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The feed was fetched and merged.
    case ok
    /// The server answered 304, or the body had not changed.
    case notModified
    /// The refresh failed; the reason is a sentence for the user.
    case failed(reason: String)

    private static let errorPrefix = "error: "

    /// Reads the SPEC form back; any other text is taken as a failure reason.
    public init(_ text: String) {
        switch text {
        case "ok": self = .ok
        case "not_modified": self = .notModified
        default:
            self = .failed(
                reason: text.hasPrefix(Self.errorPrefix) ? String(text.dropFirst(Self.errorPrefix.count)) : text)
        }
    }

    /// `ok`, `not_modified` or `error: <reason>`.
    public var description: String {
        switch self {
        case .ok: "ok"
        case .notModified: "not_modified"
        case .failed(let reason): Self.errorPrefix + reason
        }
    }

    /// Decodes the SPEC string form.
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the SPEC string form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// The syndication format a feed is published in, as SPEC's `tidings parse` names it.
/// A name this version does not know is kept as `.other` instead of failing.
public enum FeedFormat: OpenEnum {
    /// RSS 2.0.
    case rss20
    /// RSS 1.0 (RDF).
    case rss10
    /// RSS 0.90–0.94.
    case rss09x
    /// Atom 1.0 (RFC 4287).
    case atom10
    /// The pre-standard Atom 0.3.
    case atom03
    /// JSON Feed 1.0.
    case jsonFeed10
    /// JSON Feed 1.1.
    case jsonFeed11
    /// A format name this version does not know.
    case other(String)

    /// Every format this version knows.
    public static let knownCases: [FeedFormat] = [.rss20, .rss10, .rss09x, .atom10, .atom03, .jsonFeed10, .jsonFeed11]

    /// The format's name (`rss2.0`, `atom1.0`, `jsonfeed1.1`).
    public var rawValue: String {
        switch self {
        case .rss20: "rss2.0"
        case .rss10: "rss1.0"
        case .rss09x: "rss0.9x"
        case .atom10: "atom1.0"
        case .atom03: "atom0.3"
        case .jsonFeed10: "jsonfeed1.0"
        case .jsonFeed11: "jsonfeed1.1"
        case .other(let name): name
        }
    }
}

/// A subscription as a list of every feed shows it, with its article counts: what a one-shot
/// listing prints. Its address is the stored text, not a parsed `URL`: parsing each and building a
/// `FeedSource` was much of listing many feeds.
public struct FeedSummary: Sendable, Hashable, Identifiable {
    /// The stored row id.
    public var id: Int64
    /// The title to show.
    public var title: String
    /// Where the feed is fetched from, as stored (a valid absolute URL).
    public var url: String
    /// How the last refresh went.
    public var lastResult: RefreshResult?
    /// When the last refresh finished.
    public var lastRefreshedAt: Date?
    /// The server answered 410 Gone: the feed is no longer polled.
    public var isGone: Bool
    /// Its stored articles, and how many are unread.
    public var counts: ArticleCounts
    /// Its tags (OPML folders among them; see `FeedTag`), in the order they were given.
    public var tags: [String]
    /// The feed account whose server owns it (see `FeedSource.accountID`).
    public var accountID: Int64?

    public init(
        id: Int64, title: String, url: String, lastResult: RefreshResult? = nil, lastRefreshedAt: Date? = nil,
        isGone: Bool = false, counts: ArticleCounts = ArticleCounts(unread: 0, total: 0), tags: [String] = [],
        accountID: Int64? = nil
    ) {
        self.id = id
        self.title = title
        self.url = url
        self.lastResult = lastResult
        self.lastRefreshedAt = lastRefreshedAt
        self.isGone = isGone
        self.counts = counts
        self.tags = tags
        self.accountID = accountID
    }
}
