import Foundation
import GRDB
import Models
import Testing

@testable import Storage

/// Feeds merged while the writer is busy share a transaction (`GroupCommit`), each still whole
/// or nothing.
@Suite("Group commit of feed merges")
struct GroupCommitTests {
    /// Counts the transactions committed on the writer.
    final class Commits: TransactionObserver, @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        var count: Int { lock.withLock { value } }
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
        func databaseDidChange(with event: DatabaseEvent) {}
        func databaseDidCommit(_ db: Database) { lock.withLock { value += 1 } }
        func databaseDidRollback(_ db: Database) {}
    }

    /// Holds the writer until `release()`, so that the merges asked for meanwhile wait together.
    final class Blocker: @unchecked Sendable {
        private let entered = DispatchSemaphore(value: 0)
        private let gate = DispatchSemaphore(value: 0)
        private var task: Task<Void, any Error>?

        init(_ database: AppDatabase) async {
            let entered = self.entered
            let gate = self.gate
            task = Task.detached {
                try await database.write(source: .app) { _ in
                    entered.signal()
                    gate.wait()
                }
            }
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async {
                    entered.wait()
                    done.resume()
                }
            }
        }

        func release() async throws {
            gate.signal()
            try await task?.value
        }
    }

    /// Waits (up to 10 seconds) until `count` merges wait for the writer.
    func waitUntil(_ database: AppDatabase, waiting count: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while database.together.waiting < count {
            try #require(ContinuousClock.now < deadline, "only \(database.together.waiting) of \(count) waiting")
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    func feedState(_ database: AppDatabase, _ id: Int64, etag: String) async throws -> FeedSource {
        var feed = try #require(try await FeedRepository(database: database).feed(id: id))
        feed.etag = etag
        return feed
    }

    @Test("feeds merged while the writer is busy share one transaction, and each gets its own result")
    func shared() async throws {
        let database = try AppDatabase.inMemory()
        let feeds = FeedRepository(database: database)
        var ids: [Int64] = []
        for name in ["One", "Two", "Three", "Four"] { ids.append(try await addFeed(database, name)) }
        var states: [FeedSource] = []
        for (index, id) in ids.enumerated() { states.append(try await feedState(database, id, etag: "e\(index)")) }
        let commits = Commits()
        try await database.writer.write { db in db.add(transactionObserver: commits, extent: .observerLifetime) }
        let before = commits.count
        // (An in-memory database has one connection: nothing reads while the blocker holds it.)
        let blocker = await Blocker(database)
        let merges = try await withThrowingTaskGroup(of: (Int64, MergeResult).self) { group in
            for (index, id) in ids.enumerated() {
                let state = states[index]
                let articles = (0...index).map { article(id, "\(id)-\($0)") }
                group.addTask { (id, try await feeds.update(state, merging: articles, now: now)) }
            }
            try await waitUntil(database, waiting: ids.count)
            #expect(commits.count == before)
            try await blocker.release()
            var merges: [Int64: MergeResult] = [:]
            for try await (id, merge) in group { merges[id] = merge }
            return merges
        }
        // The blocker's transaction, then one for the four merges.
        #expect(commits.count == before + 2)
        for (index, id) in ids.enumerated() {
            #expect(merges[id]?.inserted.count == index + 1)
            #expect(try await feeds.feed(id: id)?.etag == "e\(index)")
            let stored = try await database.read { db in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM article WHERE feedId = ?", arguments: [id])
            }
            #expect(stored == index + 1)
        }
    }

    @Test("a merge that fails in a shared transaction is not stored, and the others are")
    func oneFails() async throws {
        let database = try AppDatabase.inMemory()
        let feeds = FeedRepository(database: database)
        var ids: [Int64] = []
        for name in ["One", "Gone", "Three"] { ids.append(try await addFeed(database, name)) }
        let states = [
            try await feedState(database, ids[0], etag: "e0"), try await feedState(database, ids[1], etag: "e1"),
            try await feedState(database, ids[2], etag: "e2"),
        ]
        // Removed after its refresh began: its merge finds no subscription.
        try await feeds.remove(id: ids[1])
        let blocker = await Blocker(database)
        let outcomes = try await withThrowingTaskGroup(of: (Int, Result<MergeResult, StorageError>).self) { group in
            for (index, state) in states.enumerated() {
                let articles = [article(ids[index], "\(index)-a"), article(ids[index], "\(index)-b")]
                group.addTask {
                    do throws(StorageError) {
                        return (index, .success(try await feeds.update(state, merging: articles, now: now)))
                    } catch {
                        return (index, .failure(error))
                    }
                }
            }
            try await waitUntil(database, waiting: states.count)
            try await blocker.release()
            var outcomes: [Int: Result<MergeResult, StorageError>] = [:]
            for try await (index, outcome) in group { outcomes[index] = outcome }
            return outcomes
        }
        #expect(try outcomes[0]?.get().inserted.count == 2)
        #expect(try outcomes[2]?.get().inserted.count == 2)
        guard case .failure(.notFound(let entity, let id))? = outcomes[1] else {
            Issue.record("the merge into a removed feed did not fail with notFound: \(String(describing: outcomes[1]))")
            return
        }
        #expect(entity == "feed" && id == ids[1])
        #expect(try await feeds.feed(id: ids[0])?.etag == "e0")
        #expect(try await feeds.feed(id: ids[2])?.etag == "e2")
        let stored = try await database.read { db in
            try String.fetchAll(db, sql: "SELECT uniqueId FROM article ORDER BY uniqueId")
        }
        #expect(stored == ["guid-0-a", "guid-0-b", "guid-2-a", "guid-2-b"])
    }
}
