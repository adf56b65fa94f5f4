import Foundation
import Models
import Testing

@testable import Storage

@Suite("Article merge")
struct ArticleMergeTests {
    @Test("new articles are inserted with an unread status, in one change set")
    func insertsNew() async throws {
        let database = try AppDatabase.inMemory()
        let feedID = try await addFeed(database)
        let articles = ArticleRepository(database: database)
        let result = try await articles.merge(
            [article(feedID, "1", age: 1), article(feedID, "2", age: 2)], intoFeed: feedID, now: now)
        #expect(result.inserted.count == 2)
        #expect(result.updated.isEmpty && result.unchanged == 0)
        let stored = try await articles.articles(matching: ArticleQuery(feedID: feedID))
        #expect(stored.map(\.article.uniqueID) == ["guid-1", "guid-2"])
        #expect(stored.allSatisfy { !$0.status.isRead && !$0.status.isStarred && $0.status.arrivedAt == now })
        #expect(stored[0].article.authors == [Author(name: "Jo", email: "jo@example.com")])
        #expect(stored[0].article.categories == ["news"])
    }

    @Test("merging the same articles again changes nothing")
    func unchangedIsUntouched() async throws {
        let database = try AppDatabase.inMemory()
        let feedID = try await addFeed(database)
        let articles = ArticleRepository(database: database)
        let batch = (1...20).map { article(feedID, "\($0)") }
        _ = try await articles.merge(batch, intoFeed: feedID, now: now)
        var changes = database.changes().makeAsyncIterator()
        let again = try await articles.merge(batch, intoFeed: feedID, now: now.addingTimeInterval(3600))
        #expect(again == MergeResult(unchanged: 20))
        _ = try await addFeed(database, "Marker")
        #expect(await changes.next()?[.article].isEmpty == true)
    }

    @Test("a changed article is updated in place, keeping its id and status")
    func updatesChanged() async throws {
        let database = try AppDatabase.inMemory()
        let feedID = try await addFeed(database)
        let articles = ArticleRepository(database: database)
        let id = try #require(
            try await articles.merge([article(feedID, "1")], intoFeed: feedID, now: now).inserted.first)
        try await articles.setStarred(true, ids: [id])
        let result = try await articles.merge(
            [article(feedID, "1", title: "Corrected title", text: "New body")], intoFeed: feedID, now: now)
        #expect(result == MergeResult(updated: [id]))
        let stored = try #require(try await articles.article(id: id))
        #expect(stored.article.title == "Corrected title")
        #expect(stored.article.contentText == "New body")
        #expect(stored.status.isStarred)
    }

    @Test("a known date is never replaced by nil")
    func keepsKnownDates() async throws {
        let database = try AppDatabase.inMemory()
        let feedID = try await addFeed(database)
        let articles = ArticleRepository(database: database)
        var first = article(feedID, "1", age: 3)
        first.updated = daysAgo(2)
        let id = try #require(try await articles.merge([first], intoFeed: feedID, now: now).inserted.first)
        var undated = first
        undated.published = nil
        undated.updated = nil
        undated.title = "Retitled"
        _ = try await articles.merge([undated], intoFeed: feedID, now: now)
        let stored = try #require(try await articles.article(id: id))
        #expect(stored.article.title == "Retitled")
        #expect(stored.article.published == daysAgo(3))
        #expect(stored.article.updated == daysAgo(2))
        #expect(stored.sortDate == daysAgo(3))
    }

    @Test("an undated article sorts by when it arrived, and keeps that date")
    func undatedSortsByArrival() async throws {
        let database = try AppDatabase.inMemory()
        let feedID = try await addFeed(database)
        let articles = ArticleRepository(database: database)
        var undated = article(feedID, "1")
        undated.published = nil
        let id = try #require(try await articles.merge([undated], intoFeed: feedID, now: now).inserted.first)
        _ = try await articles.merge([undated], intoFeed: feedID, now: now.addingTimeInterval(86_400))
        #expect(try await articles.article(id: id)?.sortDate == now)
    }

    @Test("articles dated before the cut-off arrive already read")
    func oldArticlesArriveRead() async throws {
        let database = try AppDatabase.inMemory()
        let feedID = try await addFeed(database)
        let articles = ArticleRepository(database: database)
        _ = try await articles.merge(
            [article(feedID, "new", age: 10), article(feedID, "old", age: 200)], intoFeed: feedID, now: now)
        let unread = try await articles.articles(matching: ArticleQuery(feedID: feedID, unreadOnly: true))
        #expect(unread.map(\.article.uniqueID) == ["guid-new"])
        let custom = try await articles.merge(
            [article(feedID, "week", age: 8)], intoFeed: feedID, now: now, unreadCutoff: 7 * 86_400)
        #expect(try await articles.article(id: custom.inserted[0])?.status.isRead == true)
    }

    @Test("unique ids are per feed; a repeat within one batch counts once")
    func uniquePerFeed() async throws {
        let database = try AppDatabase.inMemory()
        let first = try await addFeed(database, "First")
        let second = try await addFeed(database, "Second")
        let articles = ArticleRepository(database: database)
        let a = try await articles.merge(
            [article(first, "same"), article(first, "same", title: "dup")], intoFeed: first, now: now)
        let b = try await articles.merge([article(second, "same")], intoFeed: second, now: now)
        #expect(a.inserted.count == 1 && b.inserted.count == 1)
        #expect(try await articles.article(id: a.inserted[0])?.article.title == "Article same")
        #expect(try await articles.count(matching: ArticleQuery()) == 2)
    }

    @Test("the feed id passed to the merge wins over the articles' own")
    func mergeUsesTargetFeed() async throws {
        let database = try AppDatabase.inMemory()
        let feedID = try await addFeed(database)
        let result = try await ArticleRepository(database: database).merge(
            [article(999, "x")], intoFeed: feedID, now: now)
        #expect(
            try await ArticleRepository(database: database).article(id: result.inserted[0])?.article.feedID == feedID)
    }

    @Test("a blank unique id fails the whole merge with an error naming the field")
    func missingUniqueID() async throws {
        let database = try AppDatabase.inMemory()
        let feedID = try await addFeed(database)
        let articles = ArticleRepository(database: database)
        await #expect(throws: StorageError.missingField(entity: "article", field: "uniqueID")) {
            try await articles.merge([article(feedID, "1"), Article(feedID: feedID, uniqueID: "")], intoFeed: feedID)
        }
        #expect(try await articles.count(matching: ArticleQuery()) == 0)
        await #expect(throws: StorageError.missingField(entity: "article", field: "uniqueID")) {
            try await articles.save(Article(feedID: feedID, uniqueID: "\n"))
        }
    }

    @Test("merging into a feed that does not exist fails and writes nothing")
    func unknownFeed() async throws {
        let database = try AppDatabase.inMemory()
        await #expect(throws: StorageError.notFound(entity: "feed", id: 7)) {
            try await ArticleRepository(database: database).merge([article(7, "1")], intoFeed: 7)
        }
    }

    @Test("save inserts or replaces one article and hands back the stored value")
    func saveOne() async throws {
        let database = try AppDatabase.inMemory()
        let feedID = try await addFeed(database)
        let articles = ArticleRepository(database: database)
        let stored = try await articles.save(article(feedID, "1"), now: now)
        #expect(stored.article.id != nil)
        #expect(!stored.status.isRead)
        let again = try await articles.save(article(feedID, "1", title: "Changed"), now: now)
        #expect(again.id == stored.id)
        #expect(again.article.title == "Changed")
    }

    @Test("text columns round-trip quotes, backslashes and control characters")
    func jsonColumnsRoundTrip() async throws {
        let database = try AppDatabase.inMemory()
        let feedID = try await addFeed(database)
        var tricky = article(feedID, "1")
        tricky.authors = [Author(name: "Jo \"JJ\" O'Neil\\\t\u{1}", email: nil, uri: "https://jo.example/")]
        tricky.categories = ["a,b", "c\"d", "ünïcødé 📰"]
        tricky.enclosures = [
            Enclosure(url: URL(string: "https://cdn.example/a.mp3?x=1&y=2")!, mimeType: "audio/mpeg", length: 42)
        ]
        let stored = try await ArticleRepository(database: database).save(tricky, now: now)
        #expect(stored.article.authors == tricky.authors)
        #expect(stored.article.categories == tricky.categories)
        #expect(stored.article.enclosures == tricky.enclosures)
        #expect(JSONColumn.encode([String]()) == nil)
    }
}
