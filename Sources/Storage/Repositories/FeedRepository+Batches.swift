public import Foundation
internal import GRDB
public import Models

/// A feed's articles merged batch by batch as its document is read, inside the transaction
/// that stores the feed's new state: memory holds a batch, never the feed's every article,
/// and the feed is still written whole or not at all.
///
/// Articles repeated across batches count once (the first wins), as within one `merge`.
public final class ArticleBatchMerge {
    private let db: Database
    /// The feed the articles belong to.
    public let feedID: Int64
    private let now: Date
    private let cutoff: Date
    private var seen = Set<String>()
    /// What the batches merged so far did.
    public private(set) var result = MergeResult()

    init(db: Database, feedID: Int64, now: Date, cutoff: Date) throws {
        self.db = db
        self.feedID = feedID
        self.now = now
        self.cutoff = cutoff
        try db.execute(sql: "SAVEPOINT articleBatches")
    }

    /// Merges one batch.
    ///
    /// - Throws: `.missingField` naming `uniqueID` when one is blank (the whole feed is then
    ///   not written).
    public func merge(_ articles: [Article]) throws(StorageError) {
        for article in articles { try ArticleRepository.validate(article) }
        let fresh = articles.filter { seen.insert($0.uniqueID).inserted }
        guard !fresh.isEmpty else { return }
        do {
            let merged = try ArticleRepository.merge(db, fresh, intoFeed: feedID, now: now, cutoff: cutoff)
            result.inserted += merged.inserted
            result.updated += merged.updated
            result.unchanged += merged.unchanged
        } catch {
            throw AppDatabase.storageError(error, path: db.description)
        }
    }

    /// Undoes every batch merged so far: the document is being read again.
    public func restart() throws(StorageError) {
        do {
            try db.execute(sql: "ROLLBACK TO SAVEPOINT articleBatches")
        } catch {
            throw AppDatabase.storageError(error, path: db.description)
        }
        seen.removeAll()
        result = MergeResult()
    }
}

extension FeedRepository {
    /// Saves a subscription's new state with the articles `produce` hands to its merge batch by
    /// batch, in one transaction. `produce` runs on the writer, inside the transaction: it
    /// reads the document and returns the feed's new state, or `nil` (with its own outcome) to
    /// write nothing at all.
    ///
    /// - Throws: `.notFound` when the feed was removed meanwhile; what a batch throws.
    public func update<Outcome: Sendable>(
        feedID: Int64, now: Date = Date(), unreadCutoff: TimeInterval = ArticleRepository.defaultUnreadCutoff,
        source: ChangeSource = .app,
        merging produce: @escaping @Sendable (ArticleBatchMerge) throws -> (feed: FeedSource?, outcome: Outcome)
    ) async throws(StorageError) -> (merge: MergeResult, outcome: Outcome) {
        let cutoff = now.addingTimeInterval(-unreadCutoff)
        return try await database.write(source: source) { db in
            guard try FeedRecord.exists(db, key: feedID) else {
                throw StorageError.notFound(entity: "feed", id: feedID)
            }
            let (saved, outcome) = try Self.batches(db, feedID: feedID, now: now, cutoff: cutoff, produce: produce) {
                var feed = $0
                feed.id = feedID
                try Self.validate(feed)
                try FeedRecord(feed).update(db)
                return feed
            }
            return (saved?.merge ?? MergeResult(), outcome)
        }
    }

    /// Saves a new subscription with the articles `produce` hands to its merge batch by batch,
    /// in one transaction, as `add(_:articles:...)` does; `produce` returns the feed to save
    /// (its URL is the one given here), or `nil` to write nothing at all.
    ///
    /// - Throws: `StorageError.duplicate` when the URL is already subscribed; what a batch throws.
    public func add<Outcome: Sendable>(
        url: URL, now: Date = Date(), unreadCutoff: TimeInterval = ArticleRepository.defaultUnreadCutoff,
        source: ChangeSource = .user,
        merging produce: @escaping @Sendable (ArticleBatchMerge) throws -> (feed: FeedSource?, outcome: Outcome)
    ) async throws(StorageError) -> (feed: FeedSource?, merge: MergeResult, outcome: Outcome) {
        let address = url.absoluteString
        let cutoff = now.addingTimeInterval(-unreadCutoff)
        return try await database.write(source: source) { db in
            if try FeedRecord.filter(Column("url") == address && Column("accountId") == nil).fetchCount(db) > 0 {
                throw StorageError.duplicate("a subscription to \(address)")
            }
            // The row the batches point to; its fields are the document's once it is read.
            var record = FeedRecord(FeedSource(url: url, title: address))
            record.id = nil
            try record.insert(db)
            guard let id = record.id else { throw StorageError.notFound(entity: "feed", id: 0) }
            let (saved, outcome) = try Self.batches(db, feedID: id, now: now, cutoff: cutoff, produce: produce) {
                var feed = $0
                feed.id = id
                feed.url = url
                try Self.validate(feed)
                try FeedRecord(feed).update(db)
                return feed
            }
            guard let saved else {
                try record.delete(db)
                return (nil, MergeResult(), outcome)
            }
            return (saved.feed, saved.merge, outcome)
        }
    }

    /// Runs `produce` over a fresh batch merge and saves the feed it returns with `save`; no
    /// feed (every batch undone) when it returns none.
    private static func batches<Outcome>(
        _ db: Database, feedID: Int64, now: Date, cutoff: Date,
        produce: (ArticleBatchMerge) throws -> (feed: FeedSource?, outcome: Outcome),
        save: (FeedSource) throws -> FeedSource
    ) throws -> (saved: (feed: FeedSource, merge: MergeResult)?, outcome: Outcome) {
        let merge = try ArticleBatchMerge(db: db, feedID: feedID, now: now, cutoff: cutoff)
        let (feed, outcome) = try produce(merge)
        guard let feed else {
            try db.execute(sql: "ROLLBACK TO SAVEPOINT articleBatches; RELEASE SAVEPOINT articleBatches")
            return (nil, outcome)
        }
        try db.execute(sql: "RELEASE SAVEPOINT articleBatches")
        return ((try save(feed), merge.result), outcome)
    }
}
