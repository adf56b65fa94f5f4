public import Models

/// What one committed transaction changed among subscriptions and articles, by any writer of
/// the store (another process's commits are not seen).
public struct FeedChanges: Sendable, Hashable {
    /// Subscriptions.
    public var feeds: ChangedIDs
    /// Articles (their read and starred states included).
    public var articles: ChangedIDs

    /// Creates a description of changes.
    public init(feeds: ChangedIDs = ChangedIDs(), articles: ChangedIDs = ChangedIDs()) {
        self.feeds = feeds
        self.articles = articles
    }
}
