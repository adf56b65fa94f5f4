public import Foundation

/// An article as stored: the article, what the user did with it, and the date lists sort by
/// (published, else updated, else when it arrived).
public struct StoredArticle: Sendable, Hashable, Identifiable {
    /// The article, with its id.
    public var article: Article
    /// Read, starred, arrival.
    public var status: ArticleStatus
    /// The date lists sort and show by.
    public var sortDate: Date

    /// The article's row id.
    public var id: Int64 { article.id ?? 0 }

    public init(article: Article, status: ArticleStatus, sortDate: Date) {
        self.article = article
        self.status = status
        self.sortDate = sortDate
    }
}

/// Where an article stands in a list: lists sort by date, then by id.
public struct ArticlePosition: Sendable, Hashable {
    public var sortDate: Date
    public var id: Int64

    public init(sortDate: Date, id: Int64) {
        self.sortDate = sortDate
        self.id = id
    }
}

/// The order of a list of articles.
public enum ArticleOrder: String, Sendable, Hashable, CaseIterable {
    case newestFirst = "newest-first"
    case oldestFirst = "oldest-first"
}

/// Which articles a list shows, newest first unless `order` says otherwise.
public struct ArticleQuery: Sendable, Hashable {
    /// Only this feed's articles.
    public var feedID: Int64?
    /// Only these feeds' articles; empty for every feed.
    public var feedIDs: [Int64]
    /// Only unread articles.
    public var unreadOnly: Bool
    /// Only starred articles.
    public var starredOnly: Bool
    /// Only articles whose title or text hold every word of this text: words of three or more
    /// characters anywhere, shorter ones at word starts (or anywhere in CJK, Thai, emoji and
    /// symbols), case ignored. Punctuation is treated as text, never as query syntax.
    public var search: String?
    /// Only articles dated at or after this.
    public var since: Date?
    /// Only articles dated before this.
    public var before: Date?
    /// Only the articles of feeds carrying this tag, or a tag inside it (`Tech` takes
    /// `Tech/Swift`; see `FeedTag`).
    public var tag: String?
    /// Only articles stored after the one with this id (those a refresh brought).
    public var afterID: Int64?
    /// Only articles that come after this position in the list's order (reading on from an
    /// article: the next one is the first of this list).
    public var after: ArticlePosition?
    public var order: ArticleOrder

    /// A query; the default matches every article, newest first.
    public init(
        feedID: Int64? = nil, feedIDs: [Int64] = [], unreadOnly: Bool = false, starredOnly: Bool = false,
        search: String? = nil,
        since: Date? = nil, before: Date? = nil, tag: String? = nil, after: ArticlePosition? = nil,
        order: ArticleOrder = .newestFirst
    ) {
        self.feedID = feedID
        self.feedIDs = feedIDs
        self.unreadOnly = unreadOnly
        self.starredOnly = starredOnly
        self.search = search
        self.since = since
        self.before = before
        self.tag = tag
        self.afterID = nil
        self.after = after
        self.order = order
    }
}

/// How many articles a feed has, and how many of them are unread.
public struct ArticleCounts: Sendable, Hashable {
    /// Unread articles.
    public var unread: Int
    /// All stored articles.
    public var total: Int

    /// Creates counts.
    public init(unread: Int, total: Int) {
        self.unread = unread
        self.total = total
    }
}

/// One page of a list of articles, with how many the whole list holds.
public struct ArticlePage: Sendable, Hashable {
    /// The page's articles, newest first.
    public var articles: [StoredArticle]
    /// How many articles the whole list (every page) holds.
    public var total: Int

    public init(articles: [StoredArticle], total: Int) {
        self.articles = articles
        self.total = total
    }
}

/// A saved search (a smart view): its name and the filter a front end saved for it.
public struct SavedView: Sendable, Hashable {
    public var name: String
    /// The filter, as the front end that saved it writes it (the REPL keeps its `items`
    /// options); nobody else reads it.
    public var definition: String

    public init(name: String, definition: String) {
        self.name = name
        self.definition = definition
    }
}
