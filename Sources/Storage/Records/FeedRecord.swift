import Foundation
internal import GRDB
import Models

/// A `feed` row.
struct FeedRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "feed"

    var id: Int64?
    var url: String
    var title: String
    var homePageURL: String?
    var format: String?
    var etag: String?
    var lastModified: String?
    var contentHash: String?
    var lastResult: String?
    var lastRefreshedAt: Double?
    var isGone: Bool
    var retryAfter: Double?

    init(_ source: FeedSource) {
        id = source.id
        url = source.url.absoluteString
        title = source.title
        homePageURL = source.homePageURL?.absoluteString
        format = source.format?.rawValue
        etag = source.etag
        lastModified = source.lastModified
        contentHash = source.contentHash
        lastResult = source.lastResult?.description
        lastRefreshedAt = source.lastRefreshedAt?.timeIntervalSince1970
        isGone = source.isGone
        retryAfter = source.retryAfter?.timeIntervalSince1970
    }

    /// Reads a row by column, without the `Decodable` machinery (listing 50,000 feeds spent a
    /// third of its time in the row decoder).
    init(row: Row) throws {
        id = row["id"]
        url = row["url"]
        title = row["title"]
        homePageURL = row["homePageURL"]
        format = row["format"]
        etag = row["etag"]
        lastModified = row["lastModified"]
        contentHash = row["contentHash"]
        lastResult = row["lastResult"]
        lastRefreshedAt = row["lastRefreshedAt"]
        isGone = row["isGone"]
        retryAfter = row["retryAfter"]
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    var source: FeedSource {
        FeedSource(
            id: id, url: URL(string: url) ?? URL(fileURLWithPath: "/"), title: title,
            homePageURL: homePageURL.flatMap(URL.init(string:)), format: format.map(FeedFormat.init(rawValue:)),
            etag: etag, lastModified: lastModified, contentHash: contentHash,
            lastResult: lastResult.map(RefreshResult.init),
            lastRefreshedAt: lastRefreshedAt.map(Date.init(timeIntervalSince1970:)), isGone: isGone,
            retryAfter: retryAfter.map(Date.init(timeIntervalSince1970:)))
    }
}
