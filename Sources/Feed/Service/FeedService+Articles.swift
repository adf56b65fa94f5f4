public import Foundation
public import Models
internal import Storage

/// What to do to articles.
public enum ArticleMark: String, Sendable, Hashable, CaseIterable {
    case read
    case unread
    case star
    case unstar
}

extension FeedService {
    /// One article with its status.
    public func article(id: Int64) async throws(FeedError) -> StoredArticle {
        guard let article = try await storage({ () async throws(StorageError) in try await articles.article(id: id) })
        else { throw .notFound(entity: "item", id: id) }
        return article
    }

    /// The articles `query` matches, newest first.
    public func articles(matching query: ArticleQuery, limit: Int = 20, offset: Int = 0) async throws(FeedError)
        -> [StoredArticle]
    {
        try await storage { () async throws(StorageError) in
            try await articles.articles(matching: query, limit: limit, offset: offset)
        }
    }

    /// One page of the articles `query` matches (`limit` from `offset`), with how many it
    /// matches in all, read together.
    public func page(matching query: ArticleQuery, limit: Int = 20, offset: Int = 0) async throws(FeedError)
        -> ArticlePage
    {
        try await storage { () async throws(StorageError) in
            try await articles.page(matching: query, limit: limit, offset: offset)
        }
    }

    /// Marks articles read, unread, starred or unstarred.
    ///
    /// - Throws: `.notFound` naming the first id that is not an article (nothing is changed).
    public func mark(_ ids: [Int64], _ mark: ArticleMark) async throws(FeedError) {
        for id in ids { _ = try await article(id: id) }
        try await storage { () async throws(StorageError) in
            switch mark {
            case .read: try await articles.setRead(true, ids: ids)
            case .unread: try await articles.setRead(false, ids: ids)
            case .star: try await articles.setStarred(true, ids: ids)
            case .unstar: try await articles.setStarred(false, ids: ids)
            }
        }
    }

    /// Marks every article of a feed read and returns how many changed.
    @discardableResult
    public func markAllRead(feedID: Int64) async throws(FeedError) -> Int {
        _ = try await subscription(id: feedID)
        return try await storage { () async throws(StorageError) in try await articles.markAllRead(feedID: feedID) }
    }

    /// Opens an article: returns it and marks it read.
    public func open(articleID: Int64) async throws(FeedError) -> StoredArticle {
        var stored = try await article(id: articleID)
        if !stored.status.isRead {
            try await mark([articleID], .read)
            stored.status.isRead = true
        }
        return stored
    }

    // MARK: OPML

    /// Subscribes to every feed of an OPML document without fetching (a refresh follows).
    public func importOPML(_ data: Data) async throws(FeedError) -> ImportSummary {
        let subscriptions: [OPMLSubscription]
        do {
            subscriptions = try OPML.subscriptions(in: data)
        } catch {
            throw .opml(error)
        }
        var summary = ImportSummary(imported: 0, alreadyPresent: 0)
        var candidates: [(feed: FeedSource, tags: [(tag: String, order: Int)])] = []
        for subscription in subscriptions {
            // Only absolute web addresses: a relative one would otherwise be read as a local path,
            // and an OPML list may come from anywhere, so it must not make a refresh read local
            // files (`feed add` a local file instead).
            guard ["http", "https"].contains(subscription.feedURL.scheme?.lowercased() ?? ""),
                let url = try? Self.url(from: subscription.feedURL.absoluteString)
            else {
                summary.skipped.append(subscription.feedURL.absoluteString)
                continue
            }
            let title =
                subscription.title?.trimmingCharacters(in: .whitespacesAndNewlines).nonEmpty
                ?? url.host ?? url.absoluteString
            // Each folder path the feed is listed in is one tag (`FeedTag`), the top level the
            // empty tag, so that an export writes the list back as it was.
            let tags = zip(subscription.places, subscription.placeOrder).map {
                (tag: FeedTag.tag(folders: $0) ?? "", order: $1)
            }.filter { $0.tag.isEmpty || FeedTag.problem(with: $0.tag) == nil }
            candidates.append((FeedSource(url: url, title: title, homePageURL: subscription.homePageURL), tags))
        }
        // One transaction for the whole list: an import of 50,000 outlines is one commit.
        let entries = candidates
        let added = try await storage { () async throws(StorageError) in try await feeds.addAll(entries) }
        summary.imported = added.count
        summary.alreadyPresent = candidates.count - added.count
        return summary
    }

    /// Every subscription as an OPML 2.0 document.
    public func exportOPML(title: String = "Tidings subscriptions") async throws(FeedError) -> Data {
        let all = try await subscriptions()
        var byID: [Int64: FeedSource] = [:]
        for feed in all { byID[feed.id ?? 0] = feed }
        let placements = try await storage { () async throws(StorageError) in try await feeds.placements() }
        // One entry per place, in the order places arrived: each tag is a folder path, the
        // empty tag the top level.
        let entries = placements.compactMap { placement -> OPMLSubscription? in
            guard let feed = byID[placement.feedID] else { return nil }
            let folders = FeedTag.folders(of: placement.tag)
            return OPMLSubscription(
                feedURL: feed.url, title: feed.title, homePageURL: feed.homePageURL, categories: folders,
                places: [folders])
        }
        return OPML.document(title: title, subscriptions: entries, created: now())
    }
}
