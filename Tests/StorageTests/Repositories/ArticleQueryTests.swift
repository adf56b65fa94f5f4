import Foundation
import GRDB
import Models
import Testing

@testable import Storage

@Suite("Article lists, search and retention")
struct ArticleQueryTests {
    /// Two feeds; feed A has articles 1…5 (1 newest), feed B has 6 and 7.
    func populated() async throws -> (AppDatabase, Int64, Int64, [Int64]) {
        let database = try AppDatabase.inMemory()
        let a = try await addFeed(database, "A")
        let b = try await addFeed(database, "B")
        let articles = ArticleRepository(database: database)
        let ids = try await articles.merge(
            [
                article(a, "1", age: 1, title: "Swift concurrency notes", text: "Actors and tasks"),
                article(a, "2", age: 2, title: "Café culture", text: "Espresso, naïvely"),
                article(a, "3", age: 3, title: "Rust \"ownership\" explained", text: "Borrowing rules"),
                article(a, "4", age: 4, title: "SQLite tips", text: "WAL mode and FTS5 with C++ bindings"),
                article(a, "5", age: 5, title: "Gardening", text: "Tomatoes"),
            ], intoFeed: a, now: now
        ).inserted
        let more = try await articles.merge(
            [article(b, "6", age: 1.5, title: "Swift on Linux"), article(b, "7", age: 6, title: "Old news")],
            intoFeed: b, now: now
        ).inserted
        return (database, a, b, ids + more)
    }

    @Test("lists are newest first and page with limit and offset")
    func newestFirstAndPaging() async throws {
        let (database, a, _, _) = try await populated()
        let articles = ArticleRepository(database: database)
        let titles = try await articles.articles(matching: ArticleQuery()).map { $0.article.title ?? "" }
        #expect(titles.first == "Swift concurrency notes")
        #expect(titles.count == 7)
        let page = try await articles.articles(matching: ArticleQuery(feedID: a), limit: 2, offset: 2)
        #expect(page.map(\.article.uniqueID) == ["guid-3", "guid-4"])
        #expect(try await articles.count(matching: ArticleQuery(feedID: a)) == 5)
    }

    @Test("unread, starred and since filters combine")
    func filters() async throws {
        let (database, a, _, ids) = try await populated()
        let articles = ArticleRepository(database: database)
        try await articles.setRead(true, ids: [ids[0], ids[1]])
        try await articles.setStarred(true, ids: [ids[1], ids[5]])
        #expect(
            try await articles.articles(matching: ArticleQuery(feedID: a, unreadOnly: true)).map(\.id) == [
                ids[2], ids[3], ids[4],
            ])
        #expect(try await articles.articles(matching: ArticleQuery(starredOnly: true)).map(\.id) == [ids[5], ids[1]])
        #expect(
            try await articles.articles(matching: ArticleQuery(since: daysAgo(2.5))).map(\.id) == [
                ids[0], ids[5], ids[1],
            ])
        try await articles.setRead(false, ids: [ids[0]])
        #expect(try await articles.article(id: ids[0])?.status.isRead == false)
    }

    @Test("marking an article that does not exist fails and changes nothing")
    func markMissing() async throws {
        let (database, _, _, ids) = try await populated()
        let articles = ArticleRepository(database: database)
        await #expect(throws: StorageError.notFound(entity: "article", id: 999)) {
            try await articles.setRead(true, ids: [ids[0], 999])
        }
        #expect(try await articles.article(id: ids[0])?.status.isRead == false)
    }

    @Test("full-text search matches title and text, by word prefix, without diacritics")
    func search() async throws {
        let (database, _, _, ids) = try await populated()
        let articles = ArticleRepository(database: database)
        func search(_ text: String) async throws -> [Int64] {
            try await articles.articles(matching: ArticleQuery(search: text)).map(\.id)
        }
        #expect(try await search("swift") == [ids[0], ids[5]])
        #expect(try await search("actors") == [ids[0]])
        #expect(try await search("concur") == [ids[0]])
        #expect(try await search("cafe") == [ids[1]])
        #expect(try await search("naive") == [ids[1]])
        #expect(try await search("swift linux") == [ids[5]])
        #expect(try await search("nothing-matches-this").isEmpty)
    }

    /// Each search, and the articles it finds as indexes into `populated()`'s ids, 7 being the
    /// article of punctuation `searchPunctuation` adds.
    static let punctuationSearches: [(text: String, found: [Int])] = [
        ("\"ownership\"", [2]), ("\"unbalanced", []), ("C++", [3]), ("WAL*", [7]), ("a OR b", [7]), ("NOT", [0, 7]),
        ("(", []), (")", []), ("col:umn", [7]), ("^start", [7]), ("-", [7]), ("'", []), ("AND AND", [0, 3]),
        ("NEAR(a b)", [7]), ("💥", [7]), ("   ", []),
    ]

    @Test(
        "search text with punctuation, quotes and operators matches as text, never as query syntax",
        arguments: punctuationSearches)
    func searchPunctuation(text: String, found: [Int]) async throws {
        let (database, _, b, ids) = try await populated()
        let articles = ArticleRepository(database: database)
        let punctuation = try await articles.merge(
            [article(b, "8", age: 7, title: "Syntax: NEAR(a b), col:umn, ^start, WAL* - 💥", text: "a OR b, NOT this")],
            intoFeed: b, now: now
        ).inserted
        let all = ids + punctuation
        #expect(try await articles.articles(matching: ArticleQuery(search: text)).map(\.id) == found.map { all[$0] })
        #expect(try await articles.count(matching: ArticleQuery(search: text)) == found.count)
    }

    @Test("search treats quotes and operators as words")
    func searchLiteral() async throws {
        let (database, _, _, ids) = try await populated()
        let articles = ArticleRepository(database: database)
        #expect(try await articles.articles(matching: ArticleQuery(search: "\"ownership\"")).map(\.id) == [ids[2]])
        #expect(try await articles.articles(matching: ArticleQuery(search: "C++ bindings")).map(\.id) == [ids[3]])
    }

    @Test("the search index follows updates and deletes")
    func searchFollowsChanges() async throws {
        let (database, a, _, ids) = try await populated()
        let articles = ArticleRepository(database: database)
        _ = try await articles.merge(
            [article(a, "5", age: 5, title: "Beekeeping", text: "Honey")], intoFeed: a, now: now)
        #expect(try await articles.articles(matching: ArticleQuery(search: "tomatoes")).isEmpty)
        #expect(try await articles.articles(matching: ArticleQuery(search: "honey")).map(\.id) == [ids[4]])
        try await FeedRepository(database: database).remove(id: a)
        #expect(try await articles.articles(matching: ArticleQuery(search: "honey")).isEmpty)
        #expect(try await articles.articles(matching: ArticleQuery(search: "swift")).map(\.id) == [ids[5]])
    }

    @Test("retention deletes read, unstarred, old articles and keeps their statuses")
    func retention() async throws {
        let database = try AppDatabase.inMemory()
        let feedID = try await addFeed(database)
        let articles = ArticleRepository(database: database)
        let batch = [
            article(feedID, "old-read", age: 40), article(feedID, "old-starred", age: 40),
            article(feedID, "old-unread", age: 40), article(feedID, "new-read", age: 1),
        ]
        let ids = try await articles.merge(batch, intoFeed: feedID, now: now).inserted
        try await articles.setRead(true, ids: [ids[0], ids[1], ids[3]])
        try await articles.setStarred(true, ids: [ids[1]])

        #expect(try await articles.deleteReadArticles(olderThan: daysAgo(30)) == 1)
        #expect(try await articles.article(id: ids[0]) == nil)
        #expect(try await articles.count(matching: ArticleQuery()) == 3)

        // The feed still lists the deleted article: it comes back read, not as new.
        let again = try await articles.merge(batch, intoFeed: feedID, now: now)
        #expect(again.inserted.count == 1)
        #expect(try await articles.article(id: again.inserted[0])?.status.isRead == true)
        #expect(try await articles.count(matching: ArticleQuery(unreadOnly: true)) == 1)
    }

    @Test("feed counts stay exact through retention: orphaned statuses are never unread")
    func countsAfterRetention() async throws {
        let database = try AppDatabase.inMemory()
        let feedID = try await addFeed(database)
        let articles = ArticleRepository(database: database)
        let ids = try await articles.merge(
            [article(feedID, "a", age: 40), article(feedID, "b", age: 40), article(feedID, "c", age: 1)],
            intoFeed: feedID, now: now
        ).inserted
        try await articles.setRead(true, ids: [ids[0]])
        _ = try await articles.deleteReadArticles(olderThan: daysAgo(30))
        // A deleted article cannot be marked, so its orphaned status stays read.
        await #expect(throws: StorageError.notFound(entity: "article", id: ids[0])) {
            try await articles.setRead(false, ids: [ids[0]])
        }
        let counts = try await FeedRepository(database: database).articleCounts()
        #expect(counts[feedID] == ArticleCounts(unread: 2, total: 2))
        #expect(counts[feedID]?.unread == (try await articles.count(matching: ArticleQuery(unreadOnly: true))))
    }

    @Test("orphaned statuses are pruned only after their own, longer cut-off")
    func statusPruning() async throws {
        let database = try AppDatabase.inMemory()
        let feedID = try await addFeed(database)
        let articles = ArticleRepository(database: database)
        let ids = try await articles.merge(
            [article(feedID, "gone", age: 40), article(feedID, "kept", age: 40)], intoFeed: feedID, now: daysAgo(40)
        ).inserted
        try await articles.setRead(true, ids: [ids[0]])
        _ = try await articles.deleteReadArticles(olderThan: daysAgo(30))
        #expect(try await articles.deleteStatuses(olderThan: daysAgo(90)) == 0)
        #expect(try await articles.deleteStatuses(olderThan: daysAgo(10)) == 1)
        let back = try await articles.merge([article(feedID, "gone", age: 40)], intoFeed: feedID, now: now)
        // Its status is gone, so after the long cut-off it is new again (40 days is within six months).
        #expect(try await articles.article(id: back.inserted[0])?.status.isRead == false)
    }

    @Test("a feed's summary says what its FeedSource and counts say, for every feed, in id order")
    func summaries() async throws {
        let (database, a, _, ids) = try await populated()
        try await ArticleRepository(database: database).setRead(true, ids: [ids[0], ids[5]])
        let feeds = FeedRepository(database: database)
        let empty = try await addFeed(database, "Empty")
        var gone = try #require(try await feeds.feed(id: empty))
        gone.isGone = true
        gone.lastResult = .failed(reason: "HTTP 410")
        gone.lastRefreshedAt = Date(timeIntervalSince1970: 1_800_000_000)
        try await feeds.update(gone)
        var refreshed = try #require(try await feeds.feed(id: a))
        refreshed.lastResult = .ok
        refreshed.lastRefreshedAt = Date(timeIntervalSince1970: 1_800_000_100)
        try await feeds.update(refreshed)

        let counts = try await feeds.articleCounts()
        let expected = try await feeds.all().map { feed in
            FeedSummary(
                id: feed.id ?? 0, title: feed.title, url: feed.url.absoluteString, lastResult: feed.lastResult,
                lastRefreshedAt: feed.lastRefreshedAt, isGone: feed.isGone,
                counts: counts[feed.id ?? 0] ?? ArticleCounts(unread: 0, total: 0))
        }
        let summaries = try await feeds.summaries()
        #expect(summaries == expected)
        #expect(summaries.map(\.id) == summaries.map(\.id).sorted())
        #expect(summaries.last?.isGone == true && summaries.last?.counts == ArticleCounts(unread: 0, total: 0))
        #expect(summaries.first?.counts == ArticleCounts(unread: 4, total: 5))
    }

    @Test("feed counts give unread and total per feed")
    func counts() async throws {
        let (database, a, b, ids) = try await populated()
        try await ArticleRepository(database: database).setRead(true, ids: [ids[0], ids[5]])
        let counts = try await FeedRepository(database: database).articleCounts()
        #expect(counts[a] == ArticleCounts(unread: 4, total: 5))
        #expect(counts[b] == ArticleCounts(unread: 1, total: 2))
    }
}

@Suite("Search index")
struct SearchIndexTests {
    /// FTS5's own consistency check of both indexes (throws when one is corrupt).
    func checkIndex(_ database: AppDatabase) async throws {
        try await checkSearchIndexes(database)
    }

    @Test("merged articles are indexed in bulk, once, and searches catch up first")
    func bulkIndexing() async throws {
        let database = try AppDatabase.inMemory()
        let feedID = try await addFeed(database)
        let articles = ArticleRepository(database: database)
        _ = try await articles.merge(
            (1...30).map { article(feedID, "\($0)", title: "gardening \($0)") }, intoFeed: feedID, now: now)
        #expect(try await articles.updateSearchIndex() == 30)
        #expect(try await articles.updateSearchIndex() == 0)
        _ = try await articles.merge([article(feedID, "31", title: "gardening late")], intoFeed: feedID, now: now)
        // No explicit update: the search brings the index up to date itself.
        #expect(try await articles.count(matching: ArticleQuery(search: "gardening")) == 31)
        try await checkIndex(database)
    }

    @Test("articles changed or deleted before they were indexed leave the index sound")
    func changesBeforeIndexing() async throws {
        let database = try AppDatabase.inMemory()
        let feedID = try await addFeed(database)
        let articles = ArticleRepository(database: database)
        _ = try await articles.merge(
            [article(feedID, "1", title: "apples"), article(feedID, "2", title: "pears")], intoFeed: feedID, now: now)
        _ = try await articles.merge([article(feedID, "1", title: "oranges")], intoFeed: feedID, now: now)
        let other = try await addFeed(database, "Other")
        _ = try await articles.merge([article(other, "3", title: "plums")], intoFeed: other, now: now)
        try await FeedRepository(database: database).remove(id: other)
        #expect(try await articles.count(matching: ArticleQuery(search: "apples")) == 0)
        #expect(try await articles.count(matching: ArticleQuery(search: "oranges")) == 1)
        #expect(try await articles.count(matching: ArticleQuery(search: "plums")) == 0)
        try await checkIndex(database)
    }

    @Test("articles changed or deleted after they were indexed are re-indexed or removed")
    func changesAfterIndexing() async throws {
        let database = try AppDatabase.inMemory()
        let feedID = try await addFeed(database)
        let articles = ArticleRepository(database: database)
        let ids = try await articles.merge(
            [article(feedID, "1", title: "apples"), article(feedID, "2", title: "pears")], intoFeed: feedID, now: now
        ).inserted
        try await articles.updateSearchIndex()
        _ = try await articles.merge([article(feedID, "1", title: "oranges")], intoFeed: feedID, now: now)
        try await articles.setRead(true, ids: [ids[1]])
        _ = try await articles.deleteReadArticles(olderThan: now)
        #expect(try await articles.count(matching: ArticleQuery(search: "apples")) == 0)
        #expect(try await articles.count(matching: ArticleQuery(search: "oranges")) == 1)
        #expect(try await articles.count(matching: ArticleQuery(search: "pears")) == 0)
        try await checkIndex(database)
    }
}

@Suite("Unread and starred pages at scale")
struct StatusListPlanTests {
    /// 5,000 articles of one feed (article i is i seconds old), read except those `unread` picks.
    func database(unread: Set<Int>, counter: StatementCounter) async throws -> (AppDatabase, Int64) {
        let database = try AppDatabase.inMemory(onStatement: counter.record)
        let feedID = try await addFeed(database)
        try await insertArticles(database, feedID: feedID, count: 5_000, newestFirst: true, read: true)
        try await database.write(source: .app) { db in
            for i in unread {
                try db.execute(sql: "UPDATE articleStatus SET isRead = 0 WHERE uniqueId = ?", arguments: ["guid-\(i)"])
            }
        }
        return (database, feedID)
    }

    @Test(
        "a page is the same whichever way it is found, and the plan suits the list",
        arguments: [
            ("dense", Set(stride(from: 3, through: 5_000, by: 3)), "article CROSS JOIN articleStatus"),
            ("sparse", [4_100, 4_700, 4_999], "articleStatus CROSS JOIN article"),
        ] as [(String, Set<Int>, String)])
    func plans(name: String, unread: Set<Int>, plan: String) async throws {
        let counter = StatementCounter()
        let (database, feedID) = try await database(unread: unread, counter: counter)
        let articles = ArticleRepository(database: database)
        let expected = unread.sorted().map { "guid-\($0)" }
        for query in [ArticleQuery(unreadOnly: true), ArticleQuery(feedID: feedID, unreadOnly: true)] {
            for offset in [0, 1, 20] {
                counter.reset()
                let page = try await articles.page(matching: query, limit: 20, offset: offset)
                #expect(page.total == expected.count, "\(name)")
                #expect(
                    page.articles.map(\.article.uniqueID) == Array(expected.dropFirst(offset).prefix(20)), "\(name)")
                #expect(counter.selects.contains { $0.contains(plan) }, "\(name)")
            }
        }
    }
}

@Suite("Reading on through a list: position, order, several feeds")
struct ArticlePositionTests {
    @Test("after a position, a list goes on in its order, ties on the date broken by id, both ways")
    func afterPosition() async throws {
        let database = try AppDatabase.inMemory()
        let feed = try await addFeed(database)
        let articles = ArticleRepository(database: database)
        // Three articles share one date: the id orders them.
        let ids = try await articles.merge(
            [
                article(feed, "a", age: 1), article(feed, "b", age: 2), article(feed, "c", age: 2),
                article(feed, "d", age: 2), article(feed, "e", age: 3),
            ],
            intoFeed: feed, now: now
        ).inserted
        let all = try await articles.articles(matching: ArticleQuery(), limit: 10)
        #expect(all.map(\.article.uniqueID) == ["guid-a", "guid-d", "guid-c", "guid-b", "guid-e"])
        func walk(_ order: ArticleOrder) async throws -> [String] {
            var seen: [String] = []
            var query = ArticleQuery(order: order)
            while let next = try await articles.articles(matching: query, limit: 1).first {
                seen.append(next.article.uniqueID)
                query.after = ArticlePosition(sortDate: next.sortDate, id: next.id)
            }
            return seen
        }
        #expect(try await walk(.newestFirst) == all.map(\.article.uniqueID))
        #expect(try await walk(.oldestFirst) == all.map(\.article.uniqueID).reversed())
        let middle = try #require(all.dropFirst(2).first)
        let after = ArticleQuery(after: ArticlePosition(sortDate: middle.sortDate, id: middle.id))
        #expect(try await articles.count(matching: after) == 2)
        #expect(try await articles.page(matching: after, limit: 10).total == 2)
        #expect(ids.count == 5)
    }

    @Test("several feeds: lists and counts, with and without the status filters")
    func severalFeeds() async throws {
        let database = try AppDatabase.inMemory()
        let (a, b, c) = (
            try await addFeed(database, "A"), try await addFeed(database, "B"), try await addFeed(database, "C")
        )
        let articles = ArticleRepository(database: database)
        for (feed, key) in [(a, "a"), (b, "b"), (c, "c")] {
            _ = try await articles.merge(
                [article(feed, key + "1", age: 1), article(feed, key + "2", age: 2)], intoFeed: feed, now: now)
        }
        let two = ArticleQuery(feedIDs: [a, c])
        #expect(Set(try await articles.articles(matching: two, limit: 10).map(\.article.feedID)) == [a, c])
        #expect(try await articles.count(matching: two) == 4)
        let unread = ArticleQuery(feedIDs: [a, c], unreadOnly: true)
        let first = try #require(try await articles.articles(matching: unread, limit: 1).first)
        try await articles.setRead(true, ids: [first.id])
        #expect(try await articles.count(matching: unread) == 3)
        #expect(try await articles.count(matching: ArticleQuery(feedIDs: [b], since: daysAgo(1.5))) == 1)
    }
}
