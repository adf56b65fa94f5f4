public import Models
internal import Storage

extension FeedService {
    /// Adds `tags` to each feed of `feedIDs` (a tag a feed has stays as it is).
    ///
    /// - Throws: `.invalidTag` for a tag that cannot be one, `.notFound` for a feed that does
    ///   not exist; nothing is changed then.
    public func tag(_ feedIDs: [Int64], with tags: [String]) async throws(FeedError) {
        let normalized = try Self.tags(tags)
        try await storage { () async throws(StorageError) in try await feeds.tag(feedIDs, with: normalized) }
    }

    /// Removes `tags` from each feed of `feedIDs`, every tag when `tags` is empty; returns how
    /// many were removed.
    @discardableResult
    public func untag(_ feedIDs: [Int64], tags: [String]) async throws(FeedError) -> Int {
        let normalized = try Self.tags(tags)
        return try await storage { () async throws(StorageError) in try await feeds.untag(feedIDs, tags: normalized) }
    }

    /// Every tag with its feeds and their unread and total articles (a tag counts the feeds of
    /// the tags inside it).
    public func tagSummaries() async throws(FeedError) -> [TagSummary] {
        try await storage { () async throws(StorageError) in try await feeds.tagSummaries() }
    }

    /// Marks every unread article `query` matches read (a feed, several, a tag, a search, a
    /// date bound) and returns how many changed.
    ///
    /// - Throws: `.notFound` for a feed of the query that does not exist.
    @discardableResult
    public func markAllRead(matching query: ArticleQuery) async throws(FeedError) -> Int {
        for id in query.feedIDs + (query.feedID.map { [$0] } ?? []) { _ = try await subscription(id: id) }
        return try await storage { () async throws(StorageError) in try await articles.markAllRead(matching: query) }
    }

    private static func tags(_ tags: [String]) throws(FeedError) -> [String] {
        var normalized: [String] = []
        for tag in tags {
            if let problem = FeedTag.problem(with: tag) { throw .invalidTag(problem) }
            normalized.append(FeedTag.normalized(tag))
        }
        return normalized
    }
}
