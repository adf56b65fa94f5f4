import Foundation
import GRDB
import Models
import Synchronization
import Testing

@testable import Storage

@Suite("AppDatabase")
struct AppDatabaseTests {
    @Test("a new file database is created in WAL mode, migrated and usable")
    func createsFile() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("tidings.sqlite").path
        let database = try AppDatabase(path: path)
        #expect(try await ConfigCacheRepository(database: database).load() == nil)
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(try database.integrityCheck() == ["ok"])
    }

    @Test(
        "processes starting on a new file at once all open it: the migrations and the index file's set-up wait for each other"
    )
    func openedAtOnce() throws {
        for _ in 0..<4 {
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let path = directory.appendingPathComponent("tidings.sqlite").path
            // Eight openers on threads of their own (the test's executors have one per core),
            // let go together, each with its own pool, as eight processes would be.
            let failures = Mutex<[String]>([])
            let start = DispatchSemaphore(value: 0)
            let done = DispatchGroup()
            for _ in 0..<8 {
                done.enter()
                Thread {
                    start.wait()
                    do {
                        let database = try AppDatabase(path: path)
                        try database.writer.write { db in
                            try db.execute(sql: "INSERT INTO setting (key, value) VALUES (hex(randomblob(8)), 'x')")
                        }
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                    done.leave()
                }.start()
            }
            for _ in 0..<8 { start.signal() }
            done.wait()
            #expect(failures.withLock { $0 } == [])
            let database = try AppDatabase(path: path)
            #expect(try database.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM setting") } == 8)
            #expect(try database.integrityCheck() == ["ok"])
        }
    }

    @Test("the WAL file outlives the last connection, so the next open writes nothing")
    func persistentWAL() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("tidings.sqlite").path
        do {
            let database = try AppDatabase(path: path)
            _ = try await FeedRepository(database: database).add(
                FeedSource(url: try #require(URL(string: "https://x.test/f")), title: "X"))
        }  // the pool closes here
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int)
        #expect(size > 0)
        let modified = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        let reopened = try AppDatabase(path: path)
        #expect(try await FeedRepository(database: reopened).all().map(\.title) == ["X"])
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date == modified)
    }

    @Test("closing leaves the log to be checkpointed as it grows: no sync of the file on every exit")
    func noCheckpointOnClose() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("tidings.sqlite").path
        _ = try AppDatabase(path: path)  // created, migrated and closed
        _ = try AppDatabase(path: path)  // its mark checkpointed into the file (see init)
        let before = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        do {
            let database = try AppDatabase(path: path)
            let feeds = try (0..<100).map { index in
                FeedSource(
                    url: try #require(URL(string: "https://x.test/\(index)")),
                    title: String(repeating: "x", count: 1_000))
            }
            _ = try await FeedRepository(database: database).addAll(feeds)
        }  // the pool closes here
        // The 100 rows (some 30 pages) are in the log, not yet in the file.
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int == before)
        let reopened = try AppDatabase(path: path)
        #expect(try await FeedRepository(database: reopened).all().count == 100)
    }

    @Test("reopening a file keeps what was committed")
    func reopens() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("tidings.sqlite").path
        let feedID = try await addFeed(try AppDatabase(path: path))
        let reopened = try AppDatabase(path: path)
        #expect(try await FeedRepository(database: reopened).feed(id: feedID)?.title == "Example")
    }

    @Test("a file that is not a database fails with an error naming it, and is left untouched")
    func corruptFile() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("tidings.sqlite")
        let garbage = Data(String(repeating: "this is not sqlite\n", count: 400).utf8)
        try garbage.write(to: url)
        #expect(throws: StorageError.notADatabase(path: url.path)) { try AppDatabase(path: url.path) }
        #expect(StorageError.notADatabase(path: url.path).localizedDescription.contains(url.path))
        #expect(try Data(contentsOf: url) == garbage)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["tidings.sqlite"])
    }

    @Test("another program's SQLite database is refused and left exactly as it was, journal mode included")
    func foreignDatabase() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("tidings.sqlite")
        do {
            let other = try DatabaseQueue(path: url.path)
            try other.write { db in try db.execute(sql: "CREATE TABLE notes(body TEXT); INSERT INTO notes VALUES ('x')")
            }
            try other.close()
        }
        let before = try Data(contentsOf: url)
        #expect(throws: StorageError.notADatabase(path: url.path)) { try AppDatabase(path: url.path) }
        #expect(try Data(contentsOf: url) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["tidings.sqlite"])
        // An empty SQLite file (no tables yet) is Tidings' to set up.
        try FileManager.default.removeItem(at: url)
        try DatabaseQueue(path: url.path).close()
        let fresh = try AppDatabase(path: url.path)
        #expect(fresh.path == url.path)
    }

    /// The `application_id` in the header of the file at `path` (bytes 68-71).
    func applicationID(_ path: String) throws -> UInt32 {
        let header = try Data(contentsOf: URL(fileURLWithPath: path)).prefix(72)
        return header.suffix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }

    @Test(
        "another program's database is refused untouched whatever its journal mode, its mark or its library",
        arguments: [
            "wal", "delete", "marked", "grdb-app", "wal-only", "views-only", "sqlite-like-name", "user-version",
            "look-alike",
        ])
    func foreignDatabaseOfAnyKind(kind: String) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("other.sqlite")
        do {
            let other = try DatabaseQueue(path: url.path)
            if kind == "grdb-app" || kind == "look-alike" {
                // Another GRDB app; a look-alike even has tables named as three of Tidings'.
                let sql =
                    kind == "grdb-app"
                    ? "CREATE TABLE player(name TEXT)"
                    : "CREATE TABLE feed(x); CREATE TABLE article(x); CREATE TABLE task(x)"
                var migrator = DatabaseMigrator()
                migrator.registerMigration("v1") { db in try db.execute(sql: sql) }
                try migrator.migrate(other)
            }
            try other.writeWithoutTransaction { db in
                switch kind {
                case "wal": try db.execute(sql: "PRAGMA journal_mode = WAL; CREATE TABLE notes(body TEXT)")
                case "marked": try db.execute(sql: "PRAGMA application_id = 1234")
                case "grdb-app", "look-alike": try db.execute(sql: "PRAGMA journal_mode = WAL")
                case "views-only": try db.execute(sql: "CREATE VIEW answer AS SELECT 42")
                case "sqlite-like-name":
                    try db.execute(sql: "CREATE TABLE SQLiteCache(x); INSERT INTO SQLiteCache VALUES (1)")
                case "user-version": try db.execute(sql: "PRAGMA user_version = 7")
                default: try db.execute(sql: "CREATE TABLE notes(body TEXT); INSERT INTO notes VALUES ('x')")
                }
            }
            try other.close()
        }
        if kind == "wal-only" {
            // Its tables only in a WAL beside the file: a writer killed before its first
            // checkpoint (copied while the writer is open, as a kill would leave them).
            try FileManager.default.removeItem(at: url)
            let live = directory.appendingPathComponent("live.sqlite")
            let writer = try DatabaseQueue(path: live.path)
            try writer.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0")
                try db.execute(sql: "CREATE TABLE notes(body TEXT); INSERT INTO notes VALUES ('x')")
            }
            try FileManager.default.copyItem(at: live, to: url)
            try FileManager.default.copyItem(atPath: live.path + "-wal", toPath: url.path + "-wal")
            try writer.close()
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: live.path + suffix) }
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        let before = try Data(contentsOf: url)
        #expect(throws: StorageError.notADatabase(path: url.path)) { try AppDatabase(path: url.path) }
        #expect(try Data(contentsOf: url) == before)
        // Reading a WAL needs SQLite's shared-memory index beside it; nothing else appears.
        let after = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(after.filter { kind != "wal-only" || !$0.hasSuffix("-shm") } == files)
    }

    @Test("a first start cut short (GRDB's empty migrations table alone, in a WAL) is Tidings' to finish")
    func firstStartCutShort() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("tidings.sqlite").path
        do {
            let queue = try DatabaseQueue(path: path)
            try await queue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA journal_mode = WAL")
                try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
            }
            try queue.close()
        }
        let database = try AppDatabase(path: path)
        #expect(try await addFeed(database) > 0)
    }

    @Test("Tidings marks its files (application_id); a file from before the mark opens and is marked")
    func applicationIDMark() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("tidings.sqlite").path
        let feedID = try await addFeed(try AppDatabase(path: path))
        #expect(try applicationID(path) == AppDatabase.applicationID)
        // An older Tidings file carries no mark.
        do {
            let queue = try DatabaseQueue(path: path)
            try await queue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA application_id = 0; PRAGMA wal_checkpoint(TRUNCATE)")
            }
            try queue.close()
        }
        #expect(try applicationID(path) == 0)
        let reopened = try AppDatabase(path: path)
        #expect(try await FeedRepository(database: reopened).feed(id: feedID)?.title == "Example")
        #expect(try applicationID(path) == AppDatabase.applicationID)
    }

    @Test("a damaged SQLite file (valid header, garbage pages) is reported, not crashed on")
    func damagedDatabase() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("tidings.sqlite")
        var bytes = Data("SQLite format 3\0".utf8)
        bytes.append(Data(repeating: 0xA5, count: 8192))
        try bytes.write(to: url)
        #expect(throws: StorageError.self) { try AppDatabase(path: url.path) }
    }

    @Test("a missing directory is a clear error")
    func missingDirectory() {
        let path = "/nonexistent-\(UUID().uuidString)/tidings.sqlite"
        #expect(throws: StorageError.self) { try AppDatabase(path: path) }
        do {
            _ = try AppDatabase(path: path)
        } catch {
            #expect(error.localizedDescription.contains("does not exist"))
            #expect(error.localizedDescription.contains(path))
        }
    }

    @Test("a directory that cannot be written is a clear error")
    func unwritableDirectory() {
        // /proc refuses new files even to root, unlike a chmod'ed directory.
        let path = "/proc/tidings-\(UUID().uuidString).sqlite"
        do {
            _ = try AppDatabase(path: path)
            Issue.record("opening \(path) should fail")
        } catch {
            #expect(error.localizedDescription.hasPrefix("cannot open the database \(path)"))
        }
    }

    @Test("a database from a newer schema is refused, never silently opened")
    func newerSchema() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("tidings.sqlite").path
        let database = try AppDatabase(path: path)
        // What a later version leaves: a migration this one does not know, and its schema number.
        try await database.write(source: .app) { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99: from the future')")
            try db.execute(sql: "PRAGMA user_version = \(AppDatabase.schemaVersion + 1)")
        }
        #expect(throws: StorageError.newerSchema(path: path)) { try AppDatabase(path: path) }
    }

    @Test("a file whose migrations all ran says so in its user_version; one from before the number gets it")
    func schemaVersion() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("tidings.sqlite").path
        #expect(AppDatabase.schemaVersion == AppDatabase.migrator.migrations.count)
        func userVersion(_ database: AppDatabase) async throws -> Int? {
            try await database.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") }
        }
        let database = try AppDatabase(path: path)
        #expect(try await userVersion(database) == AppDatabase.schemaVersion)
        // A file an earlier version migrated completely, before it kept the number.
        try await database.write(source: .app) { db in try db.execute(sql: "PRAGMA user_version = 0") }
        let reopened = try AppDatabase(path: path)
        #expect(try await userVersion(reopened) == AppDatabase.schemaVersion)
        // A file an earlier version left one migration short is migrated, then numbered.
        let older = directory.appendingPathComponent("older.sqlite").path
        let queue = try DatabaseQueue(
            path: older, configuration: AppDatabase.configuration(options: .init(), storePath: older, onStatement: nil))
        let migrations = AppDatabase.migrator.migrations
        try AppDatabase.migrator.migrate(queue, upTo: migrations[migrations.count - 2])
        try queue.close()
        let upgraded = try AppDatabase(path: older)
        #expect(try await userVersion(upgraded) == AppDatabase.schemaVersion)
        let applied = try await upgraded.read { db in try AppDatabase.migrator.hasCompletedMigrations(db) }
        #expect(applied)
    }

    @Test("two connections to one file wait for each other instead of failing")
    func busyTimeout() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("tidings.sqlite").path
        let first = try AppDatabase(path: path)
        let secondBegins = WriteStarts()
        let second = try AppDatabase(path: path, onStatement: secondBegins.statement)
        let (lockHeld, lockTaken) = AsyncStream.makeStream(of: Void.self)
        // The first connection takes the write lock and keeps it until the second has started
        // the transaction that needs it (the 60 s only stop a regression from hanging the suite).
        let holding = Task {
            try await first.write(source: .app) { db in
                try db.execute(sql: "INSERT INTO feed (url, title) VALUES ('https://a.example/feed', 'A')")
                lockTaken.yield()
                return secondBegins.semaphore.wait(timeout: .now() + 60) == .success
            }
        }
        _ = await lockHeld.first()
        secondBegins.arm()
        _ = try await addFeed(second, "B")
        #expect(try await holding.value, "the second connection never started its write")
        #expect(try await FeedRepository(database: second).all().count == 2)
    }
}

/// Signals, once armed, each time a connection begins a write transaction (the statement that
/// waits for the write lock).
private final class WriteStarts: Sendable {
    private let armed = Mutex(false)
    let semaphore = DispatchSemaphore(value: 0)

    func arm() { armed.withLock { $0 = true } }

    func statement(_ sql: String) {
        if sql.hasPrefix("BEGIN IMMEDIATE"), armed.withLock({ $0 }) { semaphore.signal() }
    }
}
