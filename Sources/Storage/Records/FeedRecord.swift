import Foundation
internal import GRDB
import Models

/// A `feed` row.
struct FeedRecord: FetchableRecord, MutablePersistableRecord {
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
    }

    init(row: Row) {
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
    }

    func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["url"] = url
        container["title"] = title
        container["homePageURL"] = homePageURL
        container["format"] = format
        container["etag"] = etag
        container["lastModified"] = lastModified
        container["contentHash"] = contentHash
        container["lastResult"] = lastResult
        container["lastRefreshedAt"] = lastRefreshedAt
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    var source: FeedSource {
        FeedSource(
            id: id, url: URL(string: url) ?? URL(fileURLWithPath: "/"), title: title,
            homePageURL: homePageURL.flatMap(URL.init(string:)), format: format.map(FeedFormat.init(rawValue:)),
            etag: etag, lastModified: lastModified, contentHash: contentHash,
            lastResult: lastResult.map(RefreshResult.init),
            lastRefreshedAt: lastRefreshedAt.map(Date.init(timeIntervalSince1970:)))
    }
}
