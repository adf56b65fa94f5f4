public import Foundation
internal import GRDB
public import Models

/// Keeps the last remote configuration document that was activated (one row).
public struct ConfigCacheRepository: Sendable {
    private let database: AppDatabase

    /// Creates the repository over a database.
    public init(database: AppDatabase) { self.database = database }

    /// The cached document, if one was saved.
    public func load() async throws(StorageError) -> CachedDocument? {
        try await database.read { db in try ConfigCacheRecord.fetchOne(db, key: 1)?.document }
    }

    /// Replaces the cached document.
    public func save(_ document: CachedDocument) async throws(StorageError) {
        try await database.write(source: .app) { db in try ConfigCacheRecord(document).save(db) }
    }

    /// The last refresh attempt saved: when it ended and its result in words.
    public func lastAttempt() async throws(StorageError) -> (at: Date, result: String)? {
        try await database.read { db in
            try ConfigAttemptRecord.fetchOne(db, key: 1).map { (Date(timeIntervalSince1970: $0.at), $0.result) }
        }
    }

    /// Replaces the last refresh attempt.
    public func saveAttempt(at: Date, result: String) async throws(StorageError) {
        try await database.write(source: .app) { db in
            try ConfigAttemptRecord(at: at.timeIntervalSince1970, result: result).save(db)
        }
    }
}

/// Stored HTTP responses by URL, for conditional requests and offline fallback.
public struct HTTPCacheRepository: Sendable {
    private let database: AppDatabase

    /// Creates the repository over a database.
    public init(database: AppDatabase) { self.database = database }

    /// The entry for `url`, if one is stored.
    public func entry(for url: URL) async throws(StorageError) -> HTTPCacheEntry? {
        try await database.read { db in try HTTPCacheRecord.fetchOne(db, key: url.absoluteString)?.entry }
    }

    /// Stores or replaces the entry for its URL.
    public func store(_ entry: HTTPCacheEntry) async throws(StorageError) {
        try await database.write(source: .app) { db in try HTTPCacheRecord(entry).save(db) }
    }

    /// Removes the entry for `url` (after `no-store`, or a 404).
    public func removeEntry(for url: URL) async throws(StorageError) {
        _ = try await database.write(source: .app) { db in try HTTPCacheRecord.deleteOne(db, key: url.absoluteString) }
    }

    /// Removes entries stored before `date`; returns how many.
    @discardableResult
    public func removeEntries(storedBefore date: Date) async throws(StorageError) -> Int {
        let cutoff = date.timeIntervalSince1970
        return try await database.write(source: .app) { db in
            try HTTPCacheRecord.filter(Column("storedAt") < cutoff).deleteAll(db)
        }
    }
}
