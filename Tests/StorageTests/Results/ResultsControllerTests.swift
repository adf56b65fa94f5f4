import Foundation
import GRDB
import Models
import Synchronization
import Testing

@testable import Storage

/// Counts the SQL statements a database runs.
final class StatementCounter: Sendable {
    private let statements = Mutex<[String]>([])
    /// The SELECT statements run (transaction control and pragmas are left out).
    var selects: [String] { statements.withLock { $0.filter { $0.hasPrefix("SELECT") } } }
    var count: Int { selects.count }
    /// Every statement run.
    var all: [String] { statements.withLock { $0 } }
    func record(_ sql: String) { statements.withLock { $0.append(sql) } }
    func reset() { statements.withLock { $0.removeAll() } }
}

@Suite("Results controller")
struct ResultsControllerTests {
    @Test("reading item 0 of 100,000 articles loads one batch, not everything")
    func loadsOneBatch() async throws {
        let counter = StatementCounter()
        let database = try AppDatabase.inMemory(onStatement: counter.record)
        let feedID = try await addFeed(database)
        try await insertArticles(database, feedID: feedID, count: 100_000)
        let controller = ArticleRepository(database: database).resultsController(for: ArticleQuery(feedID: feedID))
        try await controller.performFetch()
        #expect(await controller.count == 100_000)
        #expect(await controller.loadedCount == 0)

        counter.reset()
        let first = try await controller.object(at: 0)
        #expect(first?.article.title == "Title 100000")
        #expect(counter.count == 1, "statements: \(counter.selects)")
        #expect(counter.selects.first?.components(separatedBy: "?").count == 51)
        #expect(await controller.loadedCount == 50)

        counter.reset()
        #expect(try await controller.object(at: 49)?.article.title == "Title 99951")
        #expect(counter.count == 0)
        #expect(try await controller.object(at: 50)?.article.title == "Title 99950")
        #expect(counter.count == 1)
        #expect(await controller.loadedCount == 100)
        #expect(try await controller.object(at: 100_000) == nil)
    }

    @Test("a refresh reports inserts, deletes, moves and updates by position")
    func difference() async throws {
        let database = try AppDatabase.inMemory()
        let feedID = try await addFeed(database)
        let articles = ArticleRepository(database: database)
        // Positions (newest first): 0 → a, 1 → b, 2 → c, 3 → d.
        let ids = try await articles.merge(
            [
                article(feedID, "a", age: 1), article(feedID, "b", age: 2), article(feedID, "c", age: 3),
                article(feedID, "d", age: 4),
            ],
            intoFeed: feedID, now: now
        ).inserted
        let controller = articles.resultsController(for: ArticleQuery(feedID: feedID, unreadOnly: true), batchSize: 2)
        try await controller.performFetch()
        _ = try await controller.object(at: 0)
        var changes = database.changes(of: .article).makeAsyncIterator()

        // b is read (leaves the unread list), e is new and newest, d's date moves to the top,
        // c's title changes in place.
        try await articles.setRead(true, ids: [ids[1]])
        _ = try await articles.merge(
            [
                article(feedID, "e", age: 0.5), article(feedID, "d", age: 0.1),
                article(feedID, "c", age: 3, title: "C!"),
            ],
            intoFeed: feedID, now: now)
        var updated = Set<Int64>()
        updated.formUnion(try #require(await changes.next()).updated)
        updated.formUnion(try #require(await changes.next()).updated)

        let difference = try await controller.refresh(updated: updated)
        // New order: d, e, a, c.
        #expect(await controller.identifiers.count == 4)
        #expect(difference.deleted == [1])
        #expect(difference.inserted == [1])
        #expect(difference.moved == [ResultsDifference.Move(from: 3, to: 0)])
        #expect(difference.updated == [3])
        #expect(try await controller.object(at: 3)?.article.title == "C!")
        #expect(try await controller.refresh().isEmpty)
    }

    @Test("a search list is a results controller too")
    func searchResults() async throws {
        let database = try AppDatabase.inMemory()
        let feedID = try await addFeed(database)
        let articles = ArticleRepository(database: database)
        _ = try await articles.merge(
            (1...120).map { article(feedID, "\($0)", age: Double($0), title: $0 % 2 == 0 ? "even swift" : "odd") },
            intoFeed: feedID, now: now)
        let controller = articles.resultsController(for: ArticleQuery(search: "swift"))
        try await controller.performFetch()
        #expect(await controller.count == 60)
        #expect(try await controller.object(at: 0)?.article.uniqueID == "guid-2")
    }
}
