import Foundation
import GRDB
import Models
import Testing

@testable import Storage

/// v29 rebuilds `feed` for feed accounts: nothing stored before may be lost or renumbered, and
/// a URL stays subscribed here once only, while accounts may list it too.
@Suite("Feed accounts migration")
struct FeedAccountsMigrationTests {
    /// A file at v28 holding three feeds (ids 1, 2, 5; the sequence at 7, ids 6 and 7 were
    /// deleted), their articles, statuses and tags.
    func fileBeforeAccounts(_ directory: URL) throws -> String {
        let path = directory.appendingPathComponent("tidings.sqlite").path
        let queue = try DatabaseQueue(
            path: path, configuration: AppDatabase.configuration(options: .init(), storePath: path, onStatement: nil))
        try AppDatabase.migrator.migrate(queue, upTo: "v28-search-index-file")
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO feed (id, url, title, etag, pace, keepItems) VALUES
                        (1, 'https://a.example/feed', 'A', '"e1"', 3600, 50),
                        (2, 'https://b.example/feed', 'B', NULL, NULL, NULL),
                        (5, 'https://c.example/feed', 'C', NULL, NULL, NULL),
                        (7, 'https://gone.example/feed', 'Gone', NULL, NULL, NULL);
                    DELETE FROM feed WHERE id = 7;
                    INSERT INTO article (feedId, uniqueId, title, sortDate) VALUES
                        (1, 'a1', 'First', 1), (1, 'a2', 'Second', 2), (5, 'c1', 'Third', 3);
                    INSERT INTO articleStatus (feedId, uniqueId, isRead, isStarred, arrivedAt) VALUES
                        (1, 'a1', 1, 0, 0), (1, 'a2', 0, 1, 0), (5, 'c1', 0, 0, 0);
                    INSERT INTO feedTag (feedId, tag, position) VALUES (1, 'News', 0), (5, 'News', 1);
                    """)
        }
        try queue.close()
        return path
    }

    @Test("every feed, article, status and tag stays, under the same ids, and ids are never reused")
    func keepsEverything() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try AppDatabase(path: try fileBeforeAccounts(directory))
        let feeds = FeedRepository(database: database)
        let all = try await feeds.all()
        #expect(all.map(\.id) == [1, 2, 5])
        #expect(all.map(\.title) == ["A", "B", "C"])
        #expect(all.first?.etag == "\"e1\"")
        let statuses = try await database.read { db in
            try String.fetchAll(
                db, sql: "SELECT feedId || ':' || uniqueId || ':' || isRead || isStarred FROM articleStatus ORDER BY uniqueId")
        }
        #expect(statuses == ["1:a1:10", "1:a2:01", "5:c1:00"])
        let counts = try await database.read { db in
            (
                try Int.fetchOne(db, sql: "SELECT count(*) FROM article") ?? 0,
                try Int.fetchOne(db, sql: "SELECT count(*) FROM feedTag") ?? 0,
                try Bool.fetchOne(db, sql: "SELECT isStarred FROM articleStatus WHERE uniqueId = 'a2'") ?? false
            )
        }
        #expect(counts.0 == 3)
        #expect(counts.1 == 2)
        #expect(counts.2)
        // The next feed is 8: 6 and 7 were given out before the rebuild.
        let added = try await feeds.addAll([FeedSource(url: URL(string: "https://d.example/feed")!, title: "D")])
        #expect(added.map(\.id) == [8])
        // Deleting a feed still takes its articles (the foreign keys survived the rebuild).
        try await feeds.remove(id: 1)
        let left = try await database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM article") }
        #expect(left == 1)
        #expect(try await database.integrityCheck() == ["ok"])
    }

    @Test("a URL is subscribed here once; an account may list it too, once per account")
    func uniqueness() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try AppDatabase(path: try fileBeforeAccounts(directory))
        let feeds = FeedRepository(database: database)
        let url = URL(string: "https://a.example/feed")!
        await #expect(throws: StorageError.duplicate("a subscription to \(url.absoluteString)")) {
            _ = try await feeds.add(FeedSource(url: url, title: "again"), articles: [])
        }
        #expect(try await feeds.addAll([FeedSource(url: url, title: "again")]).isEmpty)
        try await database.write(source: .app) { db in
            try db.execute(
                sql: """
                    INSERT INTO account (kind, endpoint, user, createdAt) VALUES ('fever', 'https://rss.example/fever/', 'u', 0);
                    INSERT INTO feed (url, title, accountId, remoteId) VALUES ('https://a.example/feed', 'A (account)', 1, '12');
                    """)
        }
        // The same remote feed twice in one account is refused.
        await #expect(throws: (any Error).self) {
            try await database.write(source: .app) { db in
                try db.execute(
                    sql: "INSERT INTO feed (url, title, accountId, remoteId) VALUES ('https://x.example/', 'X', 1, '12')")
            }
        }
        // The local subscription is still the one found by its URL.
        #expect(try await feeds.feed(url: url)?.title == "A")
        // Removing the account removes its feeds, and only those.
        try await database.write(source: .app) { db in try db.execute(sql: "DELETE FROM account WHERE id = 1") }
        #expect(try await feeds.all().map(\.title) == ["A", "B", "C"])
    }

    @Test("a local URL is found through its index, not by reading every feed")
    func lookupsUseTheIndex() async throws {
        let database = try AppDatabase.inMemory()
        let plan = try await database.read { db in
            try Row.fetchAll(
                db, sql: "EXPLAIN QUERY PLAN SELECT id FROM feed WHERE url = ? AND accountId IS NULL",
                arguments: ["https://a.example/feed"]
            ).map { $0["detail"] as String? ?? "" }
        }
        #expect(plan.joined().contains("feed_url_local"), "\(plan)")
    }
}
