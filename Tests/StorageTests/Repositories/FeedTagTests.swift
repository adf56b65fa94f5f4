import Foundation
import GRDB
import Models
import Testing

@testable import Storage

@Suite("Feed tags")
struct FeedTagTests {
    @Test("a tag takes the tags inside it, not a tag that only starts with its name")
    func prefixMatches() async throws {
        let database = try AppDatabase.inMemory()
        let (a, b, c, d) = (
            try await addFeed(database, "A"), try await addFeed(database, "B"), try await addFeed(database, "C"),
            try await addFeed(database, "D")
        )
        let feeds = FeedRepository(database: database)
        try await feeds.tag([a], with: ["Tech"])
        try await feeds.tag([b], with: ["Tech/Swift"])
        try await feeds.tag([c], with: ["Technology", "Tech0"])
        try await feeds.tag([d], with: ["Tech/Swift/Vapor", "Tech"])
        #expect(try await feeds.feedIDs(taggedWith: "Tech") == [a, b, d])
        #expect(try await feeds.feedIDs(taggedWith: "Tech/Swift") == [b, d])
        let articles = ArticleRepository(database: database)
        for (feed, key) in [(a, "a"), (b, "b"), (c, "c"), (d, "d")] {
            _ = try await articles.merge([article(feed, key)], intoFeed: feed, now: now)
        }
        #expect(try await articles.count(matching: ArticleQuery(tag: "Tech")) == 3)
        #expect(try await articles.articles(matching: ArticleQuery(tag: "Tech"), limit: 10).count == 3)
        #expect(try await articles.count(matching: ArticleQuery(unreadOnly: true, tag: "Tech/Swift")) == 2)
        let summaries = try await feeds.tagSummaries()
        #expect(summaries.map(\.tag) == ["Tech", "Tech/Swift", "Tech/Swift/Vapor", "Tech0", "Technology"])
        // Each feed once: d is tagged Tech and Tech/Swift/Vapor.
        #expect(summaries.first?.feeds == 3 && summaries.first?.counts == ArticleCounts(unread: 3, total: 3))
    }

    @Test("a folder with only sub-folders is listed; untag removes one tag or all; removing a feed removes its tags")
    func lifecycle() async throws {
        let database = try AppDatabase.inMemory()
        let a = try await addFeed(database, "A")
        let feeds = FeedRepository(database: database)
        try await feeds.tag([a], with: ["x/y/z", "solo"])
        #expect(try await feeds.tagSummaries().map(\.tag) == ["solo", "x", "x/y", "x/y/z"])
        #expect(try await feeds.untag([a], tags: ["solo"]) == 1)
        #expect(try await feeds.tagsByFeed() == [a: ["x/y/z"]])
        #expect(try await feeds.untag([a], tags: []) == 1)
        #expect(try await feeds.tagsByFeed().isEmpty)
        try await feeds.tag([a], with: ["again"])
        try await feeds.remove(id: a)
        let rows = try await database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM feedTag") }
        #expect(rows == 0)
        await #expect(throws: StorageError.notFound(entity: "feed", id: 99)) {
            try await feeds.tag([99], with: ["t"])
        }
    }

    @Test("placements come in the order the list gave them, top-level places included; hand-added feeds last")
    func placementOrder() async throws {
        let database = try AppDatabase.inMemory()
        let feeds = FeedRepository(database: database)
        func source(_ name: String) -> FeedSource {
            FeedSource(url: URL(string: "https://\(name).test/f")!, title: name)
        }
        let hand = try await feeds.add(source("hand"))
        _ = try await feeds.addAll([
            (source("top"), [(tag: "", order: 0)]),
            (source("lwn"), [(tag: "Tech", order: 1), (tag: "News", order: 4)]),
            (source("hn"), [(tag: "Tech", order: 2)]),
            (source("town"), [(tag: "News", order: 3)]),
        ])
        let titles = try await Dictionary(uniqueKeysWithValues: feeds.all().map { ($0.id ?? 0, $0.title) })
        let order = try await feeds.placements().map { "\(titles[$0.feedID] ?? "?") \($0.tag)" }
        #expect(order == ["top ", "lwn Tech", "hn Tech", "town News", "lwn News", "hand "])
        #expect(hand.id != nil)
        // Tagging a feed of the top level moves it into the folder.
        let top = try #require(titles.first { $0.value == "top" }?.key)
        try await feeds.tag([top], with: ["Moved"])
        #expect(try await feeds.placements().filter { $0.feedID == top }.map(\.tag) == ["Moved"])
    }
}

@Suite("Article rules in storage")
struct ArticleRuleStorageTests {
    @Test("hiding deletes unstarred articles only, and a merge of the same articles does not bring them back")
    func hideSticks() async throws {
        let database = try AppDatabase.inMemory()
        let feed = try await addFeed(database)
        let articles = ArticleRepository(database: database)
        let incoming = [article(feed, "a"), article(feed, "b"), article(feed, "c")]
        let ids = try await articles.merge(incoming, intoFeed: feed, now: now).inserted
        try await articles.setStarred(true, ids: [ids[1]])
        let rules = RuleRepository(database: database)
        let rule = try await rules.add(ArticleRule(field: .title, pattern: "Article", action: .hide))
        let hidden = try await rules.apply(read: [], hide: ids, caught: [rule.id ?? 0: 3])
        #expect(hidden == 2)
        #expect(try await articles.count(matching: ArticleQuery()) == 1)
        let again = try await articles.merge(incoming, intoFeed: feed, now: now)
        #expect(again.inserted.isEmpty && again.unchanged == 1)
        #expect(try await rules.all().first?.caught == 3)
        #expect(try await articles.count(matching: ArticleQuery()) == 1)
    }
}
