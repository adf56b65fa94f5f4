public import Foundation
internal import GRDB
public import Models

/// The state of sharing chores through CalDAV: the account and the objects as last synced.
public struct ChoreSyncRepository: Sendable {
    let database: AppDatabase

    public init(database: AppDatabase) { self.database = database }

    /// The collection of every list that has none of its own, if one was set up.
    public func account() async throws(StorageError) -> ChoreSyncAccount? {
        try await accounts().first { $0.list == nil }
    }

    /// Every collection set up: the one of every other list first, then each list's own, by name.
    public func accounts() async throws(StorageError) -> [ChoreSyncAccount] {
        try await database.read { db in
            let main = try Row.fetchAll(
                db, sql: "SELECT url, user, syncToken, lastSyncAt, lastResult, NULL FROM choreSyncAccount WHERE id = 1")
            let lists = try Row.fetchAll(
                db,
                sql:
                    "SELECT url, user, syncToken, lastSyncAt, lastResult, list FROM choreSyncListCollection ORDER BY list"
            )
            return (main + lists).compactMap { row -> ChoreSyncAccount? in
                guard let url = URL(string: row[0]) else { return nil }
                return ChoreSyncAccount(
                    url: url, user: row[1], syncToken: row[2],
                    lastSyncAt: (row[3] as Double?).map(Date.init(timeIntervalSince1970:)), lastResult: row[4],
                    list: row[5])
            }
        }
    }

    /// Shares `list` (every list without a collection of its own when `nil`) through `url` as
    /// `user`. Another collection or user starts over: the objects under `previousPath` (the
    /// old collection's path on the server) and their token are forgotten (the tasks stay), in
    /// the same transaction.
    public func setAccount(url: URL, user: String, list: String? = nil, previousPath: String? = nil)
        async throws(StorageError)
    {
        try await database.write(source: .user) { db in
            let current =
                if let list {
                    try Row.fetchOne(
                        db, sql: "SELECT url, user FROM choreSyncListCollection WHERE list = ?", arguments: [list])
                } else {
                    try Row.fetchOne(db, sql: "SELECT url, user FROM choreSyncAccount WHERE id = 1")
                }
            if let current, current[0] as String == url.absoluteString, current[1] as String == user { return }
            if let previousPath { try Self.forgetItems(under: previousPath, db) }
            if let list {
                try db.execute(
                    sql: """
                        INSERT INTO choreSyncListCollection (list, url, user) VALUES (?1, ?2, ?3)
                        ON CONFLICT (list) DO UPDATE SET list = ?1, url = ?2, user = ?3,
                            syncToken = NULL, lastSyncAt = NULL, lastResult = NULL
                        """,
                    arguments: [list, url.absoluteString, user])
            } else {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO choreSyncAccount (id, url, user) VALUES (1, ?, ?)",
                    arguments: [url.absoluteString, user])
            }
        }
    }

    /// Stops sharing `list`'s own collection (the collection of every other list when `nil`):
    /// the collection and the objects under its `path` are forgotten; the tasks stay.
    public func removeAccount(list: String? = nil, path: String?) async throws(StorageError) {
        try await database.write(source: .user) { db in
            if let path { try Self.forgetItems(under: path, db) }
            if let list {
                try db.execute(sql: "DELETE FROM choreSyncListCollection WHERE list = ?", arguments: [list])
            } else {
                try db.execute(sql: "DELETE FROM choreSyncAccount")
            }
        }
    }

    private static func forgetItems(under path: String, _ db: Database) throws {
        for table in ["choreSyncItem", "choreSyncTombstone"] {
            try db.execute(
                sql: "DELETE FROM \(table) WHERE substr(href, 1, length(?1)) = ?1", arguments: [path])
        }
    }

    /// Records a sync's end for `list`'s own collection (the other lists' when `nil`): the
    /// collection's new token, when, and how it went.
    public func recordSync(list: String? = nil, token: String?, at date: Date, result: String)
        async throws(StorageError)
    {
        try await database.write(source: .app) { db in
            if let list {
                try db.execute(
                    sql: "UPDATE choreSyncListCollection SET syncToken = ?, lastSyncAt = ?, lastResult = ? WHERE list = ?",
                    arguments: [token, date.timeIntervalSince1970, result, list])
            } else {
                try db.execute(
                    sql: "UPDATE choreSyncAccount SET syncToken = ?, lastSyncAt = ?, lastResult = ? WHERE id = 1",
                    arguments: [token, date.timeIntervalSince1970, result])
            }
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
