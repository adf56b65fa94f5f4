public import Foundation
internal import GRDB
public import Models

extension FeedRepository {
    /// Each feed's own retention, where it has one.
    public func retentionPolicies() async throws(StorageError) -> [Int64: RetentionPolicy] {
        try await database.read { db in
            var policies: [Int64: RetentionPolicy] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT id, keepItems, keepDays FROM feed WHERE keepItems IS NOT NULL OR keepDays IS NOT NULL")
            {
                policies[row[0]] = RetentionPolicy(items: row[1], days: row[2])
            }
            return policies
        }
    }

    /// Sets feed `id`'s own retention; a `nil` field goes back to the default.
    ///
    /// - Throws: `.notFound` when there is no such feed.
    public func setRetention(_ policy: RetentionPolicy, feedID id: Int64) async throws(StorageError) {
        try await database.write(source: .user) { db in
            try db.execute(
                sql: "UPDATE feed SET keepItems = ?, keepDays = ? WHERE id = ?",
                arguments: [policy.items, policy.days, id])
            if db.changesCount == 0 { throw StorageError.notFound(entity: "feed", id: id) }
        }
    }
}

extension ArticleRepository {
    /// Deletes what retention lets go, feed by feed: beyond the newest `items`, and read
    /// articles older than `days` days, never a starred one; each feed's own policy over
    /// `default`. A deleted article's status stays, marked, so the feed listing it again does
    /// not bring it back. The search indexes follow (their queue, taken at once); then the file gives the
    /// freed pages back (incremental vacuum; a file from before it is converted once, by a
    /// VACUUM, the first time a purge frees something).
    public func purge(default fallback: RetentionPolicy, feeds policies: [Int64: RetentionPolicy], now: Date)
        async throws(StorageError) -> PurgeSummary
    {
        let sizeBefore = try await fileSize()
        let deleted = try await database.write(source: .app) { db in
            var deleted = 0
            let feeds = try Int64.fetchAll(db, sql: "SELECT id FROM feed")
            for feed in feeds {
                let own = policies[feed]
                let items = (own?.items ?? fallback.items).flatMap { $0 > 0 ? $0 : nil }
                let days = (own?.days ?? fallback.days).flatMap { $0 > 0 ? $0 : nil }
                var doomed: [Int64] = []
                if let days {
                    doomed += try Int64.fetchAll(
                        db,
                        sql: """
                            SELECT article.id FROM article JOIN articleStatus USING (feedId, uniqueId)
                            WHERE article.feedId = ? AND articleStatus.isRead = 1 AND articleStatus.isStarred = 0
                                AND article.sortDate < ?
                            """,
                        arguments: [feed, now.addingTimeInterval(-Double(days) * 86_400).timeIntervalSince1970])
                }
                if let items {
                    doomed += try Int64.fetchAll(
                        db,
                        sql: """
                            SELECT article.id FROM article JOIN articleStatus USING (feedId, uniqueId)
                            WHERE article.feedId = ? AND articleStatus.isStarred = 0
                            ORDER BY article.sortDate DESC, article.id DESC LIMIT -1 OFFSET ?
                            """, arguments: [feed, items])
                }
                deleted += try Self.hide(db, ids: Array(Set(doomed))).count
            }
            return deleted
        }
        guard deleted > 0 else { return PurgeSummary() }
        // The search index lets them go first: until it has, their text waits in its queue.
        try await updateSearchIndex()
        try await database.vacuumIncrementally()
        let sizeAfter = try await fileSize()
        return PurgeSummary(deleted: deleted, freedBytes: max(0, sizeBefore - sizeAfter))
    }

    private func fileSize() async throws(StorageError) -> Int64 {
        try await database.read { db in
            let pages = try Int64.fetchOne(db, sql: "PRAGMA main.page_count") ?? 0
            let size = try Int64.fetchOne(db, sql: "PRAGMA page_size") ?? 0
            return pages * size
        }
    }
}

extension AppDatabase {
    /// Gives free pages back to the file system: `incremental_vacuum` in a file that allows it,
    /// else one VACUUM that converts the file to allow it from then on.
    func vacuumIncrementally() async throws(StorageError) {
        do {
            try await writer.writeWithoutTransaction { db in
                let mode = try Int.fetchOne(db, sql: "PRAGMA auto_vacuum") ?? 0
                if mode == 2 {
                    try db.execute(sql: "PRAGMA incremental_vacuum")
                } else {
                    try db.execute(sql: "PRAGMA auto_vacuum = INCREMENTAL")
                    try db.execute(sql: "VACUUM")
                }
                // The freed pages leave the file at the next checkpoint.
                try db.execute(sql: "PRAGMA main.wal_checkpoint(TRUNCATE)")
            }
        } catch {
            throw Self.storageError(error, path: path)
        }
    }
}
