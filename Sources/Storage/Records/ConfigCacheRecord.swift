import Foundation
internal import GRDB

/// The `configCache` row: always id 1.
struct ConfigCacheRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "configCache"

    var id: Int64 = 1
    var body: Data
    var etag: String?
    var lastModified: String?
    var fetchedAt: Date

    init(_ document: CachedDocument) {
        body = document.body
        etag = document.etag
        lastModified = document.lastModified
        fetchedAt = document.fetchedAt
    }

    var document: CachedDocument {
        CachedDocument(body: body, etag: etag, lastModified: lastModified, fetchedAt: fetchedAt)
    }
}
