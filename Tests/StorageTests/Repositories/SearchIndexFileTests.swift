import Foundation
import GRDB
import Models
import Testing

@testable import Storage

/// The search indexes in a file of their own, written by a writer of their own (see
/// `SearchIndexFile`).
@Suite("The search index file")
struct SearchIndexFileTests {
    func search(_ database: AppDatabase, _ text: String) async throws -> [String] {
        try await ArticleRepository(database: database).articles(matching: ArticleQuery(search: text))
            .map(\.article.uniqueID).sorted()
    }

    func queued(_ database: AppDatabase) async throws -> Int {
        try await database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM articleSearchQueue") ?? 0 }
    }

    @Test(
        "the index lives beside the articles' file, private to the user and marked as Tidings', and the articles' file holds none of it"
    )
    func ownFile() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("tidings.sqlite").path
        let database = try AppDatabase(path: path)
        let feed = try await addFeed(database)
        _ = try await ArticleRepository(database: database).merge(
            [article(feed, "a", title: "Swift actors"), article(feed, "b", title: "Rust traits")], intoFeed: feed,
            now: now)
        #expect(try await search(database, "actors") == ["guid-a"])
        let index = path + "-search"
        let mode = try FileManager.default.attributesOfItem(atPath: index)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let main = try await database.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM main.sqlite_master WHERE name GLOB 'articleS[eu][ab]*'")
        }
        #expect(Set(main) == ["articleSearchQueue", "articleSearchIndexFile"])
        let header = try #require(try FileHandle(forReadingAtPath: index)?.read(upToCount: 72))
        #expect(header[68..<72].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } == SearchIndexFile.applicationID)
        #expect(try database.searchIntegrityCheck() == ["ok"])
    }

    @Test(
        "an index file whose setting-up a kill cut short (in WAL, a rollback journal left beside it) is set up again: the store opens and searches"
    )
    func interruptedSetUp() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("tidings.sqlite").path
        let index = path + "-search"
        // What a `feed add` killed while switching a new index file to WAL left (seen by the
        // interrupted-add test): an empty articles' file, the index file switched, and the
        // switch's rollback journal, its header only, not yet deleted.
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let queue = try DatabaseQueue(path: index)
        try await queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
        try queue.close()
        var journal = Data([
            0xD9, 0xD5, 0x05, 0xF9, 0x20, 0xA1, 0x63, 0xD7, 0, 0, 0, 0, 0x86, 0x9C, 0x6F, 0xF6, 0, 0, 0, 0, 0, 0, 0x02,
            0, 0, 0, 0x10, 0,
        ])
        journal.append(Data(count: 512 - journal.count))
        #expect(FileManager.default.createFile(atPath: index + "-journal", contents: journal))
        let database = try AppDatabase(path: path)
        let feed = try await addFeed(database)
        _ = try await ArticleRepository(database: database).merge(
            [article(feed, "a", title: "Swift actors")], intoFeed: feed, now: now)
        #expect(try await search(database, "actors") == ["guid-a"])
        #expect(try database.searchIntegrityCheck() == ["ok"])
        #expect(!FileManager.default.fileExists(atPath: index + "-journal"))
    }

    @Test(
        "an article changed twice, one changed before it was indexed, and one deleted reach the index through the queue, which empties"
    )
    func queuedChanges() async throws {
        let database = try AppDatabase.inMemory()
        let articles = ArticleRepository(database: database)
        let feed = try await addFeed(database)
        _ = try await articles.merge(
            [
                article(feed, "a", title: "alpha", text: "original words"),
                article(feed, "b", title: "beta", text: "doomed words"),
            ], intoFeed: feed, now: now)
        _ = try await articles.updateSearchIndex()
        #expect(try await search(database, "original") == ["guid-a"])
        // Changed twice before the index takes them: the index holds the first text only.
        _ = try await articles.merge([article(feed, "a", title: "alpha", text: "second draft")], intoFeed: feed, now: now)
        _ = try await articles.merge([article(feed, "a", title: "alpha", text: "final cut")], intoFeed: feed, now: now)
        // New and changed before it was ever indexed.
        _ = try await articles.merge([article(feed, "c", title: "gamma", text: "early")], intoFeed: feed, now: now)
        _ = try await articles.merge([article(feed, "c", title: "gamma", text: "later")], intoFeed: feed, now: now)
        // (Found without a search: a search takes the queue first.)
        let doomed = try #require(
            try await database.read { db in
                try Int64.fetchOne(db, sql: "SELECT id FROM article WHERE uniqueId = 'guid-b'")
            })
        try await database.write(source: .app) { db in
            try db.execute(sql: "DELETE FROM articleStatus WHERE uniqueId = 'guid-b'")
            try db.execute(sql: "DELETE FROM article WHERE id = ?", arguments: [doomed])
        }
        let pending = try await database.read { db in
            try Row.fetchAll(db, sql: "SELECT articleId, body, reindex FROM articleSearchQueue ORDER BY seq")
                .map { "\($0[0] as Int64):\($0[1] as String):\($0[2] as Int)" }
        }
        #expect(pending.count == 4, "\(pending)")
        #expect(try await search(database, "final") == ["guid-a"])
        #expect(try await search(database, "original").isEmpty)
        #expect(try await search(database, "draft").isEmpty)
        #expect(try await search(database, "later") == ["guid-c"])
        #expect(try await search(database, "early").isEmpty)
        #expect(try await search(database, "words").isEmpty)
        #expect(try await queued(database) == 0)
        #expect(try database.searchIntegrityCheck() == ["ok"])
    }

    @Test(
        "an index file that is missing, not SQLite, or built for another articles' file is built again from the articles"
    )
    func rebuilt() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("tidings.sqlite").path
        let other = directory.appendingPathComponent("other.sqlite").path
        do {
            let database = try AppDatabase(path: path)
            let feed = try await addFeed(database)
            _ = try await ArticleRepository(database: database).merge(
                [article(feed, "mine", title: "pelican")], intoFeed: feed, now: now)
            #expect(try await search(database, "pelican") == ["guid-mine"])
            let elsewhere = try AppDatabase(path: other)
            let theirs = try await addFeed(elsewhere)
            _ = try await ArticleRepository(database: elsewhere).merge(
                [article(theirs, "theirs", title: "walrus"), article(theirs, "more", title: "walrus two")],
                intoFeed: theirs, now: now)
            #expect(try await search(elsewhere, "walrus").count == 2)
        }
        let index = path + "-search"
        let replacements: [(String, () throws -> Void)] = [
            ("another file's index", {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: index + suffix) }
                try FileManager.default.copyItem(atPath: other + "-search", toPath: index)
            }),
            ("garbage", {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: index + suffix) }
                try Data(repeating: 0x5A, count: 9000).write(to: URL(fileURLWithPath: index))
            }),
            ("nothing", {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: index + suffix) }
            }),
        ]
        for (name, replace) in replacements {
            try replace()
            let database = try AppDatabase(path: path)
            #expect(try await search(database, "pelican") == ["guid-mine"], "\(name)")
            #expect(try await search(database, "walrus").isEmpty, "\(name)")
            #expect(try database.searchIntegrityCheck() == ["ok"], "\(name)")
        }
    }

    @Test("the index's writer and the articles' writer never wait for each other")
    func writersApart() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("tidings.sqlite").path
        let database = try AppDatabase(path: path, options: .init(busyTimeout: .seconds(30)))
        let articles = ArticleRepository(database: database)
        let feed = try await addFeed(database)
        _ = try await articles.merge(
            (0..<50).map { article(feed, "a\($0)", title: "heron \($0)") }, intoFeed: feed, now: now)
        // An articles' transaction held open (as a long merge holds it) while the index is built.
        let (held, hold) = AsyncStream.makeStream(of: Void.self)
        let (released, release) = AsyncStream.makeStream(of: Void.self)
        let merge = Task {
            try await database.write(source: .app) { db in
                try db.execute(sql: "UPDATE feed SET title = 'Held' WHERE id = ?", arguments: [feed])
                hold.yield()
                // Blocks the writer's thread until the index is built (bounded by the test's wait).
                let semaphore = DispatchSemaphore(value: 0)
                Task {
                    _ = await released.first()
                    semaphore.signal()
                }
                _ = semaphore.wait(timeout: .now() + 60)
            }
        }
        _ = await held.first()
        let clock = ContinuousClock()
        let start = clock.now
        #expect(try await articles.updateSearchIndex() == 50)
        #expect(clock.now - start < .seconds(20), "the index waited for the articles' writer")
        release.yield()
        try await merge.value
        // And the other way: an index transaction held open while articles merge.
        let (indexHeld, holdIndex) = AsyncStream.makeStream(of: Void.self)
        let (indexReleased, indexRelease) = AsyncStream.makeStream(of: Void.self)
        let indexing = Task {
            try await database.writeSearchIndex { db in
                try db.execute(sql: "UPDATE searchState SET appliedSeq = appliedSeq")
                holdIndex.yield()
                let semaphore = DispatchSemaphore(value: 0)
                Task {
                    _ = await indexReleased.first()
                    semaphore.signal()
                }
                _ = semaphore.wait(timeout: .now() + 60)
            }
        }
        _ = await indexHeld.first()
        let mergeStart = clock.now
        _ = try await articles.merge([article(feed, "late", title: "egret")], intoFeed: feed, now: now)
        #expect(clock.now - mergeStart < .seconds(20), "the merge waited for the index's writer")
        indexRelease.yield()
        try await indexing.value
        #expect(try await search(database, "egret") == ["guid-late"])
    }
}
