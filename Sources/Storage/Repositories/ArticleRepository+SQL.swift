import Foundation
internal import GRDB
import Models

extension ArticleRepository {
    /// Stored rows of a feed with the given unique ids, by unique id.
    static func existing(_ db: Database, feedID: Int64, uniqueIDs: [String]) throws -> [String: ArticleRecord] {
        var stored: [String: ArticleRecord] = [:]
        stored.reserveCapacity(uniqueIDs.count)
        for chunk in uniqueIDs.chunked(into: 500) {
            let placeholders = placeholders(chunk.count)
            let rows = try Row.fetchCursor(
                db,
                sql:
                    "SELECT \(ArticleRecord.selection) FROM article WHERE feedId = ? AND uniqueId IN (\(placeholders))",
                arguments: [feedID] + StatementArguments(chunk))
            while let row = try rows.next() {
                let record = ArticleRecord(row: row)
                stored[record.uniqueId] = record
            }
        }
        return stored
    }

    /// Creates the status of a newly inserted article unless one outlived an earlier copy.
    static func insertStatus(_ db: Database, for record: ArticleRecord, isRead: Bool, now: Date) throws {
        let statement = try db.cachedStatement(
            sql: """
                INSERT OR IGNORE INTO articleStatus (feedId, uniqueId, isRead, isStarred, arrivedAt)
                VALUES (?, ?, ?, 0, ?)
                """)
        try statement.execute(arguments: [record.feedId, record.uniqueId, isRead, now.timeIntervalSince1970])
    }

    /// The ids among `ids` that exist.
    static func existingIDs(_ db: Database, _ ids: [Int64]) throws -> Set<Int64> {
        var found = Set<Int64>()
        for chunk in ids.chunked(into: 500) {
            let placeholders = placeholders(chunk.count)
            found.formUnion(
                try Int64.fetchAll(
                    db, sql: "SELECT id FROM article WHERE id IN (\(placeholders))",
                    arguments: StatementArguments(chunk)))
        }
        return found
    }

    /// The columns `storedArticle(_:)` reads: the article's, then its status's.
    static let storedSelection =
        "\(ArticleRecord.selection), articleStatus.isRead, articleStatus.isStarred, articleStatus.arrivedAt"

    /// An article and its status from a row selected with `storedSelection`.
    static func storedArticle(_ row: Row) -> StoredArticle {
        let record = ArticleRecord(row: row)
        let first = ArticleRecord.columns.count
        let status = ArticleStatus(
            feedID: record.feedId, uniqueID: record.uniqueId, isRead: row[first], isStarred: row[first + 1],
            arrivedAt: Date(timeIntervalSince1970: row[first + 2]))
        return StoredArticle(
            article: record.article, status: status, sortDate: Date(timeIntervalSince1970: record.sortDate))
    }

    /// Articles with their statuses, in the order of `ids` (missing ids are skipped).
    static func fetch(_ db: Database, ids: [Int64]) throws -> [StoredArticle] {
        var byID: [Int64: StoredArticle] = [:]
        byID.reserveCapacity(ids.count)
        for chunk in ids.chunked(into: 500) {
            let placeholders = placeholders(chunk.count)
            let statement = try db.cachedStatement(
                sql: """
                    SELECT \(storedSelection) FROM article JOIN articleStatus USING (feedId, uniqueId)
                    WHERE article.id IN (\(placeholders))
                    """)
            let rows = try Row.fetchCursor(statement, arguments: StatementArguments(chunk))
            while let row = try rows.next() {
                let stored = storedArticle(row)
                byID[stored.id] = stored
            }
        }
        return ids.compactMap { byID[$0] }
    }

    /// Whether articles were merged, or indexed ones changed, since the search index was last
    /// brought up to date; also when the index file was never set up.
    static func pendingSearchIndex(_ db: Database) throws -> Bool {
        let schema = SearchIndexFile.schema
        guard
            try Int.fetchOne(db, sql: "SELECT count(*) FROM \(schema).sqlite_master WHERE name = 'searchState'") == 1
        else { return true }
        return try Bool.fetchOne(
            db,
            sql: """
                SELECT coalesce((SELECT max(id) FROM main.article), 0) > indexedThrough
                    OR coalesce((SELECT max(seq) FROM main.articleSearchQueue), 0) > appliedSeq
                FROM \(schema).searchState
                """) ?? false
    }

    /// The ids of the feeds tagged with a tag or a tag inside it (`Tech`, `Tech/Swift`): the
    /// second is a range of the index, every tag that starts with `Tech/` (`0` follows `/`).
    static let taggedFeeds = "SELECT feedId FROM feedTag WHERE tag = ? OR (tag >= ? AND tag < ?)"

    static func taggedFeedsArguments(_ tag: String) -> StatementArguments {
        [tag, tag + "/", tag + "0"]
    }

    /// Marks the articles `ids` read (those unread), inside the caller's transaction.
    static func markRead(_ db: Database, ids: [Int64]) throws {
        for chunk in ids.chunked(into: 500) {
            try db.execute(
                sql: """
                    UPDATE articleStatus SET isRead = 1 WHERE isRead = 0 AND (feedId, uniqueId) IN (
                        SELECT feedId, uniqueId FROM article WHERE id IN (\(placeholders(chunk.count))))
                    """, arguments: StatementArguments(Array(chunk)))
        }
    }

    /// Deletes the articles `ids` but the starred ones, keeping their statuses marked hidden
    /// (read), so that a feed listing them again does not bring them back (see `merge`); inside
    /// the caller's transaction. Returns the ids deleted.
    static func hide(_ db: Database, ids: [Int64]) throws -> [Int64] {
        var hidden: [Int64] = []
        for chunk in ids.chunked(into: 500) {
            let deletable = try Int64.fetchAll(
                db,
                sql: """
                    SELECT article.id FROM article JOIN articleStatus USING (feedId, uniqueId)
                    WHERE article.id IN (\(placeholders(chunk.count))) AND articleStatus.isStarred = 0
                    """, arguments: StatementArguments(Array(chunk)))
            guard !deletable.isEmpty else { continue }
            let marks = placeholders(deletable.count)
            try db.execute(
                sql: """
                    UPDATE articleStatus SET isHidden = 1, isRead = 1 WHERE (feedId, uniqueId) IN (
                        SELECT feedId, uniqueId FROM article WHERE id IN (\(marks)))
                    """, arguments: StatementArguments(deletable))
            try db.execute(sql: "DELETE FROM article WHERE id IN (\(marks))", arguments: StatementArguments(deletable))
            hidden += deletable
        }
        return hidden
    }

    /// `?, ?, ?` for `count` bound values.
    static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }

    /// One page of the articles `query` matches, newest first.
    static func page(_ db: Database, query: ArticleQuery, limit: Int, offset: Int) throws -> [StoredArticle] {
        try page(db, query: query, limit: limit, offset: offset, matches: nil)
    }

    /// One page of the articles `query` matches, newest first; `matches` is how many there are,
    /// when the caller knows (it counts them for the page's total).
    static func page(_ db: Database, query: ArticleQuery, limit: Int, offset: Int, matches: Int?) throws
        -> [StoredArticle]
    {
        if query.search != nil {
            // Matches are sorted by date in a temporary b-tree: sort ids only, then load the
            // page, instead of carrying every match's text through the sort.
            guard let (sql, arguments) = try idsSQL(db, query) else { return [] }
            let statement = try db.cachedStatement(sql: sql + " LIMIT ? OFFSET ?")
            return try fetch(db, ids: try Int64.fetchAll(statement, arguments: arguments + [limit, offset]))
        }
        let statusesFirst = try readsStatusesFirst(db, query, matches: matches)
        let (sql, arguments) = sql(for: query, select: storedSelection, statusesFirst: statusesFirst)
        let statement = try db.cachedStatement(sql: sql + " LIMIT ? OFFSET ?")
        let rows = try Row.fetchCursor(statement, arguments: arguments + [limit, offset])
        var page: [StoredArticle] = []
        page.reserveCapacity(limit)
        while let row = try rows.next() { page.append(storedArticle(row)) }
        return page
    }

    /// How an unread or starred list finds a page: by walking articles newest first (through
    /// the date indexes) and checking each one's status, which reads about a page's worth of
    /// rows when the list holds a fair share of the articles, or, when it holds fewer than one
    /// article in 500, by reading its few statuses (a partial index) and sorting them. Either
    /// plan alone is slow somewhere: sorting a long unread list, or walking past a million read
    /// articles to reach a few old unread ones.
    static func readsStatusesFirst(_ db: Database, _ query: ArticleQuery, matches: Int?) throws -> Bool {
        guard query.unreadOnly || query.starredOnly, query.search == nil, query.since == nil else { return false }
        let matching = try matches ?? count(db, query)
        let articles: Int
        if let feedID = query.feedID {
            articles =
                try Int.fetchOne(db, sql: "SELECT count(*) FROM article WHERE feedId = ?", arguments: [feedID]) ?? 0
        } else if !query.feedIDs.isEmpty {
            articles =
                try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM article WHERE feedId IN (\(placeholders(query.feedIDs.count)))",
                    arguments: StatementArguments(query.feedIDs)) ?? 0
        } else {
            // Ids only grow: the largest is at hand and at least the number of articles.
            articles = try Int.fetchOne(db, sql: "SELECT coalesce(max(id), 0) FROM article") ?? 0
        }
        return matching * 500 < articles
    }

    /// The ordered SELECT of the ids `query` matches, in the plan that reads least for it (see
    /// `searchWalksDates`), or `nil` when its search text has no words to match.
    static func idsSQL(_ db: Database, _ query: ArticleQuery) throws -> (String, StatementArguments)? {
        guard let text = query.search else { return sql(for: query, select: "article.id") }
        // Parsed once: a word's check against the word index asks SQLite's tokenizer.
        guard let search = ArticleSearch.on(db, text) else { return nil }
        let walksDates = try searchWalksDates(db, query, search)
        return sql(for: query, select: "article.id", search: search, walksDates: walksDates)
    }

    /// How a search finds its matches newest first. From the matches: each one's row is read for
    /// its date, so a rare word touches only its articles, but a word in most articles reads most
    /// rows, a page each. Or by walking the date index and keeping the articles that match: a
    /// read of a small index whatever the matches, but a walk past every article for a rare word.
    /// The walk is chosen when the indexes' vocabularies say a tenth of the articles or more may
    /// match
    /// (`ArticleSearch.estimatedMatches`). A search among unread or starred articles reads each
    /// match's row for its status in either plan: it keeps the first.
    static func searchWalksDates(_ db: Database, _ query: ArticleQuery, _ search: ArticleSearch) throws -> Bool {
        guard !query.unreadOnly, !query.starredOnly else { return false }
        // Ids only grow: the largest is at hand and at least the number of articles.
        let articles = try Int.fetchOne(db, sql: "SELECT coalesce(max(id), 0) FROM article") ?? 0
        return try search.estimatedMatches(db) * 10 > articles
    }

    /// The ordered SELECT for a query. `statusesFirst`: the plan `readsStatusesFirst` chose for an
    /// unread or starred list. `search`: the query's search text as `ArticleSearch.on` parsed it
    /// (a query with search text is read through `idsSQL`, which parses it), and `walksDates` the
    /// plan `searchWalksDates` chose for it.
    static func sql(
        for query: ArticleQuery, select: String, statusesFirst: Bool = false, search: ArticleSearch? = nil,
        walksDates: Bool = false
    ) -> (String, StatementArguments) {
        var clauses: [String] = []
        var arguments = StatementArguments()
        if let feedID = query.feedID {
            clauses.append("article.feedId = ?")
            arguments += [feedID]
        }
        if !query.feedIDs.isEmpty {
            clauses.append("article.feedId IN (\(placeholders(query.feedIDs.count)))")
            arguments += StatementArguments(query.feedIDs)
        }
        if query.unreadOnly { clauses.append("articleStatus.isRead = 0") }
        if query.starredOnly { clauses.append("articleStatus.isStarred = 1") }
        if let since = query.since {
            clauses.append("article.sortDate >= ?")
            arguments += [since.timeIntervalSince1970]
        }
        if let before = query.before {
            clauses.append("article.sortDate < ?")
            arguments += [before.timeIntervalSince1970]
        }
        if let afterID = query.afterID {
            clauses.append("article.id > ?")
            arguments += [afterID]
        }
        if let tag = query.tag {
            clauses.append("article.feedId IN (\(taggedFeeds))")
            arguments += taggedFeedsArguments(tag)
        }
        let direction = query.order == .newestFirst ? "<" : ">"
        if let after = query.after {
            // Row values compare as the ORDER BY does: by date, then by id.
            clauses.append("(article.sortDate, article.id) \(direction) (?, ?)")
            arguments += [after.sortDate.timeIntervalSince1970, after.id]
        }
        // CROSS JOIN fixes the order SQLite reads the two tables in (see `readsStatusesFirst`).
        var from =
            statusesFirst
            ? "articleStatus CROSS JOIN article USING (feedId, uniqueId)"
            : "article CROSS JOIN articleStatus USING (feedId, uniqueId)"
        if let search {
            // Callers bring the indexes up to date first (`updateSearchIndex`).
            var searchArguments = StatementArguments()
            let conditions: [(sql: String, arguments: StatementArguments)]
            if walksDates {
                // No status filter here, and every article has its status: a join would only
                // read each match's row.
                from = "article"
                conditions = search.walkConditions()
            } else {
                // The matches drive the query (CROSS JOIN keeps them first), so a rare word
                // touches only its articles.
                let (candidates, candidateArguments) = search.candidates()
                from = """
                    (\(candidates)) AS hit CROSS JOIN article ON article.id = hit.id \
                    JOIN articleStatus USING (feedId, uniqueId)
                    """
                searchArguments = candidateArguments
                conditions = search.confirmations()
            }
            clauses.insert(contentsOf: conditions.map(\.sql), at: 0)
            for condition in conditions { searchArguments += condition.arguments }
            arguments = searchArguments + arguments
        }
        let filter = clauses.isEmpty ? "" : " WHERE " + clauses.joined(separator: " AND ")
        let descending = query.order == .newestFirst ? "DESC" : "ASC"
        let sql = """
            SELECT \(select) FROM \(from)\(filter)
            ORDER BY article.sortDate \(descending), article.id \(descending)
            """
        return (sql, arguments)
    }

}

extension Array {
    /// The array cut into consecutive pieces of at most `size` elements.
    func chunked(into size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
