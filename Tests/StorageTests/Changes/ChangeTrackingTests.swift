import Foundation
import GRDB
import Models
import Testing

@testable import Storage

@Suite("Change notifications")
struct ChangeTrackingTests {
    @Test("each commit delivers inserted, updated and deleted ids per entity with its source")
    func insertedUpdatedDeleted() async throws {
        let database = try AppDatabase.inMemory()
        let feeds = FeedRepository(database: database)
        var changes = database.changes().makeAsyncIterator()

        let feed = try await feeds.add(
            FeedSource(url: URL(string: "https://a.example/feed")!, title: "A"), source: .user)
        let id = try #require(feed.id)
        let inserted = try #require(await changes.next())
        #expect(inserted.source == .user)
        #expect(inserted[.feed] == EntityChanges(inserted: [id]))
        #expect(inserted[.article].isEmpty)

        var renamed = feed
        renamed.title = "A, renamed"
        try await feeds.update(renamed, source: .app)
        let updated = try #require(await changes.next())
        #expect(updated.source == .app)
        #expect(updated[.feed] == EntityChanges(updated: [id]))

        try await feeds.remove(id: id)
        #expect(try #require(await changes.next())[.feed] == EntityChanges(deleted: [id]))
    }

    @Test("one transaction is one change set; insert-then-update is an insert")
    func oneTransactionOneSet() async throws {
        let database = try AppDatabase.inMemory()
        let feedID = try await addFeed(database)
        var changes = database.changes().makeAsyncIterator()
        let result = try await ArticleRepository(database: database).merge(
            [article(feedID, "1"), article(feedID, "2"), article(feedID, "3")], intoFeed: feedID, now: now)
        let set = try #require(await changes.next())
        #expect(set[.article].inserted == Set(result.inserted))
        #expect(set[.article].updated.isEmpty)
        #expect(result.inserted.count == 3)

        try await database.write(source: .app) { db in
            try db.execute(sql: "INSERT INTO feed (url, title) VALUES ('https://x.example/', 'X')")
            try db.execute(sql: "UPDATE feed SET title = 'Y' WHERE url = 'https://x.example/'")
        }
        let combined = try #require(await changes.next())
        #expect(combined[.feed].inserted.count == 1)
        #expect(combined[.feed].updated.isEmpty)
    }

    @Test("a rolled-back transaction notifies nobody")
    func rollbackNotifiesNobody() async throws {
        let database = try AppDatabase.inMemory()
        let feedID = try await addFeed(database)
        var changes = database.changes().makeAsyncIterator()
        let articles = ArticleRepository(database: database)
        // The third article has no unique id: validation fails before anything is written.
        await #expect(throws: StorageError.self) {
            try await articles.merge([article(feedID, "1"), Article(feedID: feedID, uniqueID: " ")], intoFeed: feedID)
        }
        // A failure inside the transaction rolls back what it had already written.
        await #expect(throws: StorageError.self) {
            try await database.write(source: .app) { db in
                try db.execute(sql: "INSERT INTO feed (url, title) VALUES ('https://rolled.back/', 'R')")
                throw StorageError.duplicate("test")
            }
        }
        _ = try await addFeed(database, "After")
        let next = try #require(await changes.next())
        #expect(next[.feed].inserted.count == 1)
        #expect(try await FeedRepository(database: database).feed(url: URL(string: "https://rolled.back/")!) == nil)
        #expect(try await articles.count(matching: ArticleQuery()) == 0)
    }

    @Test("subscribers can take one source only, or everything but one source")
    func filters() async throws {
        let database = try AppDatabase.inMemory()
        let refresh = ChangeSource("feed-refresh")
        var all = database.changes(.all).makeAsyncIterator()
        var onlyRefresh = database.changes(.only(refresh)).makeAsyncIterator()
        var notRefresh = database.changes(.excluding(refresh)).makeAsyncIterator()
        let feeds = FeedRepository(database: database)

        _ = try await feeds.add(FeedSource(url: URL(string: "https://1.example/")!, title: "1"), source: .user)
        _ = try await feeds.add(FeedSource(url: URL(string: "https://2.example/")!, title: "2"), source: refresh)

        #expect(await all.next()?.source == .user)
        #expect(await all.next()?.source == refresh)
        #expect(await onlyRefresh.next()?.source == refresh)
        #expect(await notRefresh.next()?.source == .user)
    }

    @Test("every subscriber gets its own copy of each change set")
    func manySubscribers() async throws {
        let database = try AppDatabase.inMemory()
        let streams = (0..<5).map { _ in database.changes() }
        let feedID = try await addFeed(database)
        for stream in streams {
            #expect(await stream.first()?[.feed].inserted == [feedID])
        }
    }

    @Test("deleting a feed reports its articles deleted too (cascade)")
    func cascadeDeletes() async throws {
        let database = try AppDatabase.inMemory()
        let feedID = try await addFeed(database)
        let merged = try await ArticleRepository(database: database).merge(
            [article(feedID, "1"), article(feedID, "2")], intoFeed: feedID, now: now)
        var changes = database.changes().makeAsyncIterator()
        try await FeedRepository(database: database).remove(id: feedID)
        let set = try #require(await changes.next())
        #expect(set[.feed].deleted == [feedID])
        #expect(set[.article].deleted == Set(merged.inserted))
    }

    @Test("marking read or starred reports the article as updated")
    func statusChangesAreArticleUpdates() async throws {
        let database = try AppDatabase.inMemory()
        let feedID = try await addFeed(database)
        let articles = ArticleRepository(database: database)
        let ids = try await articles.merge([article(feedID, "1"), article(feedID, "2")], intoFeed: feedID, now: now)
            .inserted
        var changes = database.changes().makeAsyncIterator()
        try await articles.setRead(true, ids: [ids[0]])
        #expect(await changes.next()?[.article] == EntityChanges(updated: [ids[0]]))
        try await articles.setStarred(true, ids: ids)
        #expect(await changes.next()?[.article] == EntityChanges(updated: Set(ids)))
        // Marking again what is already so changes nothing, and reports nothing.
        try await articles.setRead(true, ids: [ids[0]])
        _ = try await articles.markAllRead(feedID: feedID)
        #expect(await changes.next()?[.article] == EntityChanges(updated: [ids[1]]))
    }

    @Test("observing one object yields it, its fresh value on each update, and nil once on delete")
    func observeObject() async throws {
        let database = try AppDatabase.inMemory()
        let feeds = FeedRepository(database: database)
        let feed = try await feeds.add(FeedSource(url: URL(string: "https://o.example/")!, title: "Before"))
        let id = try #require(feed.id)
        var values = feeds.observe(id: id).makeAsyncIterator()
        #expect(await values.next()??.title == "Before")

        var renamed = feed
        renamed.title = "After"
        try await feeds.update(renamed)
        // Another feed's change is not this object's business.
        _ = try await addFeed(database, "Other")
        try await feeds.remove(id: id)

        var seen: [String?] = []
        while let value = await values.next() { seen.append(value?.title) }
        #expect(seen == ["After", nil] || seen == ["After", "After", nil])
    }

    @Test("observing an article sees writes from another repository instance and its status")
    func observeAcrossWriters() async throws {
        let database = try AppDatabase.inMemory()
        let feedID = try await addFeed(database)
        let id = try #require(
            try await ArticleRepository(database: database).merge([article(feedID, "1")], intoFeed: feedID, now: now)
                .inserted.first)
        var values = ArticleRepository(database: database).observe(id: id).makeAsyncIterator()
        #expect(await values.next()??.status.isRead == false)
        try await ArticleRepository(database: database).setRead(true, ids: [id])
        #expect(await values.next()??.status.isRead == true)
    }

    @Test("observing a missing object yields nil and ends")
    func observeMissing() async throws {
        let database = try AppDatabase.inMemory()
        var values = TaskRepository(database: database).observe(id: 42).makeAsyncIterator()
        #expect(await values.next() == .some(nil))
        #expect(await values.next() == nil)
    }

    @Test("observing an entity yields only the transactions that touched it")
    func observeEntity() async throws {
        let database = try AppDatabase.inMemory()
        var taskChanges = database.changes(of: .task).makeAsyncIterator()
        _ = try await addFeed(database)
        let task = try await TaskRepository(database: database).save(
            HouseholdTask(name: "Bins", createdAt: now))
        #expect(await taskChanges.next() == EntityChanges(inserted: [try #require(task.id)]))
    }
}
