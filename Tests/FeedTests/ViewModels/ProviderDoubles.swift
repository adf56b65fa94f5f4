import Foundation
import Models
import Synchronization
import Testing

@testable import Feed

/// A `FeedProviding` in memory for view-model tests: it answers from the feeds and articles the
/// test gives it, records what it was asked, and fails the test on a call nobody scripted.
final class ScriptedFeeds: FeedProviding {
    struct State {
        var feeds: [FeedSource] = []
        var articles: [StoredArticle] = []
        var counts: [Int64: ArticleCounts] = [:]
        /// When set, reads fail with it.
        var failure: FeedError?
        /// The summary `refresh` returns; `nil` means nobody scripted a refresh.
        var refreshSummary: RefreshSummary?
        var pageRequests: [(limit: Int, offset: Int)] = []
        var opened: [Int64] = []
    }

    let state = Mutex(State())
    private let continuation: AsyncStream<FeedChanges>.Continuation
    private let stream: AsyncStream<FeedChanges>
    private let subscribed = Mutex(false)

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: FeedChanges.self)
    }

    /// Tells the view models subscribed through `changes()` that something changed.
    func announce(_ changes: FeedChanges) { continuation.yield(changes) }

    func subscriptions() async throws(FeedError) -> [FeedSource] {
        try state.withLock { state throws(FeedError) in
            if let failure = state.failure { throw failure }
            return state.feeds
        }
    }

    func articleCounts() async throws(FeedError) -> [Int64: ArticleCounts] {
        try state.withLock { state throws(FeedError) in
            if let failure = state.failure { throw failure }
            return state.counts
        }
    }

    func articles(matching query: ArticleQuery, limit: Int, offset: Int) async throws(FeedError) -> [StoredArticle] {
        try state.withLock { state throws(FeedError) in
            if let failure = state.failure { throw failure }
            state.pageRequests.append((limit, offset))
            let matching = Self.filter(state.articles, query)
            guard offset < matching.count else { return [] }
            return Array(matching[offset..<min(matching.count, offset + limit)])
        }
    }

    func page(matching query: ArticleQuery, limit: Int, offset: Int) async throws(FeedError) -> ArticlePage {
        let total = try state.withLock { state throws(FeedError) in
            if let failure = state.failure { throw failure }
            return Self.filter(state.articles, query).count
        }
        return ArticlePage(articles: try await articles(matching: query, limit: limit, offset: offset), total: total)
    }

    func open(articleID: Int64) async throws(FeedError) -> StoredArticle {
        try state.withLock { state throws(FeedError) in
            guard let index = state.articles.firstIndex(where: { $0.id == articleID }) else {
                throw FeedError.notFound(entity: "item", id: articleID)
            }
            state.articles[index].status.isRead = true
            state.opened.append(articleID)
            return state.articles[index]
        }
    }

    func refresh(_ feedIDs: [Int64]?, progress: (@Sendable (RefreshEvent) -> Void)?) async throws(FeedError)
        -> RefreshSummary
    {
        guard let summary = state.withLock({ $0.refreshSummary }) else {
            Issue.record("refresh(\(String(describing: feedIDs))) was not scripted")
            throw FeedError.cancelled
        }
        if let failure = state.withLock({ $0.failure }) { throw failure }
        return summary
    }

    func changes() -> AsyncStream<FeedChanges> {
        let first = subscribed.withLock { subscribed in
            defer { subscribed = true }
            return !subscribed
        }
        if !first { Issue.record("changes() was subscribed to twice; this double serves one subscriber") }
        return stream
    }

    /// The articles a query selects, newest first (by sort date, then id), as the store orders them.
    static func filter(_ articles: [StoredArticle], _ query: ArticleQuery) -> [StoredArticle] {
        articles.filter { stored in
            (query.feedID == nil || stored.article.feedID == query.feedID)
                && (!query.unreadOnly || !stored.status.isRead) && (!query.starredOnly || stored.status.isStarred)
                && (query.search.map { stored.article.title?.localizedCaseInsensitiveContains($0) == true } ?? true)
        }.sorted { ($0.sortDate, $0.id) > ($1.sortDate, $1.id) }
    }
}

/// A stored article for the doubles: `id`, in feed `feedID`, sorted by `age` days before now.
func storedArticle(_ id: Int64, feedID: Int64 = 1, title: String, age: Double, read: Bool = false) -> StoredArticle {
    let date = Date(timeIntervalSince1970: 1_795_348_800 - age * 86_400)
    return StoredArticle(
        article: Article(id: id, feedID: feedID, uniqueID: "g\(id)", title: title, published: date),
        status: ArticleStatus(feedID: feedID, uniqueID: "g\(id)", isRead: read, arrivedAt: date), sortDate: date)
}
