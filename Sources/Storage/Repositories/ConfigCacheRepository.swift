public import Foundation
internal import GRDB

/// A fetched document kept with the validators needed to ask for it again conditionally.
public struct CachedDocument: Sendable, Hashable {
    /// The body as it was received.
    public var body: Data
    /// The response's `ETag`.
    public var etag: String?
    /// The response's `Last-Modified`.
    public var lastModified: String?
    /// When it was fetched.
    public var fetchedAt: Date

    /// Creates a cached document.
    public init(body: Data, etag: String? = nil, lastModified: String? = nil, fetchedAt: Date) {
        self.body = body
        self.etag = etag
        self.lastModified = lastModified
        self.fetchedAt = fetchedAt
    }
}

/// Keeps the last remote configuration document that was activated (one row).
public struct ConfigCacheRepository: Sendable {
    private let database: AppDatabase

    /// Creates the repository over a database.
    public init(database: AppDatabase) { self.database = database }

    /// The cached document, if one was saved.
    public func load() throws(StorageError) -> CachedDocument? {
        do {
            return try database.writer.read { db in try ConfigCacheRecord.fetchOne(db, key: 1)?.document }
        } catch {
            throw AppDatabase.storageError(error, path: "config cache")
        }
    }

    /// Replaces the cached document.
    public func save(_ document: CachedDocument) throws(StorageError) {
        do {
            try database.writer.write { db in try ConfigCacheRecord(document).save(db) }
        } catch {
            throw AppDatabase.storageError(error, path: "config cache")
        }
    }
}
