import Foundation
import Models
import Testing

@testable import Storage

@Suite("Task repository")
struct TaskRepositoryTests {
    func task(_ name: String, due: Double? = nil, every frequency: Frequency? = nil) -> HouseholdTask {
        HouseholdTask(
            name: name, dueDate: due.map { now.addingTimeInterval($0 * 86_400) }, frequency: frequency, createdAt: now)
    }

    @Test("a saved task comes back with an id and every field")
    func saveAndFetch() async throws {
        let tasks = TaskRepository(database: try AppDatabase.inMemory())
        var new = task("Take out the bins", due: 1, every: try Frequency(count: 1, unit: .week))
        new.note = "blue bin"
        let saved = try await tasks.save(new)
        let id = try #require(saved.id)
        var expected = new
        expected.id = id
        #expect(try await tasks.task(id: id) == expected)
    }

    @Test("the caller of a background save receives the validation error naming the field")
    func saveResultReachesCaller() async throws {
        let tasks = TaskRepository(database: try AppDatabase.inMemory())
        let result = await Task { try await tasks.save(task("   ")) }.result
        #expect(throws: StorageError.missingField(entity: "task", field: "name")) { try result.get() }
        #expect(try await tasks.tasks(.all).isEmpty)
        let success = await Task { try await tasks.save(task("Water the plants")) }.result
        #expect(try success.get().id != nil)
    }

    @Test("updating a task that does not exist fails")
    func updateMissing() async throws {
        let tasks = TaskRepository(database: try AppDatabase.inMemory())
        var ghost = task("Ghost")
        ghost.id = 41
        await #expect(throws: StorageError.notFound(entity: "task", id: 41)) { try await tasks.save(ghost) }
        await #expect(throws: StorageError.notFound(entity: "task", id: 41)) { try await tasks.delete(id: 41) }
    }

    @Test("lists: open by due date with undated last, done, overdue, due in a range")
    func filters() async throws {
        let tasks = TaskRepository(database: try AppDatabase.inMemory())
        let undated = try await tasks.save(task("Someday"))
        let later = try await tasks.save(task("Later", due: 5))
        let overdue = try await tasks.save(task("Overdue", due: -2))
        let today = try await tasks.save(task("Today", due: 0))
        var done = try await tasks.save(task("Done", due: -1))
        done.isDone = true
        done = try await tasks.save(done)

        #expect(try await tasks.tasks(.open).map(\.name) == ["Overdue", "Today", "Later", "Someday"])
        #expect(try await tasks.tasks(.done).map(\.id) == [done.id])
        #expect(try await tasks.tasks(.all).map(\.name) == ["Overdue", "Today", "Later", "Someday", "Done"])
        #expect(try await tasks.tasks(.dueBefore(now)).map(\.id) == [overdue.id])
        #expect(try await tasks.tasks(.dueBetween(now, now.addingTimeInterval(86_400))).map(\.id) == [today.id])
        _ = (undated, later)
    }

    @Test("completing records the completion and saves the moved due date in one transaction")
    func complete() async throws {
        let database = try AppDatabase.inMemory()
        let tasks = TaskRepository(database: database)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let saved = try await tasks.save(task("Bins", due: 0, every: try Frequency(count: 1, unit: .week)))
        var changes = database.changes().makeAsyncIterator()
        let (next, completion) = saved.completed(at: now, calendar: calendar)
        let stored = try await tasks.complete(next, completion: completion)
        #expect(stored.dueDate == now.addingTimeInterval(7 * 86_400))
        #expect(try await tasks.completions(taskID: try #require(saved.id)) == [completion])
        #expect(await changes.next()?[.task] == EntityChanges(updated: [try #require(saved.id)]))
    }

    @Test("deleting a task deletes its completions")
    func deleteCascades() async throws {
        let tasks = TaskRepository(database: try AppDatabase.inMemory())
        let saved = try await tasks.save(task("Once", due: 0))
        let id = try #require(saved.id)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let (next, completion) = saved.completed(at: now, calendar: calendar)
        _ = try await tasks.complete(next, completion: completion)
        try await tasks.delete(id: id)
        #expect(try await tasks.task(id: id) == nil)
        #expect(try await tasks.completions(taskID: id).isEmpty)
    }

    @Test("a task linked to an article loses the link when the article goes")
    func articleLink() async throws {
        let database = try AppDatabase.inMemory()
        let feedID = try await addFeed(database)
        let articleID = try #require(
            try await ArticleRepository(database: database).merge([article(feedID, "1")], intoFeed: feedID, now: now)
                .inserted.first)
        var readLater = task("Read: Article 1")
        readLater.articleID = articleID
        let saved = try await TaskRepository(database: database).save(readLater)
        try await FeedRepository(database: database).remove(id: feedID)
        #expect(try await TaskRepository(database: database).task(id: try #require(saved.id))?.articleID == nil)
    }
}

@Suite("Feed and cache repositories")
struct FeedAndCacheRepositoryTests {
    @Test("a URL can be subscribed once; a blank title is refused")
    func feedRules() async throws {
        let feeds = FeedRepository(database: try AppDatabase.inMemory())
        let url = URL(string: "https://a.example/feed")!
        _ = try await feeds.add(FeedSource(url: url, title: "A"))
        await #expect(throws: StorageError.duplicate("a subscription to https://a.example/feed")) {
            try await feeds.add(FeedSource(url: url, title: "Again"))
        }
        await #expect(throws: StorageError.missingField(entity: "feed", field: "title")) {
            try await feeds.add(FeedSource(url: URL(string: "https://b.example/")!, title: " "))
        }
    }

    @Test("validators, hash and last result survive a round trip")
    func feedFields() async throws {
        let feeds = FeedRepository(database: try AppDatabase.inMemory())
        var feed = try await feeds.add(FeedSource(url: URL(string: "https://a.example/feed")!, title: "A"))
        feed.etag = "\"v2\""
        feed.lastModified = "Sat, 13 Mar 2021 09:00:00 GMT"
        feed.contentHash = "abc123"
        feed.format = .atom10
        feed.homePageURL = URL(string: "https://a.example/")
        feed.lastResult = .failed(reason: "HTTP 500")
        feed.lastRefreshedAt = now
        try await feeds.update(feed)
        #expect(try await feeds.feed(id: try #require(feed.id)) == feed)
        #expect(try await feeds.feed(url: feed.url) == feed)
        #expect(try await feeds.all() == [feed])
    }

    @Test("the config cache keeps one document")
    func configCache() async throws {
        let cache = ConfigCacheRepository(database: try AppDatabase.inMemory())
        let first = CachedDocument(body: Data("1".utf8), fetchedAt: now)
        let second = CachedDocument(
            body: Data("2".utf8), etag: "e", lastModified: "m", fetchedAt: now.addingTimeInterval(1),
            sourceURL: "https://config.example/tidings.json")
        try await cache.save(first)
        try await cache.save(second)
        #expect(try await cache.load() == second)
        // The last refresh attempt is kept beside it, one at a time.
        #expect(try await cache.lastAttempt() == nil)
        try await cache.saveAttempt(at: now, result: "failed: a")
        try await cache.saveAttempt(at: now.addingTimeInterval(5), result: "not modified")
        let attempt = try await cache.lastAttempt()
        #expect(attempt?.at == now.addingTimeInterval(5) && attempt?.result == "not modified")
        #expect(try await cache.load() == second)
    }

}
