public import Foundation
internal import GRDB
public import Models

/// Subscriptions: add, change, remove and read `FeedSource` values.
public struct FeedRepository: Sendable {
    let database: AppDatabase

    public init(database: AppDatabase) { self.database = database }

    /// Saves a new subscription and returns it with its id.
    ///
    /// - Throws: `StorageError.duplicate` when the URL is already subscribed,
    ///   `.missingField` for a blank title.
    public func add(_ feed: FeedSource, source: ChangeSource = .user) async throws(StorageError) -> FeedSource {
        try await add(feed, articles: [], source: source).feed
    }

    /// Subscribes to every feed of `feeds` whose URL is not subscribed yet, in one transaction
    /// (an import of 50,000 outlines is one commit, not 50,000), and returns those it added, in
    /// order; a URL already subscribed, or repeated in `feeds`, is skipped.
    ///
    /// - Throws: `.missingField` for a blank title (nothing is written).
    public func addAll(_ feeds: [FeedSource], source: ChangeSource = .user) async throws(StorageError)
        -> [FeedSource]
    {
        for feed in feeds { try Self.validate(feed) }
        return try await database.write(source: source) { db in
            var added: [FeedSource] = []
            let insert = try db.cachedStatement(
                sql: "INSERT INTO feed (url, title, homePageURL) VALUES (?, ?, ?) ON CONFLICT(url) WHERE accountId IS NULL DO NOTHING")
            for feed in feeds {
                try insert.execute(arguments: [
                    feed.url.absoluteString, feed.title, feed.homePageURL?.absoluteString,
                ])
                guard db.changesCount == 1 else { continue }
                var stored = feed
                stored.id = db.lastInsertedRowID
                added.append(stored)
            }
            return added
        }
    }

    /// Saves a new subscription together with its first articles, in one transaction: an
    /// interrupted or failed add leaves either nothing or the whole feed, never a subscription
    /// whose validators describe articles that were not stored.
    ///
    /// - Throws: `StorageError.duplicate` when the URL is already subscribed, `.missingField`
    ///   for a blank title or article id (nothing is written).
    public func add(
        _ feed: FeedSource, articles: [Article], now: Date = Date(),
        unreadCutoff: TimeInterval = ArticleRepository.defaultUnreadCutoff, source: ChangeSource = .user
    ) async throws(StorageError) -> (feed: FeedSource, merge: MergeResult) {
        try Self.validate(feed)
        for article in articles { try ArticleRepository.validate(article) }
        let url = feed.url.absoluteString
        let cutoff = now.addingTimeInterval(-unreadCutoff)
        return try await database.write(source: source) { db in
            if try FeedRecord.filter(Column("url") == url && Column("accountId") == nil).fetchCount(db) > 0 {
                throw StorageError.duplicate("a subscription to \(url)")
            }
            var record = FeedRecord(feed)
            record.id = nil
            try record.insert(db)
            guard let id = record.id else { throw StorageError.notFound(entity: "feed", id: 0) }
            let merge = try ArticleRepository.merge(db, articles, intoFeed: id, now: now, cutoff: cutoff)
            return (record.source, merge)
        }
    }

    /// Saves a subscription's new state (validators, content hash, last result) together with
    /// the merge of the articles that state describes, in one transaction: validators are never
    /// stored for content that was not. Feeds merged at the same time share transactions (see
    /// `AppDatabase.writeTogether`): one that fails is not stored and the others are.
    ///
    /// - Throws: `.notFound` when the feed was removed meanwhile, `.missingField` for a blank
    ///   title or article id (nothing is written).
    public func update(
        _ feed: FeedSource, merging articles: [Article], now: Date = Date(),
        unreadCutoff: TimeInterval = ArticleRepository.defaultUnreadCutoff, source: ChangeSource = .app
    ) async throws(StorageError) -> MergeResult {
        try Self.validate(feed)
        for article in articles { try ArticleRepository.validate(article) }
        guard let id = feed.id else { throw .notFound(entity: "feed", id: 0) }
        let cutoff = now.addingTimeInterval(-unreadCutoff)
        // Feeds refreshed together are merged in shared transactions (see `GroupCommit`).
        return try await database.writeTogether(source: source, weight: max(1, articles.count)) { db in
            guard try FeedRecord.exists(db, key: id) else { throw StorageError.notFound(entity: "feed", id: id) }
            let merge = try ArticleRepository.merge(db, articles, intoFeed: id, now: now, cutoff: cutoff)
            try FeedRecord(feed).update(db)
            return merge
        }
    }

    /// Saves every field of an existing subscription (title, validators, last result).
    public func update(_ feed: FeedSource, source: ChangeSource = .app) async throws(StorageError) {
        try Self.validate(feed)
        guard let id = feed.id else { throw .notFound(entity: "feed", id: 0) }
        try await database.write(source: source) { db in
            guard try FeedRecord.exists(db, key: id) else { throw StorageError.notFound(entity: "feed", id: id) }
            try FeedRecord(feed).update(db)
        }
    }

    /// Saves every field of several existing subscriptions in one transaction; a subscription
    /// removed meanwhile is left out. Returns the ids saved. Whole or nothing: one invalid
    /// subscription (a blank title, no id) or one row the database refuses saves none.
    ///
    /// A refresh where most servers answer 304 stores only each feed's new state: one transaction
    /// per feed was much of an all-304 refresh.
    @discardableResult
    public func update(_ feeds: [FeedSource], source: ChangeSource = .app) async throws(StorageError) -> Set<Int64> {
        for feed in feeds {
            try Self.validate(feed)
            guard feed.id != nil else { throw .notFound(entity: "feed", id: 0) }
        }
        let records = feeds.map(FeedRecord.init)
        guard !records.isEmpty else { return [] }
        return try await database.write(source: source) { db in
            var saved = Set<Int64>()
            for record in records {
                guard let id = record.id, try FeedRecord.exists(db, key: id) else { continue }
                try record.update(db)
                saved.insert(id)
            }
            return saved
        }
    }

    /// Removes a subscription with its articles and their statuses.
    public func remove(id: Int64, source: ChangeSource = .user) async throws(StorageError) {
        try await database.write(source: source) { db in
            guard try FeedRecord.deleteOne(db, key: id) else { throw StorageError.notFound(entity: "feed", id: id) }
        }
    }

    /// The subscription with `id`.
    public func feed(id: Int64) async throws(StorageError) -> FeedSource? {
        try await database.read { db in try FeedRecord.fetchOne(db, key: id)?.source }
    }

    /// The subscription to `url`, if any.
    public func feed(url: URL) async throws(StorageError) -> FeedSource? {
        let url = url.absoluteString
        return try await database.read { db in
            try FeedRecord.filter(Column("url") == url && Column("accountId") == nil).fetchOne(db)?.source
        }
    }

    /// A feed account's feed at `url`, if one lists it.
    public func accountFeed(url: URL) async throws(StorageError) -> FeedSource? {
        let url = url.absoluteString
        return try await database.read { db in
            try FeedRecord.filter(Column("url") == url && Column("accountId") != nil).fetchOne(db)?.source
        }
    }

    /// Every subscription, in id order (the order the user added them).
    public func all() async throws(StorageError) -> [FeedSource] {
        try await database.read { db in
            // Straight from the cursor: no array of records beside the array of feeds.
            var feeds: [FeedSource] = []
            feeds.reserveCapacity(try FeedRecord.fetchCount(db))
            let records = try FeedRecord.order(Column("id")).fetchCursor(db)
            while let record = try records.next() { feeds.append(record.source) }
            return feeds
        }
    }

    /// Every subscription with its article counts, in id order, as a list prints them: one
    /// query, no `FeedSource` and no parsed URL per feed (see `FeedSummary`).
    public func summaries() async throws(StorageError) -> [FeedSummary] {
        try await database.read { db in
            var summaries: [FeedSummary] = []
            summaries.reserveCapacity(try FeedRecord.fetchCount(db))
            var tags: [Int64: [String]] = [:]
            let tagRows = try Row.fetchCursor(
                db, sql: "SELECT feedId, tag FROM feedTag WHERE tag <> '' ORDER BY feedId, position")
            while let row = try tagRows.next() { tags[row[0], default: []].append(row[1]) }
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT feed.id, feed.title, feed.url, feed.lastResult, feed.lastRefreshedAt, feed.isGone,
                        coalesce(articleCounts.unread, 0), coalesce(articleCounts.total, 0), feed.accountId
                    FROM feed LEFT JOIN articleCounts ON articleCounts.feedId = feed.id
                    ORDER BY feed.id
                    """)
            while let row = try rows.next() {
                let lastResult: String? = row[3]
                let refreshedAt: Double? = row[4]
                summaries.append(
                    FeedSummary(
                        id: row[0], title: row[1], url: row[2], lastResult: lastResult.map(RefreshResult.init),
                        lastRefreshedAt: refreshedAt.map(Date.init(timeIntervalSince1970:)), isGone: row[5],
                        counts: ArticleCounts(unread: row[6], total: row[7]), tags: tags[row[0]] ?? [],
                        accountID: row[8]))
            }
            return summaries
        }
    }

    /// Unread and total article counts per feed id; feeds without articles are absent. One row
    /// per feed, kept by triggers (migration `v9-article-counts`).
    public func articleCounts() async throws(StorageError) -> [Int64: ArticleCounts] {
        try await database.read { db in
            var counts: [Int64: ArticleCounts] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT feedId, unread, total FROM articleCounts WHERE total > 0") {
                counts[row[0]] = ArticleCounts(unread: row[1], total: row[2])
            }
            return counts
        }
    }

    /// The subscription now and after every change; `nil` once when it is removed.
    public func observe(id: Int64) -> AsyncStream<FeedSource?> {
        database.observe(.feed, id: id) { db in try FeedRecord.fetchOne(db, key: id)?.source }
    }

    static func validate(_ feed: FeedSource) throws(StorageError) {
        if feed.title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            throw .missingField(entity: "feed", field: "title")
        }
    }
}
