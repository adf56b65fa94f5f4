internal import GRDB
public import Models

/// Keeping the search indexes up to date: the reads of a search, and the index writer's batches.
extension ArticleRepository {
    /// Runs a read for `query`; a search first makes sure the index holds every article. The
    /// check rides in the same read, so an up-to-date index costs no extra trip to a reader.
    func readSearching<T: Sendable>(_ query: ArticleQuery, _ body: @escaping @Sendable (Database) throws -> T)
        async throws(StorageError) -> T
    {
        guard query.search != nil else { return try await database.read(body) }
        let current = try await database.read { db -> T? in try Self.pendingSearchIndex(db) ? nil : body(db) }
        if let current { return current }
        try await updateSearchIndex()
        return try await database.read(body)
    }

    /// Adds the articles merged since the last call to the search indexes, and takes the
    /// changes queued for indexed articles (an article changed or deleted), and returns how many
    /// articles it indexed. Searches call it first, so they never miss an article; a refresh
    /// calls it while it merges and once after, so that no search pays for them.
    ///
    /// It runs on the search index's own writer (see `SearchIndexFile`), so merges never wait
    /// for it. FTS5 pays per committed transaction, so articles are indexed in bulk, but in
    /// batches of `batchSize`, each its own transaction holding the marks of what the index
    /// holds: an interrupted run keeps the batches it finished, and the next one goes on.
    @discardableResult
    public func updateSearchIndex(batchSize: Int = 10_000) async throws(StorageError) -> Int {
        guard try await database.read(Self.pendingSearchIndex) else { return 0 }
        let batchSize = max(1, batchSize)
        var total = 0
        var applied: Int64?
        while true {
            let (indexed, taken) = try await database.writeSearchIndex { db in
                try Self.indexBatch(db, batchSize: batchSize)
            }
            total += indexed
            applied = taken ?? applied
            // A cancelled caller keeps the batches done; the rest waits for the next call.
            if indexed < batchSize || Task.isCancelled { break }
        }
        // The queued changes the index has taken go (a later run skips them all the same).
        if let applied {
            try await database.write(source: .app) { db in
                try db.execute(sql: "DELETE FROM articleSearchQueue WHERE seq <= ?", arguments: [applied])
            }
        }
        return total
    }

    /// One transaction of the index writer: the changes queued since the index last took them,
    /// then the next `batchSize` articles. Table names resolve to the index's tables and to the
    /// articles' file alike on both kinds of connection (see `SearchIndexFile`). Returns how
    /// many new articles it indexed and the newest queued change it took, if any.
    static func indexBatch(_ db: Database, batchSize: Int) throws -> (indexed: Int, applied: Int64?) {
        guard let state = try Row.fetchOne(db, sql: "SELECT indexedThrough, appliedSeq FROM searchState") else {
            return (0, nil)
        }
        let (through, appliedSeq): (Int64, Int64) = (state[0], state[1])
        let suffix = ArticleSearch.indexedSuffix
        var applied: Int64?
        let newestSeq = try Int64.fetchOne(db, sql: "SELECT coalesce(max(seq), 0) FROM articleSearchQueue") ?? 0
        if newestSeq > appliedSeq {
            // Each indexed article's first change since holds the text the index has: that text
            // goes, and the article, if it is still there, is indexed as it is now. Changes to
            // articles not indexed yet need nothing: they are indexed as they are below.
            let changed = try Row.fetchAll(
                db,
                sql: """
                    SELECT articleId, title, body, min(seq) FROM articleSearchQueue
                    WHERE seq > ? AND seq <= ? AND articleId <= ? GROUP BY articleId
                    """, arguments: [appliedSeq, newestSeq, through])
            for row in changed {
                let (id, title, body): (Int64, String, String) = (row[0], row[1], row[2])
                try db.execute(
                    sql: "INSERT INTO articleSearch(articleSearch, rowid, title, body) VALUES ('delete', ?, ?, ?)",
                    arguments: [id, title, body])
                try db.execute(
                    sql:
                        "INSERT INTO articleSubstring(articleSubstring, rowid, title, body) VALUES ('delete', ?, ?, ?)",
                    arguments: [id, title + suffix, body + suffix])
            }
            for chunk in changed.map({ $0[0] as Int64 }).chunked(into: 500) {
                try index(db, where: "id IN (\(chunk.map(String.init).joined(separator: ",")))", arguments: [])
            }
            try db.execute(sql: "UPDATE searchState SET appliedSeq = ?", arguments: [newestSeq])
            applied = newestSeq
        }
        // The batch's last id: ids are never reused, so the batch is exactly the rows between the
        // two marks, now and whenever it is repeated.
        guard
            let last = try Int64.fetchOne(
                db, sql: "SELECT max(id) FROM (SELECT id FROM article WHERE id > ? ORDER BY id LIMIT ?)",
                arguments: [through, batchSize])
        else { return (0, applied) }
        try index(db, where: "id > ? AND id <= ?", arguments: [through, last])
        let indexed = db.changesCount
        try db.execute(sql: "UPDATE searchState SET indexedThrough = ?", arguments: [last])
        return (indexed, applied)
    }

    /// Adds the articles `condition` picks (with `arguments`) to both indexes, as they are now;
    /// `db.changesCount` is then how many.
    private static func index(_ db: Database, where condition: String, arguments: StatementArguments) throws {
        let suffix = ArticleSearch.indexedSuffix
        try db.execute(
            sql: """
                INSERT INTO articleSearch (rowid, title, body)
                SELECT id, coalesce(title, ''), coalesce(contentText, summary, '') FROM article
                WHERE \(condition) ORDER BY id
                """, arguments: arguments)
        try db.execute(
            sql: """
                INSERT INTO articleSubstring (rowid, title, body)
                SELECT id, coalesce(title, '') || ?, coalesce(contentText, summary, '') || ? FROM article
                WHERE \(condition) ORDER BY id
                """, arguments: [suffix, suffix] + arguments)
    }
}
