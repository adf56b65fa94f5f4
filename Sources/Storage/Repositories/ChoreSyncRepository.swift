public import Foundation
internal import GRDB
public import Models

/// The state of sharing chores through CalDAV: the account and the objects as last synced.
public struct ChoreSyncRepository: Sendable {
    let database: AppDatabase

    public init(database: AppDatabase) { self.database = database }

    /// The account chores are shared through, if one was set up.
    public func account() async throws(StorageError) -> ChoreSyncAccount? {
        try await database.read { db in
            try Row.fetchOne(
                db, sql: "SELECT url, user, syncToken, lastSyncAt, lastResult FROM choreSyncAccount WHERE id = 1"
            ).flatMap { row -> ChoreSyncAccount? in
                guard let url = URL(string: row[0]) else { return nil }
                return ChoreSyncAccount(
                    url: url, user: row[1], syncToken: row[2],
                    lastSyncAt: (row[3] as Double?).map(Date.init(timeIntervalSince1970:)), lastResult: row[4])
            }
        }
    }

    /// Sets up sharing with `url` as `user`. Another collection or user starts over: the objects
    /// and the token of the old one are forgotten (the tasks stay), in the same transaction.
    public func setAccount(url: URL, user: String) async throws(StorageError) {
        try await database.write(source: .user) { db in
            let current = try Row.fetchOne(db, sql: "SELECT url, user FROM choreSyncAccount WHERE id = 1")
            if let current, current[0] as String == url.absoluteString, current[1] as String == user { return }
            try db.execute(sql: "DELETE FROM choreSyncItem; DELETE FROM choreSyncTombstone;")
            try db.execute(
                sql: "INSERT OR REPLACE INTO choreSyncAccount (id, url, user) VALUES (1, ?, ?)",
                arguments: [url.absoluteString, user])
        }
    }

    /// Stops sharing: the account and the objects are forgotten; the tasks stay.
    public func removeAccount() async throws(StorageError) {
        try await database.write(source: .user) { db in
            try db.execute(
                sql: "DELETE FROM choreSyncItem; DELETE FROM choreSyncTombstone; DELETE FROM choreSyncAccount;")
        }
    }

    /// Records a sync's end: the collection's new token, when, and how it went.
    public func recordSync(token: String?, at date: Date, result: String) async throws(StorageError) {
        try await database.write(source: .app) { db in
            try db.execute(
                sql: "UPDATE choreSyncAccount SET syncToken = ?, lastSyncAt = ?, lastResult = ? WHERE id = 1",
                arguments: [token, date.timeIntervalSince1970, result])
        }
    }

    /// Every object as last synced, by href.
    public func items() async throws(StorageError) -> [ChoreSyncItem] {
        try await database.read { db in
            try Row.fetchAll(db, sql: "SELECT href, uid, taskId, etag, icalendar FROM choreSyncItem ORDER BY href")
                .map { ChoreSyncItem(href: $0[0], uid: $0[1], taskID: $0[2], etag: $0[3], icalendar: $0[4]) }
        }
    }

    /// Saves objects as synced, replacing those with the same href, and forgets `removed`
    /// hrefs, in one transaction.
    public func save(_ items: [ChoreSyncItem], removing removed: [String] = []) async throws(StorageError) {
        try await database.write(source: .app) { db in
            for href in removed { try db.execute(sql: "DELETE FROM choreSyncItem WHERE href = ?", arguments: [href]) }
            for item in items { try Self.save(item, db) }
        }
    }

    /// Moves objects to new hrefs (`(from, to)` pairs), in one transaction; one whose new href
    /// another object already has stays where it is.
    public func rename(_ moves: [(from: String, to: String)]) async throws(StorageError) {
        try await database.write(source: .app) { db in
            for (from, to) in moves {
                try db.execute(
                    sql: """
                        UPDATE choreSyncItem SET href = ?2 WHERE href = ?1
                        AND NOT EXISTS (SELECT 1 FROM choreSyncItem WHERE href = ?2)
                        """,
                    arguments: [from, to])
            }
        }
    }
}
