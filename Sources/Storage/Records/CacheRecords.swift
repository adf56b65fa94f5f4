import Foundation
internal import GRDB
import Models

/// The `configCache` row: always id 1.
struct ConfigCacheRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "configCache"

    var id: Int64 = 1
    var body: Data
    var etag: String?
    var lastModified: String?
    var fetchedAt: Double
    var sourceURL: String?

    init(_ document: CachedDocument) {
        body = document.body
        etag = document.etag
        lastModified = document.lastModified
        fetchedAt = document.fetchedAt.timeIntervalSince1970
        sourceURL = document.sourceURL
    }

    var document: CachedDocument {
        CachedDocument(
            body: body, etag: etag, lastModified: lastModified, fetchedAt: Date(timeIntervalSince1970: fetchedAt),
            sourceURL: sourceURL)
    }
}

/// The `configAttempt` row: always id 1.
struct ConfigAttemptRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "configAttempt"

    var id: Int64 = 1
    var at: Double
    var result: String
}
