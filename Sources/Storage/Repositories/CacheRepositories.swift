public import Foundation
internal import GRDB
public import Models

/// Keeps the last remote configuration document that was activated (one row).
public struct ConfigCacheRepository: Sendable {
    private let database: AppDatabase

    public init(database: AppDatabase) { self.database = database }

    /// The cached document, if one was saved.
    public func load() async throws(StorageError) -> CachedDocument? {
        // Every start reads it: on the writer's connection (see `AppDatabase.readOnWriter`).
        // Plain SQL: a fetch by key makes GRDB read the whole schema first (every start).
        try await database.readOnWriter { db in
            try ConfigCacheRecord.fetchOne(db, sql: "SELECT * FROM configCache WHERE id = 1")?.document
        }
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
