internal import GRDB
public import Models

/// Rules for new articles (`ArticleRule`), and what they need of the articles they look at.
public struct RuleRepository: Sendable {
    let database: AppDatabase

    public init(database: AppDatabase) { self.database = database }

    /// Every rule, in the order they were added.
    public func all() async throws(StorageError) -> [ArticleRule] {
        try await database.read { db in try Self.all(db) }
    }

    static func all(_ db: Database) throws -> [ArticleRule] {
        try Row.fetchAll(db, sql: "SELECT id, field, pattern, isRegex, action, caught FROM articleRule ORDER BY id")
            .compactMap { row in
                // A rule another version wrote with a field or action this one does not know is
                // left alone.
                guard let field = ArticleRule.Field(rawValue: row[1]), let action = ArticleRule.Action(rawValue: row[4])
                else { return nil }
                return ArticleRule(
                    id: row[0], field: field, pattern: row[2], isRegex: row[3], action: action, caught: row[5])
            }
    }

    /// Saves a new rule and returns it with its id.
    public func add(_ rule: ArticleRule) async throws(StorageError) -> ArticleRule {
        guard !rule.pattern.isEmpty else { throw .missingField(entity: "rule", field: "pattern") }
        return try await database.write(source: .user) { db in
            try db.execute(
                sql: "INSERT INTO articleRule (field, pattern, isRegex, action) VALUES (?, ?, ?, ?)",
                arguments: [rule.field.rawValue, rule.pattern, rule.isRegex, rule.action.rawValue])
            var stored = rule
            stored.id = db.lastInsertedRowID
            return stored
        }
    }

    /// Removes rule `id`.
    ///
    /// - Throws: `.notFound` when there is none.
    public func remove(id: Int64) async throws(StorageError) {
        try await database.write(source: .user) { db in
            try db.execute(sql: "DELETE FROM articleRule WHERE id = ?", arguments: [id])
            if db.changesCount == 0 { throw StorageError.notFound(entity: "rule", id: id) }
        }
    }

    /// What rules look at in the articles with ids above `id`, `limit` at a time in id order.
    public func facts(after id: Int64, limit: Int = 500) async throws(StorageError) -> [ArticleFacts] {
        try await database.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT article.id, coalesce(article.title, ''), article.authors, coalesce(feed.title, ''),
                        coalesce(article.link, ''),
                        coalesce(article.summary, '') || ' ' || coalesce(article.contentText, article.contentHtml, ''),
                        articleStatus.isStarred,
                        (SELECT group_concat(tag, char(10)) FROM feedTag WHERE feedTag.feedId = article.feedId AND tag <> '')
                    FROM article JOIN articleStatus USING (feedId, uniqueId) JOIN feed ON feed.id = article.feedId
                    WHERE article.id > ? ORDER BY article.id LIMIT ?
                    """, arguments: [id, limit])
            return rows.map { row in
                let authors: String? = row[2]
                let tags: String? = row[7]
                return ArticleFacts(
                    id: row[0], title: row[1], authors: authors ?? "", feedTitle: row[3],
                    tags:
                        tags?.split(separator: "\n").map(String.init) ?? [],
                    link: row[4], text: row[5], isStarred: row[6])
            }
        }
    }

    /// Applies what rules decided: `read` marked read, `hide` hidden (deleted, their statuses
    /// kept and marked, starred ones never), and each rule's count raised by `caught`. One
    /// transaction. Returns how many were hidden.
    @discardableResult
    public func apply(read: [Int64], hide: [Int64], caught: [Int64: Int]) async throws(StorageError) -> Int {
        let tracker = database.tracker
        return try await database.write(source: .app) { db in
            try ArticleRepository.markRead(db, ids: read)
            tracker.record(.article, updated: read)
            let hidden = try ArticleRepository.hide(db, ids: hide)
            for (id, count) in caught where count > 0 {
                try db.execute(sql: "UPDATE articleRule SET caught = caught + ? WHERE id = ?", arguments: [count, id])
            }
            return hidden.count
        }
    }
}
