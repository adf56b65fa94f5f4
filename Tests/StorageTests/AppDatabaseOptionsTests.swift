import Foundation
import GRDB
import Models
import Testing

@testable import Storage

@Suite("AppDatabase options")
struct AppDatabaseOptionsTests {
    @Test("read-only: reads work, writes fail with a storage error, and the file is not changed")
    func readOnly() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("tidings.sqlite").path
        let feedID = try await addFeed(try AppDatabase(path: path))
        let before = try Data(contentsOf: URL(fileURLWithPath: path))

        let database = try AppDatabase(path: path, options: .init(readOnly: true))
        #expect(try await FeedRepository(database: database).feed(id: feedID)?.title == "Example")
        await #expect(throws: StorageError.self) { _ = try await addFeed(database, "Refused") }
        #expect(try await FeedRepository(database: database).all().count == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("read-only refuses a missing file and a file that needs a migration, in words")
    func readOnlyRefusals() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appendingPathComponent("none.sqlite").path
        #expect(throws: StorageError.cannotOpen(path: missing, reason: "there is no database to open read-only")) {
            try AppDatabase(path: missing, options: .init(readOnly: true))
        }
        #expect(!FileManager.default.fileExists(atPath: missing))

        let old = directory.appendingPathComponent("old.sqlite").path
        let queue = try DatabaseQueue(path: old)
        try AppDatabase.migrator.migrate(queue, upTo: "v5-config-source")
        try queue.close()
        do {
            _ = try AppDatabase(path: old, options: .init(readOnly: true))
            Issue.record("a file that needs a migration was opened read-only")
        } catch {
            guard case .cannotOpen(let path, let reason) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(path == old && reason.contains("needs an upgrade"))
        }
        // Opened read-write, the same file is migrated.
        _ = try AppDatabase(path: old)
    }

    @Test("the busy timeout bounds the wait for another connection's write lock")
    func busyTimeout() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("tidings.sqlite").path
        _ = try AppDatabase(path: path)
        // Another process's writer, holding the lock until told to let go.
        var unsafe = Configuration()
        unsafe.allowsUnsafeTransactions = true
        let other = try DatabaseQueue(path: path, configuration: unsafe)
        try await other.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        let impatient = try AppDatabase(path: path, options: .init(busyTimeout: .zero))
        do {
            _ = try await addFeed(impatient, "Blocked")
            Issue.record("a write went through while another connection held the lock")
        } catch let error as StorageError {
            #expect(error.errorDescription?.contains("locked") == true, "\(error)")
        }
        // The timeout each connection was given, read from SQLite rather than timed (a timed
        // bound failed on a loaded machine): zero here, five seconds by default.
        func busyTimeout(_ database: AppDatabase) async throws -> Int? {
            try await database.writer.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA busy_timeout") }
        }
        #expect(try await busyTimeout(impatient) == 0)
        let patient = try AppDatabase(path: directory.appendingPathComponent("other.sqlite").path)
        #expect(try await busyTimeout(patient) == 5_000)
        try await other.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
        _ = try await addFeed(impatient, "Free")
        #expect(try await FeedRepository(database: impatient).all().map(\.title) == ["Free"])
    }
}

@Suite("Data version")
struct DataVersionTests {
    @Test("the data version changes with this process's own commits, as soon as the write returns")
    func ownCommits() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try AppDatabase(path: directory.appendingPathComponent("tidings.sqlite").path)
        let before = try #require(await database.dataVersion())
        #expect(await database.dataVersion() == before)  // nothing changed, nothing moves
        _ = try await addFeed(database)
        let after = try #require(await database.dataVersion())
        #expect(after != before)
        #expect(await database.dataVersion() == after)
    }

    @Test("the data version changes with another connection's commits")
    func otherConnections() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("tidings.sqlite").path
        let database = try AppDatabase(path: path)
        let before = try #require(await database.dataVersion())
        _ = try await addFeed(try AppDatabase(path: path), "Other")
        #expect(await database.dataVersion() != before)
    }
}
