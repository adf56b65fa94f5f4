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

/// An `httpCache` row, keyed by URL.
struct HTTPCacheRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "httpCache"

    var url: String
    var body: Data
    var etag: String?
    var lastModified: String?
    var maxAge: Double?
    var storedAt: Double

    init(_ entry: HTTPCacheEntry) {
        url = entry.url.absoluteString
        body = entry.body
        etag = entry.etag
        lastModified = entry.lastModified
        maxAge = entry.maxAge
        storedAt = entry.storedAt.timeIntervalSince1970
    }

    var entry: HTTPCacheEntry? {
        URL(string: url).map {
            HTTPCacheEntry(
                url: $0, body: body, etag: etag, lastModified: lastModified, maxAge: maxAge,
                storedAt: Date(timeIntervalSince1970: storedAt))
        }
    }
}
