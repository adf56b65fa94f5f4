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

/// Which articles a list shows, newest first.
public struct ArticleQuery: Sendable, Hashable {
    /// Only this feed's articles.
    public var feedID: Int64?
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

    /// Creates a query; the default matches every article.
    public init(
        feedID: Int64? = nil, unreadOnly: Bool = false, starredOnly: Bool = false, search: String? = nil,
        since: Date? = nil
    ) {
        self.feedID = feedID
        self.unreadOnly = unreadOnly
        self.starredOnly = starredOnly
        self.search = search
        self.since = since
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
