import Foundation
import GRDB
import Models
import Networking
import NetworkingTestSupport
import Storage
import Store
import Synchronization
import Testing

@testable import Feed

@Suite("FeedService: indexing for search")
struct FeedSearchIndexingTests {
    @Test("subscribing and refreshing index their new articles, so that no search pays for them")
    func refreshIndexes() async throws {
        try await withTemporaryDatabase { database in
            let server = FakeFeedServer()
            server.serve("https://x.test/f", body: rss(title: "X", count: 3))
            let service = makeService(database, server)
            _ = try await subscribe(service, ["https://x.test/f"])
            let articles = ArticleRepository(database: database)
            #expect(try await articles.updateSearchIndex() == 0)  // the subscription indexed them
            server.serve("https://x.test/f", body: rss(title: "X", prefix: "New", count: 5))
            let events = Mutex<[RefreshEvent]>([])
            let summary = try await service.refresh { event in events.withLock { $0.append(event) } }
            #expect(summary.newItems == 5 && summary.searchIndexFailure == nil)
            #expect(try await articles.updateSearchIndex() == 0)  // the refresh indexed them
            // The progress line hears of the indexing, after the feeds and before the end.
            #expect(events.withLock { Array($0.suffix(2)) } == [.indexing(newItems: 5), .finished(summary)])
            // The refresh leaves an empty write-ahead log for the next process.
            let wal = try FileManager.default.attributesOfItem(atPath: database.path + "-wal")[.size] as? Int
            #expect(wal == 0)
            events.withLock { $0.removeAll() }
            let again = try await service.refresh { event in events.withLock { $0.append(event) } }
            #expect(again.newItems == 0)
            #expect(!events.withLock { $0 }.contains(.indexing(newItems: 0)))
        }
    }

    @Test("an index that cannot be written is reported, and the refresh stores its articles and marks all the same")
    func indexFailureReported() async throws {
        try await withTemporaryDatabase { database in
            let server = FakeFeedServer()
            server.serve("https://x.test/f", body: rss(title: "X", count: 3))
            let service = makeService(database, server)
            let feed = try #require(try await subscribe(service, ["https://x.test/f"]).first)
            // The index file loses the table of its marks (another program, a broken copy): the
            // index writer's next transaction fails, the articles' writer goes on.
            let index = try DatabaseQueue(path: database.path + "-search")
            try await index.write { db in try db.execute(sql: "DROP TABLE searchState") }
            try index.close()
            server.serve("https://x.test/f", body: rss(title: "X", prefix: "New", count: 5))
            let summary = try await service.refresh()
            #expect(summary.newItems == 5 && !summary.storingFailed)
            let failure = try #require(summary.searchIndexFailure)
            #expect(failure.contains("searchState"))
            // The articles, the mark of the refresh's new articles and the feed's state are stored.
            let articles = ArticleRepository(database: database)
            #expect(try await articles.count(matching: ArticleQuery(feedID: feed.id)) == 8)
            let mark = try #require(try await service.lastRefreshMark())
            #expect(try await articles.lastArticleID() == mark + 5)
            #expect(try await service.subscription(id: try #require(feed.id)).lastResult == .ok)
        }
    }

    @Test(
        "an interrupt while the refresh indexes and writes its marks is reported as an interrupt, not as a failure to store; the articles stay, and the next search indexes them"
    )
    func interruptedWhileIndexing() async throws {
        try await withTemporaryDatabase { database in
            let server = FakeFeedServer()
            server.serve("https://x.test/f", body: rss(title: "X", count: 3))
            let service = makeService(database, server)
            _ = try await subscribe(service, ["https://x.test/f"])
            server.serve("https://x.test/f", body: rss(title: "X", prefix: "New", count: 5))
            // Cancelled (as Ctrl-C cancels it) the moment the feeds are done and the index's
            // last batch and the marks begin.
            let summary = try await Task {
                try await service.refresh { event in
                    if case .indexing = event { withUnsafeCurrentTask { $0?.cancel() } }
                }
            }.value
            #expect(summary.cancelled)
            #expect(!summary.storingFailed)
            #expect(summary.searchIndexFailure == nil)
            let articles = ArticleRepository(database: database)
            #expect(try await articles.count(matching: ArticleQuery()) == 8)
            #expect(try await articles.articles(matching: ArticleQuery(search: "New")).count == 5)
        }
    }

    @Test("a refresh told not to index leaves its articles to the first search, which finds them")
    func deferredIndexing() async throws {
        try await withTemporaryDatabase { database in
            let server = FakeFeedServer()
            server.serve("https://x.test/f", body: rss(title: "X", count: 3))
            let service = makeService(database, server, indexesSearch: false)
            _ = try await subscribe(service, ["https://x.test/f"])
            let articles = ArticleRepository(database: database)
            _ = try await articles.updateSearchIndex()
            server.serve("https://x.test/f", body: rss(title: "X", prefix: "New", count: 5))
            let events = Mutex<[RefreshEvent]>([])
            let summary = try await service.refresh { event in events.withLock { $0.append(event) } }
            #expect(summary.newItems == 5 && summary.searchIndexFailure == nil)
            #expect(!events.withLock { $0 }.contains { if case .indexing = $0 { true } else { false } })
            // The five wait for the index (as a search's catch-up would take them), then are found.
            #expect(try await articles.updateSearchIndex() == 5)
            let found = try await articles.articles(matching: ArticleQuery(search: "New"))
            #expect(found.count == 5)
        }
    }
}
