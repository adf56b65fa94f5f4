import Foundation
internal import GRDB
public import Models

extension FeedRepository {
    /// Subscribes to the feeds of `entries` not subscribed yet, as `addAll` does, and gives every
    /// entry's feed, new or already there, its tags (OPML folders; the empty tag for the top
    /// level), each ordered by its `order` (its place in the list), in one transaction. Returns
    /// the feeds it added, in order.
    public func addAll(
        _ entries: [(feed: FeedSource, tags: [(tag: String, order: Int)])], source: ChangeSource = .user
    )
        async throws(StorageError) -> [FeedSource]
    {
        for entry in entries { try Self.validate(entry.feed) }
        let tracker = database.tracker
        return try await database.write(source: source) { db in
            var added: [FeedSource] = []
            let insert = try db.cachedStatement(
                sql: "INSERT INTO feed (url, title, homePageURL) VALUES (?, ?, ?) ON CONFLICT(url) WHERE accountId IS NULL DO NOTHING")
            let first = try Self.nextTagPosition(db)
            for (feed, tags) in entries {
                try insert.execute(arguments: [feed.url.absoluteString, feed.title, feed.homePageURL?.absoluteString])
                let id: Int64
                if db.changesCount == 1 {
                    id = db.lastInsertedRowID
                    var stored = feed
                    stored.id = id
                    added.append(stored)
                } else {
                    guard !tags.isEmpty,
                        let existing = try Int64.fetchOne(
                            db.cachedStatement(sql: "SELECT id FROM feed WHERE url = ? AND accountId IS NULL"),
                            arguments: [feed.url.absoluteString])
                    else { continue }
                    id = existing
                    tracker.record(.feed, updated: [id])
                }
                for (tag, order) in tags {
                    try Self.insertTag(db, feedID: id, tag: tag, position: first + Int64(order))
                }
            }
            return added
        }
    }

    /// Adds `tags` to each feed of `feedIDs`; a tag a feed has already is left as it is.
    ///
    /// - Throws: `.notFound` for a feed that does not exist (nothing is written).
    public func tag(_ feedIDs: [Int64], with tags: [String], source: ChangeSource = .user)
        async throws(StorageError)
    {
        let tracker = database.tracker
        try await database.write(source: source) { db in
            try Self.requireFeeds(db, feedIDs)
            var position = try Self.nextTagPosition(db)
            for id in feedIDs {
                // A tagged feed leaves the top level of an imported list: it moves into the folder.
                try db.cachedStatement(sql: "DELETE FROM feedTag WHERE feedId = ? AND tag = ''")
                    .execute(arguments: [id])
                for tag in tags {
                    try Self.insertTag(db, feedID: id, tag: tag, position: position)
                    position += 1
                }
            }
            tracker.record(.feed, updated: Set(feedIDs))
        }
    }

    /// Removes `tags` from each feed of `feedIDs` (every tag when `tags` is empty), and returns
    /// how many tags were removed.
    ///
    /// - Throws: `.notFound` for a feed that does not exist (nothing is written).
    @discardableResult
    public func untag(_ feedIDs: [Int64], tags: [String], source: ChangeSource = .user) async throws(StorageError)
        -> Int
    {
        let tracker = database.tracker
        return try await database.write(source: source) { db in
            try Self.requireFeeds(db, feedIDs)
            var removed = 0
            for id in feedIDs {
                if tags.isEmpty {
                    try db.execute(sql: "DELETE FROM feedTag WHERE feedId = ?", arguments: [id])
                    removed += db.changesCount
                }
                for tag in tags {
                    try db.execute(sql: "DELETE FROM feedTag WHERE feedId = ? AND tag = ?", arguments: [id, tag])
                    removed += db.changesCount
                }
            }
            tracker.record(.feed, updated: Set(feedIDs))
            return removed
        }
    }

    /// Each feed's tags, in the order they were given; feeds without tags are absent.
    public func tagsByFeed() async throws(StorageError) -> [Int64: [String]] {
        try await database.read { db in
            var tags: [Int64: [String]] = [:]
            let rows = try Row.fetchCursor(
                db, sql: "SELECT feedId, tag FROM feedTag WHERE tag <> '' ORDER BY feedId, position")
            while let row = try rows.next() { tags[row[0], default: []].append(row[1]) }
            return tags
        }
    }

    /// Where each feed sits in an OPML list, in the order places arrived: its tags, and the
    /// empty tag for the top level; a feed with none sits at the top level, after every place
    /// with an order, by id (a feed added by hand after an import).
    public func placements() async throws(StorageError) -> [(feedID: Int64, tag: String)] {
        try await database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT feed.id, coalesce(feedTag.tag, '') FROM feed LEFT JOIN feedTag ON feedTag.feedId = feed.id
                    ORDER BY feedTag.position IS NULL, feedTag.position, feed.id
                    """
            ).map { (feedID: $0[0], tag: $0[1]) }
        }
    }

    /// Every tag, with its feeds and their article counts; a tag's counts include the feeds of
    /// the tags inside it (`Tech` counts `Tech/Swift`'s feeds, each feed once). In tag order.
    public func tagSummaries() async throws(StorageError) -> [TagSummary] {
        try await database.read { db in
            let tags = try String.fetchAll(db, sql: "SELECT DISTINCT tag FROM feedTag WHERE tag <> '' ORDER BY tag")
            // Every folder above a tag is listed too: a feed in Tech/Swift is in Tech.
            var all = Set(tags)
            for tag in tags {
                let folders = FeedTag.folders(of: tag)
                for depth in 1..<max(1, folders.count) {
                    if let parent = FeedTag.tag(folders: Array(folders.prefix(depth))) { all.insert(parent) }
                }
            }
            let statement = try db.cachedStatement(
                sql: """
                    SELECT count(*), coalesce(sum(unread), 0), coalesce(sum(total), 0)
                    FROM feed LEFT JOIN articleCounts ON articleCounts.feedId = feed.id
                    WHERE feed.id IN (\(ArticleRepository.taggedFeeds))
                    """)
            return try all.sorted().map { tag in
                let row = try Row.fetchOne(statement, arguments: ArticleRepository.taggedFeedsArguments(tag))
                return TagSummary(
                    tag: tag, feeds: row?[0] ?? 0,
                    counts: ArticleCounts(unread: row?[1] ?? 0, total: row?[2] ?? 0))
            }
        }
    }

    /// The ids of the feeds tagged with `tag` or a tag inside it, in id order.
    public func feedIDs(taggedWith tag: String) async throws(StorageError) -> [Int64] {
        try await database.read { db in
            try Int64.fetchAll(
                db,
                sql:
                    "SELECT DISTINCT feedId FROM feedTag WHERE feedId IN (\(ArticleRepository.taggedFeeds)) ORDER BY feedId",
                arguments: ArticleRepository.taggedFeedsArguments(tag))
        }
    }

    private static func nextTagPosition(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT coalesce(max(position), 0) + 1 FROM feedTag") ?? 1
    }

    /// One statement prepared once per connection: an import calls it for every outline, and
    /// preparing it each time took a third of importing 50,000.
    private static func insertTag(_ db: Database, feedID: Int64, tag: String, position: Int64) throws {
        try db.cachedStatement(
            sql: "INSERT INTO feedTag (feedId, tag, position) VALUES (?, ?, ?) ON CONFLICT DO NOTHING"
        ).execute(arguments: [feedID, tag, position])
    }

    private static func requireFeeds(_ db: Database, _ ids: [Int64]) throws {
        for id in ids where try FeedRecord.exists(db, key: id) == false {
            throw StorageError.notFound(entity: "feed", id: id)
        }
    }
}
