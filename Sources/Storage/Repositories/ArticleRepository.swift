public import Foundation
internal import GRDB
public import Models

/// Articles and their statuses: the merge a feed refresh makes, the lists and searches the app
/// shows, read and starred marks, and retention.
public struct ArticleRepository: Sendable {
    let database: AppDatabase

    /// How old an incoming article may be and still arrive unread: about six months.
    public static let defaultUnreadCutoff: TimeInterval = 182 * 86_400

    public init(database: AppDatabase) { self.database = database }

    /// Saves one article (inserting it with an unread status, or replacing the stored fields).
    ///
    /// - Throws: `StorageError.missingField` naming `uniqueID` when it is blank,
    ///   `.notFound` when its feed does not exist.
    public func save(_ article: Article, now: Date = Date(), source: ChangeSource = .app) async throws(StorageError)
        -> StoredArticle
    {
        try Self.validate(article)
        let feedID = article.feedID
        return try await database.write(source: source) { db in
            guard try FeedRecord.exists(db, key: feedID) else {
                throw StorageError.notFound(entity: "feed", id: feedID)
            }
            var record = ArticleRecord(article, arrival: now)
            if let existing = try Self.existing(db, feedID: feedID, uniqueIDs: [record.uniqueId])[record.uniqueId] {
                record = existing.merged(with: record)
                try record.update(db)
            } else {
                record.id = nil
                try record.insert(db)
                try Self.insertStatus(db, for: record, isRead: false, now: now)
            }
            guard let id = record.id, let stored = try Self.fetch(db, ids: [id]).first else {
                throw StorageError.notFound(entity: "article", id: record.id ?? 0)
            }
            return stored
        }
    }

    /// Merges a feed's current articles in one transaction: new ones are inserted with a status
    /// (already read when dated before `now - unreadCutoff`), stored ones get the fields that
    /// changed (a known date is never replaced by nil), the rest is untouched. An article whose
    /// status outlived it (retention) comes back with that status, so it is not new again.
    /// Articles repeated within the batch count once (the first wins).
    ///
    /// - Throws: `StorageError.missingField` naming `uniqueID` when one is blank (nothing is
    ///   written), `.notFound` when the feed does not exist.
    public func merge(
        _ articles: [Article], intoFeed feedID: Int64, now: Date = Date(),
        unreadCutoff: TimeInterval = ArticleRepository.defaultUnreadCutoff, source: ChangeSource = .app
    ) async throws(StorageError) -> MergeResult {
        for article in articles { try Self.validate(article) }
        let cutoff = now.addingTimeInterval(-unreadCutoff)
        return try await database.write(source: source) { db in
            guard try FeedRecord.exists(db, key: feedID) else {
                throw StorageError.notFound(entity: "feed", id: feedID)
            }
            return try Self.merge(db, articles, intoFeed: feedID, now: now, cutoff: cutoff)
        }
    }

    /// The body of `merge(_:intoFeed:...)`, inside a transaction the caller holds, so a feed's
    /// state can be written in the same transaction as the articles it describes.
    static func merge(_ db: Database, _ articles: [Article], intoFeed feedID: Int64, now: Date, cutoff: Date) throws
        -> MergeResult
    {
        let cutoff = cutoff.timeIntervalSince1970
        var seen = Set<String>()
        var incoming: [ArticleRecord] = []
        incoming.reserveCapacity(articles.count)
        for article in articles where seen.insert(article.uniqueID).inserted {
            var record = ArticleRecord(article, arrival: now)
            record.feedId = feedID
            record.id = nil
            incoming.append(record)
        }
        let stored = try Self.existing(db, feedID: feedID, uniqueIDs: incoming.map(\.uniqueId))
        // Articles a rule hid stay away while the feed lists them (one indexed step while the
        // feed has none, the usual case).
        let hidden = Set(
            try String.fetchAll(
                db.cachedStatement(sql: "SELECT uniqueId FROM articleStatus WHERE feedId = ? AND isHidden = 1"),
                arguments: [feedID]))
        var result = MergeResult()
        for var record in incoming where !hidden.contains(record.uniqueId) {
            if let old = stored[record.uniqueId] {
                let merged = old.merged(with: record)
                if merged == old {
                    result.unchanged += 1
                } else {
                    try merged.updateChanges(db, from: old)
                    if let id = old.id { result.updated.append(id) }
                }
            } else {
                try record.insert(db)
                try Self.insertStatus(db, for: record, isRead: record.sortDate < cutoff, now: now)
                if let id = record.id { result.inserted.append(id) }
            }
        }
        return result
    }

    /// One article with its status.
    public func article(id: Int64) async throws(StorageError) -> StoredArticle? {
        try await database.read { db in try Self.fetch(db, ids: [id]).first }
    }

    /// The articles `query` matches, newest first, `limit` at a time from `offset`.
    public func articles(matching query: ArticleQuery, limit: Int = 20, offset: Int = 0) async throws(StorageError)
        -> [StoredArticle]
    {
        try await readSearching(query) { db in try Self.page(db, query: query, limit: limit, offset: offset) }
    }

    /// One page of the articles `query` matches and how many it matches, read together (one
    /// snapshot, and a search sorts its matches once for both).
    public func page(matching query: ArticleQuery, limit: Int = 20, offset: Int = 0) async throws(StorageError)
        -> ArticlePage
    {
        try await readSearching(query) { db in
            if query.search != nil {
                guard let (sql, arguments) = try Self.idsSQL(db, query) else {
                    return ArticlePage(articles: [], total: 0)
                }
                let ids = try Int64.fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
                let start = min(max(0, offset), ids.count)
                let end = start + min(max(0, limit), ids.count - start)
                return ArticlePage(articles: try Self.fetch(db, ids: Array(ids[start..<end])), total: ids.count)
            }
            let total = try Self.count(db, query)
            return ArticlePage(
                articles: try Self.page(db, query: query, limit: limit, offset: offset, matches: total), total: total)
        }
    }

    /// How many articles `query` matches.
    public func count(matching query: ArticleQuery) async throws(StorageError) -> Int {
        try await readSearching(query) { db in try Self.count(db, query) }
    }

    /// How many articles `query` matches. Without a search or a date bound it reads the counts
    /// kept per feed (migration `v9-article-counts`): one row per feed, whatever the articles.
    /// Unread and starred counts there are counts of statuses, exact because every unread or
    /// starred status has its article (retention deletes only read, unstarred articles;
    /// statuses are marked through existing articles; `ArticleRetentionTests` holds this). Other
    /// statuses outlive their articles (a returning article keeps its state), so a date bound
    /// joins the two.
    static func count(_ db: Database, _ query: ArticleQuery) throws -> Int {
        if query.after != nil || query.before != nil || query.afterID != nil {
            let (sql, arguments) = sql(for: query, select: "article.id")
            return try Int.fetchOne(db, sql: "SELECT count(*) FROM (\(sql))", arguments: arguments) ?? 0
        }
        if query.search != nil {
            guard let (sql, arguments) = try idsSQL(db, query) else { return 0 }
            return try Int.fetchOne(db, sql: "SELECT count(*) FROM (\(sql))", arguments: arguments) ?? 0
        }
        var clauses: [String] = []
        var arguments = StatementArguments()
        if query.since == nil, !(query.unreadOnly && query.starredOnly) {
            let column = query.unreadOnly ? "unread" : query.starredOnly ? "starred" : "total"
            if let feedID = query.feedID {
                clauses.append("feedId = ?")
                arguments += [feedID]
            }
            if !query.feedIDs.isEmpty {
                clauses.append("feedId IN (\(Self.placeholders(query.feedIDs.count)))")
                arguments += StatementArguments(query.feedIDs)
            }
            if let tag = query.tag {
                clauses.append("feedId IN (\(Self.taggedFeeds))")
                arguments += Self.taggedFeedsArguments(tag)
            }
            let filter = clauses.isEmpty ? "" : " WHERE " + clauses.joined(separator: " AND ")
            return try Int.fetchOne(
                db, sql: "SELECT coalesce(sum(\(column)), 0) FROM articleCounts\(filter)", arguments: arguments) ?? 0
        }
        let statusesOnly = query.since == nil
        if let feedID = query.feedID {
            clauses.append(statusesOnly ? "articleStatus.feedId = ?" : "article.feedId = ?")
            arguments += [feedID]
        }
        if !query.feedIDs.isEmpty {
            let column = statusesOnly ? "articleStatus.feedId" : "article.feedId"
            clauses.append("\(column) IN (\(Self.placeholders(query.feedIDs.count)))")
            arguments += StatementArguments(query.feedIDs)
        }
        if let tag = query.tag {
            clauses.append("\(statusesOnly ? "articleStatus.feedId" : "article.feedId") IN (\(Self.taggedFeeds))")
            arguments += Self.taggedFeedsArguments(tag)
        }
        if let since = query.since {
            clauses.append("article.sortDate >= ?")
            arguments += [since.timeIntervalSince1970]
        }
        var from = "article"
        if query.unreadOnly || query.starredOnly {
            from = statusesOnly ? "articleStatus" : "article CROSS JOIN articleStatus USING (feedId, uniqueId)"
            if query.unreadOnly { clauses.append("articleStatus.isRead = 0") }
            if query.starredOnly { clauses.append("articleStatus.isStarred = 1") }
        }
        let filter = clauses.isEmpty ? "" : " WHERE " + clauses.joined(separator: " AND ")
        return try Int.fetchOne(db, sql: "SELECT count(*) FROM \(from)\(filter)", arguments: arguments) ?? 0
    }

    /// Marks articles read or unread.
    public func setRead(_ isRead: Bool, ids: [Int64], source: ChangeSource = .user) async throws(StorageError) {
        try await setStatus("isRead", to: isRead, ids: ids, source: source)
    }

    /// Stars or unstars articles.
    public func setStarred(_ isStarred: Bool, ids: [Int64], source: ChangeSource = .user) async throws(StorageError) {
        try await setStatus("isStarred", to: isStarred, ids: ids, source: source)
    }

    /// The largest article id now: the articles a refresh adds come after it (what rules look
    /// at, what `items --new` lists).
    public func lastArticleID() async throws(StorageError) -> Int64 {
        try await database.read { db in try Int64.fetchOne(db, sql: "SELECT coalesce(max(id), 0) FROM article") ?? 0 }
    }

    /// How many of the articles with ids above `id` arrived already read.
    public func arrivedRead(after id: Int64) async throws(StorageError) -> Int {
        try await database.read { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT count(*) FROM article JOIN articleStatus USING (feedId, uniqueId)
                    WHERE article.id > ? AND articleStatus.isRead = 1
                    """, arguments: [id]) ?? 0
        }
    }

    /// Marks every article of feed `feedID` read and returns how many changed.
    @discardableResult
    public func markAllRead(feedID: Int64, source: ChangeSource = .user) async throws(StorageError) -> Int {
        try await markAllRead(matching: ArticleQuery(feedID: feedID), source: source)
    }

    /// Marks every unread article `query` matches read (a feed, several, a tag, a search, a date
    /// bound), in one transaction, and returns how many it changed.
    public func markAllRead(matching query: ArticleQuery, source: ChangeSource = .user) async throws(StorageError)
        -> Int
    {
        var unread = query
        unread.unreadOnly = true
        unread.after = nil
        if unread.search != nil { try await updateSearchIndex() }
        let (tracker, matching) = (database.tracker, unread)
        return try await database.write(source: source) { db in
            guard let (sql, arguments) = try Self.idsSQL(db, matching) else { return 0 }
            let ids = try Int64.fetchAll(db, sql: sql, arguments: arguments)
            try Self.markRead(db, ids: ids)
            tracker.record(.article, updated: ids)
            return ids.count
        }
    }

    /// Deletes read, unstarred articles dated before `date`; their statuses stay (see
    /// `deleteStatuses(olderThan:)`), so an article the feed still lists is not new again.
    /// Returns how many articles were deleted.
    @discardableResult
    public func deleteReadArticles(olderThan date: Date, source: ChangeSource = .app) async throws(StorageError) -> Int
    {
        let cutoff = date.timeIntervalSince1970
        return try await database.write(source: source) { db in
            try db.execute(
                sql: """
                    DELETE FROM article WHERE sortDate < ? AND id IN (
                        SELECT article.id FROM article JOIN articleStatus USING (feedId, uniqueId)
                        WHERE articleStatus.isRead = 1 AND articleStatus.isStarred = 0 AND article.sortDate < ?)
                    """, arguments: [cutoff, cutoff])
            return db.changesCount
        }
    }

    /// Deletes statuses that arrived before `date` and no longer have an article: run it with a
    /// date well before the article cut-off, so statuses outlive their articles.
    @discardableResult
    public func deleteStatuses(olderThan date: Date, source: ChangeSource = .app) async throws(StorageError) -> Int {
        let cutoff = date.timeIntervalSince1970
        return try await database.write(source: source) { db in
            try db.execute(
                sql: """
                    DELETE FROM articleStatus WHERE arrivedAt < ? AND isStarred = 0 AND NOT EXISTS (
                        SELECT 1 FROM article
                        WHERE article.feedId = articleStatus.feedId AND article.uniqueId = articleStatus.uniqueId)
                    """, arguments: [cutoff])
            return db.changesCount
        }
    }

    /// The article now and after every change (its status included); `nil` once when deleted.
    public func observe(id: Int64) -> AsyncStream<StoredArticle?> {
        database.observe(.article, id: id) { db in try Self.fetch(db, ids: [id]).first }
    }

    private func setStatus(_ column: String, to value: Bool, ids: [Int64], source: ChangeSource)
        async throws(StorageError)
    {
        guard !ids.isEmpty else { return }
        let tracker = database.tracker
        try await database.write(source: source) { db in
            var changed: [Int64] = []
            for chunk in ids.chunked(into: 500) {
                let placeholders = Self.placeholders(chunk.count)
                let found = try Int64.fetchAll(
                    db,
                    sql: """
                        SELECT article.id FROM article JOIN articleStatus USING (feedId, uniqueId)
                        WHERE article.id IN (\(placeholders)) AND articleStatus.\(column) <> ?
                        """, arguments: StatementArguments(chunk) + [value])
                try db.execute(
                    sql: """
                        UPDATE articleStatus SET \(column) = ? WHERE (feedId, uniqueId) IN (
                            SELECT feedId, uniqueId FROM article WHERE id IN (\(placeholders)))
                        """, arguments: [value] + StatementArguments(chunk))
                changed += found
            }
            let missing = Set(ids).subtracting(try Self.existingIDs(db, ids))
            if let first = missing.min() { throw StorageError.notFound(entity: "article", id: first) }
            tracker.record(.article, updated: changed)
        }
    }

    static func validate(_ article: Article) throws(StorageError) {
        // Not `trimmingCharacters`: it bridges to NSString, which costs more than the insert.
        if article.uniqueID.allSatisfy(\.isWhitespace) {
            throw .missingField(entity: "article", field: "uniqueID")
        }
    }
}
