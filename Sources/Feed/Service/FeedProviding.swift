import Foundation
public import Models

/// What the feed view models need from a feed service: `FeedService` in the program, an
/// in-memory double in their tests.
public protocol FeedProviding: Sendable {
    /// Every subscription, in the order they were added.
    func subscriptions() async throws(FeedError) -> [FeedSource]
    /// Unread and total counts per feed id.
    func articleCounts() async throws(FeedError) -> [Int64: ArticleCounts]
    /// The articles `query` matches, newest first: `limit` of them from `offset`.
    func articles(matching query: ArticleQuery, limit: Int, offset: Int) async throws(FeedError) -> [StoredArticle]
    /// One page of the articles `query` matches, newest first, with how many it matches in all.
    func page(matching query: ArticleQuery, limit: Int, offset: Int) async throws(FeedError) -> ArticlePage
    /// Opens an article: returns it and marks it read.
    func open(articleID: Int64) async throws(FeedError) -> StoredArticle
    /// Refreshes the given feeds, or every feed, reporting each as it finishes.
    func refresh(_ feedIDs: [Int64]?, progress: (@Sendable (RefreshEvent) -> Void)?) async throws(FeedError)
        -> RefreshSummary
    /// What each commit from now on changes among subscriptions and articles.
    func changes() -> AsyncStream<FeedChanges>
}

extension FeedService: FeedProviding {}
