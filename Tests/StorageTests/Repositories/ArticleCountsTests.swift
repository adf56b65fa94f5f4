import Foundation
import GRDB
import Models
import Testing

@testable import Storage

@Suite("Article counts kept per feed")
struct ArticleCountsTests {
    /// The counts as the lists see them: articles, and articles joined with their statuses.
    func truth(_ database: AppDatabase) async throws -> [Int64: [Int]] {
        try await database.read { db in
            var counts: [Int64: [Int]] = [:]
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT article.feedId, count(*), sum(articleStatus.isRead = 0), sum(articleStatus.isStarred = 1)
                    FROM article JOIN articleStatus USING (feedId, uniqueId) GROUP BY article.feedId
                    """)
            for row in rows { counts[row[0]] = [row[1], row[2], row[3]] }
            return counts
        }
    }

    func kept(_ database: AppDatabase) async throws -> [Int64: [Int]] {
        try await database.read { db in
            var counts: [Int64: [Int]] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT feedId, total, unread, starred FROM articleCounts") {
                let values: [Int] = [row[1], row[2], row[3]]
                if values != [0, 0, 0] { counts[row[0]] = values }
            }
            return counts
        }
    }

    func check(_ database: AppDatabase, _ step: String) async throws {
        let expected = try await truth(database)
        #expect(try await kept(database) == expected, "after \(step)")
        let articles = ArticleRepository(database: database)
        #expect(try await articles.count(matching: ArticleQuery()) == expected.values.map { $0[0] }.reduce(0, +))
        #expect(
            try await articles.count(matching: ArticleQuery(unreadOnly: true))
                == expected.values.map { $0[1] }.reduce(0, +))
        #expect(
            try await articles.count(matching: ArticleQuery(starredOnly: true))
                == expected.values.map { $0[2] }.reduce(0, +))
        for (feedID, values) in expected {
            #expect(try await articles.count(matching: ArticleQuery(feedID: feedID, unreadOnly: true)) == values[1])
            #expect(try await FeedRepository(database: database).articleCounts()[feedID]?.total == values[0])
        }
    }

    @Test("merges, marks, retention and removal keep them equal to the articles, step by step")
    func randomHistory() async throws {
        var generator = SystemRandomNumberGenerator()
        let seed = UInt64.random(in: 0...UInt64.max, using: &generator)
        var random = SplitMix(seed: seed)
        let database = try AppDatabase.inMemory()
        let feeds = ArticleRepository(database: database)
        var feedIDs = [try await addFeed(database, "A"), try await addFeed(database, "B")]
        for step in 0..<60 {
            let feedID = feedIDs[Int(random.next() % UInt64(feedIDs.count))]
            switch random.next() % 7 {
            case 0, 1:
                // New and returning articles, some older than the unread cut-off.
                let batch = (0..<Int(random.next() % 8)).map { _ in
                    article(feedID, "\(random.next() % 40)", age: Double(random.next() % 400))
                }
                _ = try await feeds.merge(batch, intoFeed: feedID, now: now)
            case 2:
                let ids = try await feeds.articles(matching: ArticleQuery(), limit: 1_000).map(\.id)
                try await feeds.setRead(random.next() % 2 == 0, ids: ids.filter { _ in random.next() % 3 == 0 })
            case 3:
                let ids = try await feeds.articles(matching: ArticleQuery(), limit: 1_000).map(\.id)
                try await feeds.setStarred(random.next() % 2 == 0, ids: ids.filter { _ in random.next() % 4 == 0 })
            case 4:
                _ = try await feeds.markAllRead(feedID: feedID)
            case 5:
                _ = try await feeds.deleteReadArticles(olderThan: daysAgo(Double(random.next() % 300)))
                _ = try await feeds.deleteStatuses(olderThan: daysAgo(Double(random.next() % 300)))
            default:
                if random.next() % 3 == 0, feedIDs.count > 1 {
                    try await FeedRepository(database: database).remove(id: feedID)
                    feedIDs.removeAll { $0 == feedID }
                    feedIDs.append(try await addFeed(database, "F\(step)"))
                }
            }
            try await check(database, "step \(step) (seed \(seed))")
        }
    }

    @Test("a database from before the counts gets them from its articles and statuses")
    func upgrade() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("tidings.sqlite").path
        let queue = try DatabaseQueue(path: path)
        try AppDatabase.migrator.migrate(queue, upTo: "v7-no-http-cache")
        try await queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO feed (id, url, title) VALUES (1, 'https://a.example/feed', 'A'), (2, 'https://b.example/feed', 'B');
                    INSERT INTO article (feedId, uniqueId, sortDate) VALUES (1, 'a', 0), (1, 'b', 1), (2, 'c', 2);
                    INSERT INTO articleStatus (feedId, uniqueId, isRead, isStarred, arrivedAt)
                    VALUES (1, 'a', 0, 1, 0), (1, 'b', 1, 0, 0), (2, 'c', 0, 0, 0), (2, 'gone', 1, 0, 0);
                    """)
        }
        try queue.close()
        let statements = StatementCounter()
        let database = try AppDatabase(path: path, onStatement: statements.record)
        #expect(try await kept(database) == [1: [2, 1, 1], 2: [1, 1, 0]])
        // No check of every foreign key in the file after each migration (seconds on a large
        // one); a check of one small table's (`foreign_key_check("feed")`) is allowed.
        #expect(!statements.all.contains { $0.contains("foreign_key_check") && !$0.contains("foreign_key_check(") })
        #expect(!statements.all.contains { $0.contains("foreign_key_check(\"article") })
        #expect(statements.all.contains { $0.contains("CREATE TABLE articleCounts") })
        try await check(database, "the upgrade")
    }
}

/// A small seeded generator, so a failing history can be replayed from the seed in its message.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
