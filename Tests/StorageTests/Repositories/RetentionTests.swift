import Foundation
import GRDB
import Models
import Testing

@testable import Storage

@Suite("Retention: purge by count and age, never starred, the file shrinks, the indexes stay whole")
struct RetentionTests {
    /// `count` articles of `feed` a day apart (the first newest), with bodies of some size.
    func fill(_ database: AppDatabase, feed: Int64, count: Int, prefix: String) async throws -> [Int64] {
        let articles = ArticleRepository(database: database)
        let items = (0..<count).map { index in
            article(
                feed, "\(prefix)\(index)", age: Double(index) + 0.5, title: "\(prefix) \(index)",
                text: String(repeating: "lorem ipsum dolor \(index) ", count: 200))
        }
        let ids = try await articles.merge(items, intoFeed: feed, now: now).inserted
        _ = try await articles.updateSearchIndex()
        return ids
    }

    @Test(
        "keep N keeps the newest N besides starred ones; keep D deletes read ones older than D days; a feed's own policy wins"
    )
    func policies() async throws {
        let database = try AppDatabase.inMemory()
        let (a, b) = (try await addFeed(database, "A"), try await addFeed(database, "B"))
        let articles = ArticleRepository(database: database)
        let idsA = try await fill(database, feed: a, count: 10, prefix: "a")
        let idsB = try await fill(database, feed: b, count: 10, prefix: "b")
        try await articles.setStarred(true, ids: [idsA[9]])
        try await articles.setRead(true, ids: Array(idsB[0..<8]))
        let result = try await articles.purge(
            default: RetentionPolicy(items: 3), feeds: [b: RetentionPolicy(items: 0, days: 5)], now: now)
        // A: the newest 3 and the starred 10th; B: keep all by count, but read ones older than 5 days go (5, 6, 7).
        let left = try await articles.articles(matching: ArticleQuery(), limit: 100).map(\.article.uniqueID)
        #expect(Set(left.filter { $0.hasPrefix("guid-a") }) == ["guid-a0", "guid-a1", "guid-a2", "guid-a9"])
        #expect(Set(left.filter { $0.hasPrefix("guid-b") }).count == 7)
        #expect(!left.contains("guid-b5") && left.contains("guid-b8") && left.contains("guid-b4"))
        #expect(result.deleted == 9)
        try await checkSearchIndexes(database)
        #expect(try await articles.count(matching: ArticleQuery(search: "lorem")) == 11)
        // A purged article the feed lists again stays away; a new one comes in.
        let again = try await articles.merge(
            [article(a, "a5", age: 5.5), article(a, "fresh", age: 0.1)], intoFeed: a, now: now)
        #expect(again.inserted.count == 1)
        #expect(try await FeedRepository(database: database).articleCounts()[a]?.total == 5)
    }

    @Test("a purge gives the space back: the file shrinks, in a new file and in one from before (converted once)")
    func fileShrinks() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for legacy in [false, true] {
            let path = directory.appendingPathComponent("t\(legacy).sqlite").path
            let database = try AppDatabase(path: path)
            if legacy {
                // A file from before: no incremental vacuum.
                try await database.writer.writeWithoutTransaction { db in
                    try db.execute(sql: "PRAGMA auto_vacuum = NONE")
                    try db.execute(sql: "VACUUM")
                }
                #expect(try await database.read { db in try Int.fetchOne(db, sql: "PRAGMA auto_vacuum") } == 0)
            }
            let feed = try await addFeed(database)
            _ = try await fill(database, feed: feed, count: 400, prefix: "x")
            try await database.checkpoint()
            let before = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
            let result = try await ArticleRepository(database: database).purge(
                default: RetentionPolicy(items: 10), feeds: [:], now: now)
            let after = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
            #expect(result.deleted == 390)
            #expect(after < before / 2, "legacy \(legacy): \(before) -> \(after)")
            #expect(result.freedBytes > 0)
            #expect(try database.integrityCheck() == ["ok"])
            try await checkSearchIndexes(database)
            let mode = try await database.read { db in try Int.fetchOne(db, sql: "PRAGMA auto_vacuum") }
            #expect(mode == 2)
        }
    }
}
