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
    var pace: Double?
    var accountId: Int64?

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
        pace = source.pace
        accountId = source.accountID
    }

    /// The columns every request selects, in the order `init(row:)` reads them.
    static var databaseSelection: [any SQLSelectable] {
        [
            Column("id"), Column("url"), Column("title"), Column("homePageURL"), Column("format"), Column("etag"),
            Column("lastModified"), Column("contentHash"), Column("lastResult"), Column("lastRefreshedAt"),
            Column("isGone"), Column("retryAfter"), Column("pace"), Column("accountId"),
        ]
    }

    /// Reads a row by position, without the `Decodable` machinery or a lookup of each column's
    /// name: both showed in the time of listing many feeds.
    init(row: Row) throws {
        id = row[0]
        url = row[1]
        title = row[2]
        homePageURL = row[3]
        format = row[4]
        etag = row[5]
        lastModified = row[6]
        contentHash = row[7]
        lastResult = row[8]
        lastRefreshedAt = row[9]
        isGone = row[10]
        retryAfter = row[11]
        pace = row[12]
        accountId = row[13]
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    var source: FeedSource {
        FeedSource(
            id: id, url: URL(string: url) ?? URL(fileURLWithPath: "/"), title: title,
            homePageURL: homePageURL.flatMap(URL.init(string:)), format: format.map(FeedFormat.init(rawValue:)),
            etag: etag, lastModified: lastModified, contentHash: contentHash,
            lastResult: lastResult.map(RefreshResult.init),
            lastRefreshedAt: lastRefreshedAt.map(Date.init(timeIntervalSince1970:)), isGone: isGone,
            retryAfter: retryAfter.map(Date.init(timeIntervalSince1970:)), pace: pace, accountID: accountId)
    }
}
