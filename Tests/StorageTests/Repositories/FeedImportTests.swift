import Foundation
import Models
import Testing

@testable import Storage

@Suite("Adding many subscriptions at once")
struct FeedImportTests {
    func feed(_ index: Int, title: String? = nil) -> FeedSource {
        FeedSource(url: URL(string: "https://feeds.test/\(index).xml")!, title: title ?? "Feed \(index)")
    }

    @Test("addAll stores new URLs in one transaction, in order, and skips known and repeated ones")
    func addAllInOneTransaction() async throws {
        let database = try AppDatabase.inMemory()
        let repository = FeedRepository(database: database)
        _ = try await repository.add(feed(2))
        let changes = database.changes()
        let added = try await repository.addAll([feed(1), feed(2), feed(3), feed(1, title: "Again"), feed(4)])
        #expect(added.map(\.title) == ["Feed 1", "Feed 3", "Feed 4"])
        #expect(added.allSatisfy { $0.id != nil })
        #expect(try await repository.all().map(\.title) == ["Feed 2", "Feed 1", "Feed 3", "Feed 4"])
        // One commit: one change set with every new feed.
        var iterator = changes.makeAsyncIterator()
        let change = try #require(await iterator.next())
        #expect(change[.feed].inserted == Set(added.compactMap(\.id)))
    }

    @Test("a blank title refuses the whole list; nothing is written")
    func blankTitleRefusesAll() async throws {
        let database = try AppDatabase.inMemory()
        let repository = FeedRepository(database: database)
        await #expect(throws: StorageError.missingField(entity: "feed", field: "title")) {
            _ = try await repository.addAll([feed(1), feed(2, title: "  ")])
        }
        #expect(try await repository.all().isEmpty)
    }

    @Test("updating many saves them in one transaction and leaves out one removed meanwhile")
    func updateManyInOneTransaction() async throws {
        let database = try AppDatabase.inMemory()
        let repository = FeedRepository(database: database)
        var feeds = try await repository.addAll([feed(1), feed(2), feed(3)])
        try await repository.remove(id: try #require(feeds[1].id))
        for index in feeds.indices {
            feeds[index].etag = "\"\(index)\""
            feeds[index].lastResult = .notModified
        }
        let changes = database.changes()
        let saved = try await repository.update(feeds)
        #expect(saved == [try #require(feeds[0].id), try #require(feeds[2].id)])
        let stored = try await repository.all()
        #expect(stored.map(\.etag) == ["\"0\"", "\"2\""])
        #expect(stored.allSatisfy { $0.lastResult == .notModified })
        // One commit: one change set with both updates; the removed feed is not back.
        var iterator = changes.makeAsyncIterator()
        let change = try #require(await iterator.next())
        #expect(change[.feed].updated == saved && change[.feed].inserted.isEmpty)
    }

    @Test("updating many refuses the whole list for one invalid feed, and rolls back at a failed row")
    func updateManyRefusesAll() async throws {
        let database = try AppDatabase.inMemory()
        let repository = FeedRepository(database: database)
        var feeds = try await repository.addAll([feed(1), feed(2)])
        feeds[0].etag = "\"changed\""
        var blank = feeds
        blank[1].title = " "
        await #expect(throws: StorageError.missingField(entity: "feed", field: "title")) {
            try await repository.update(blank)
        }
        #expect(try await repository.all().map(\.etag) == [nil, nil])
        // The second row fails inside the transaction (its URL is the first one's): the first
        // row's update, already made, is rolled back with it.
        var clash = feeds
        clash[1].url = clash[0].url
        await #expect(throws: StorageError.self) { try await repository.update(clash) }
        #expect(try await repository.all().map(\.etag) == [nil, nil])
    }
}

@Suite("Counting a list")
struct ArticleCountTests {
    @Test("every filter's count agrees with its list, also when statuses outlive deleted articles")
    func countsAgreeWithLists() async throws {
        let database = try AppDatabase.inMemory()
        let a = try await addFeed(database, "A")
        let b = try await addFeed(database, "B")
        let articles = ArticleRepository(database: database)
        let idsA = try await articles.merge(
            (1...12).map { article(a, "a\($0)", age: Double($0)) }, intoFeed: a, now: now
        ).inserted
        let idsB = try await articles.merge(
            (1...5).map { article(b, "b\($0)", age: Double($0) + 0.5) }, intoFeed: b, now: now
        ).inserted
        try await articles.setRead(true, ids: Array(idsA.prefix(6)) + [idsB[0]])
        try await articles.setStarred(true, ids: [idsA[0], idsA[7], idsB[1]])
        // Read articles older than 4 days go; their statuses stay behind.
        _ = try await articles.deleteReadArticles(olderThan: now.addingTimeInterval(-4 * 86_400))
        for feedID in [nil, a, b] {
            for unread in [false, true] {
                for starred in [false, true] {
                    for since in [nil, now.addingTimeInterval(-7 * 86_400)] {
                        let query = ArticleQuery(feedID: feedID, unreadOnly: unread, starredOnly: starred, since: since)
                        let listed = try await articles.articles(matching: query, limit: 1_000)
                        #expect(try await articles.count(matching: query) == listed.count, "\(query)")
                        let page = try await articles.page(matching: query, limit: 3, offset: 2)
                        #expect(page.total == listed.count, "\(query)")
                        #expect(page.articles.map(\.id) == Array(listed.dropFirst(2).prefix(3)).map(\.id), "\(query)")
                    }
                }
            }
        }
        #expect(try await articles.count(matching: ArticleQuery(unreadOnly: true)) == 10)
        // A search pages and counts from one sorted list of matches.
        let search = ArticleQuery(search: "body")
        let all = try await articles.articles(matching: search, limit: 1_000)
        let page = try await articles.page(matching: search, limit: 4, offset: 3)
        #expect(page.total == all.count && all.count > 7)
        #expect(page.articles.map(\.id) == Array(all.dropFirst(3).prefix(4)).map(\.id))
        #expect(try await articles.page(matching: search, limit: 4, offset: 1_000).articles.isEmpty)
    }
}
