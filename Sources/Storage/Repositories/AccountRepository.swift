public import Foundation
internal import GRDB
public import Models

/// A feed account as stored: where its server is and who the user is (never a password), and
/// how its last sync ended.
public struct FeedAccountRecord: Sendable, Hashable {
    public var id: Int64
    /// The protocol (`fever`).
    public var kind: String
    public var endpoint: URL
    public var user: String
    public var createdAt: Date
    /// When the last complete sync ended.
    public var syncedAt: Date?
    /// Why the last sync stopped, if it did.
    public var problem: String?
}

/// A mark made here on an account's article or feed, not yet sent to its server.
public struct StoredAccountMark: Sendable, Hashable {
    public enum Kind: String, Sendable { case read, starred, feedRead }
    public var sequence: Int64
    public var kind: Kind
    /// The article's `uniqueId` (`read`, `starred`) or the feed's remote id (`feedRead`).
    public var target: String
    public var now: Bool
    public var was: Bool
    public var before: Date?
}

/// One of an account's feeds as its server lists it.
public struct AccountFeed: Sendable, Hashable {
    public var remoteID: String
    public var url: URL?
    public var title: String
    public var homePageURL: URL?
    /// Its folders (stored as the feed's tags).
    public var folders: [String]

    public init(remoteID: String, url: URL?, title: String, homePageURL: URL?, folders: [String]) {
        self.remoteID = remoteID
        self.url = url
        self.title = title
        self.homePageURL = homePageURL
        self.folders = folders
    }
}

/// Feed accounts and what their syncs keep: each account's feeds (rows of `feed` with the
/// server's id), their articles, the cursor of the server's items, and the marks made here
/// not yet sent. Every call is one transaction.
public struct AccountRepository: Sendable {
    let database: AppDatabase

    public init(database: AppDatabase) { self.database = database }

    // MARK: Accounts

    /// Adds an account; `.duplicate` when the same user of the same server is one already.
    public func add(kind: String, endpoint: URL, user: String, now: Date = Date()) async throws(StorageError)
        -> FeedAccountRecord
    {
        try await database.write(source: .user) { db in
            let exists =
                try Bool.fetchOne(
                    db, sql: "SELECT 1 FROM account WHERE kind = ? AND endpoint = ? AND user = ?",
                    arguments: [kind, endpoint.absoluteString, user]) ?? false
            if exists { throw StorageError.duplicate("an account of \(user) at \(endpoint.absoluteString)") }
            try db.execute(
                sql: "INSERT INTO account (kind, endpoint, user, createdAt) VALUES (?, ?, ?, ?)",
                arguments: [kind, endpoint.absoluteString, user, now.timeIntervalSince1970])
            return FeedAccountRecord(
                id: db.lastInsertedRowID, kind: kind, endpoint: endpoint, user: user, createdAt: now, syncedAt: nil,
                problem: nil)
        }
    }

    /// Every account, in the order they were added.
    public func all() async throws(StorageError) -> [FeedAccountRecord] {
        try await database.read { db in
            try Row.fetchAll(
                db, sql: "SELECT id, kind, endpoint, user, createdAt, syncedAt, problem FROM account ORDER BY id"
            ).compactMap(Self.account)
        }
    }

    /// The account `id`, if there is one.
    public func account(id: Int64) async throws(StorageError) -> FeedAccountRecord? {
        try await database.read { db in
            try Row.fetchOne(
                db, sql: "SELECT id, kind, endpoint, user, createdAt, syncedAt, problem FROM account WHERE id = ?",
                arguments: [id]
            ).flatMap(Self.account)
        }
    }

    /// Removes an account with its feeds, their articles and its pending marks; `false` when
    /// there was none.
    @discardableResult
    public func remove(id: Int64) async throws(StorageError) -> Bool {
        try await database.write(source: .user) { db in
            try db.execute(sql: "DELETE FROM account WHERE id = ?", arguments: [id])
            return db.changesCount > 0
        }
    }

    private static func account(_ row: Row) -> FeedAccountRecord? {
        guard let endpoint = URL(string: row[2]) else { return nil }
        return FeedAccountRecord(
            id: row[0], kind: row[1], endpoint: endpoint, user: row[3],
            createdAt: Date(timeIntervalSince1970: row[4]),
            syncedAt: (row[5] as Double?).map(Date.init(timeIntervalSince1970:)), problem: row[6])
    }

    /// `?, ?, …`: one placeholder for each value of an `IN` list.
    static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }
}
