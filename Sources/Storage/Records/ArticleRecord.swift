import Foundation
internal import GRDB
import Models

/// An `article` row. Text columns hold what the merge compares, so two records are equal
/// exactly when the stored article would not change.
struct ArticleRecord: FetchableRecord, MutablePersistableRecord, Equatable {
    static let databaseTableName = "article"

    var id: Int64?
    var feedId: Int64
    var uniqueId: String
    var externalId: String?
    var title: String?
    var link: String?
    var externalLink: String?
    var published: Double?
    var updated: Double?
    var sortDate: Double
    var authors: String?
    var summary: String?
    var contentHtml: String?
    var contentText: String?
    var categories: String?
    var enclosures: String?
    /// An episode's or video's image, duration, episode and season (JSON; NULL for none).
    var media: String?

    /// The row for `article`; `arrival` dates it when the feed gave no date.
    init(_ article: Article, arrival: Date) {
        id = article.id
        feedId = article.feedID
        uniqueId = article.uniqueID
        externalId = article.externalID
        title = article.title
        link = article.link?.absoluteString
        externalLink = article.externalLink?.absoluteString
        published = article.published?.timeIntervalSince1970
        updated = article.updated?.timeIntervalSince1970
        // An article sorts by its own date, but never above the moment it arrived: an undated
        // one sorts by its arrival, and one dated in the future does not sit on top for a year.
        sortDate = min(article.sortDate ?? arrival, arrival).timeIntervalSince1970
        authors = JSONColumn.encode(article.authors)
        summary = article.summary
        contentHtml = article.contentHTML
        contentText = article.contentText
        categories = JSONColumn.encode(article.categories)
        enclosures = JSONColumn.encode(article.enclosures)
        media = JSONColumn.encode(
            media: JSONColumn.Media(
                duration: article.duration, episode: article.episode, image: article.image?.absoluteString,
                season: article.season))
    }

    /// The columns in the order `init(row:)` and `insert(_:)` use; select them with
    /// `selection` (reading by position is several times cheaper than by name).
    static let columns = [
        "id", "feedId", "uniqueId", "externalId", "title", "link", "externalLink", "published", "updated",
        "sortDate", "authors", "summary", "contentHtml", "contentText", "categories", "enclosures", "media",
    ]

    /// `article.id, article.feedId, …` for a SELECT that `init(row:)` reads.
    static let selection = columns.map { "article.\($0)" }.joined(separator: ", ")

    /// Reads the first `columns.count` columns of a row selected with `selection`.
    init(row: Row) {
        id = row[0]
        feedId = row[1]
        uniqueId = row[2]
        externalId = row[3]
        title = row[4]
        link = row[5]
        externalLink = row[6]
        published = row[7]
        updated = row[8]
        sortDate = row[9]
        authors = row[10]
        summary = row[11]
        contentHtml = row[12]
        contentText = row[13]
        categories = row[14]
        enclosures = row[15]
        media = row[16]
    }

    private static let insertSQL = """
        INSERT INTO article (\(columns.dropFirst().joined(separator: ", ")))
        VALUES (\(Array(repeating: "?", count: columns.count - 1).joined(separator: ", ")))
        """

    /// Inserts the row with one cached statement (the merge's hot path) and sets `id`.
    mutating func insert(_ db: Database) throws {
        let statement = try db.cachedStatement(sql: Self.insertSQL)
        statement.setUncheckedArguments([
            feedId, uniqueId, externalId, title, link, externalLink, published, updated, sortDate, authors, summary,
            contentHtml, contentText, categories, enclosures, media,
        ])
        try statement.execute()
        id = db.lastInsertedRowID
    }

    func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["feedId"] = feedId
        container["uniqueId"] = uniqueId
        container["externalId"] = externalId
        container["title"] = title
        container["link"] = link
        container["externalLink"] = externalLink
        container["published"] = published
        container["updated"] = updated
        container["sortDate"] = sortDate
        container["authors"] = authors
        container["summary"] = summary
        container["contentHtml"] = contentHtml
        container["contentText"] = contentText
        container["categories"] = categories
        container["enclosures"] = enclosures
        container["media"] = media
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// This stored row updated by a fresh copy of the same article: every field the feed now
    /// publishes replaces the stored one, but a known date is never replaced by nil, and the
    /// sort date only moves when the feed's own dates do, to a date that has come (a date still
    /// in the future keeps the arrival it sorted by).
    func merged(with incoming: ArticleRecord) -> ArticleRecord {
        var result = incoming
        result.id = id
        result.published = incoming.published ?? published
        result.updated = incoming.updated ?? updated
        if let date = result.published ?? result.updated, date <= incoming.sortDate {
            result.sortDate = date
        } else {
            result.sortDate = sortDate
        }
        return result
    }

    var article: Article {
        let media = JSONColumn.decode(media: media)
        return Article(
            id: id, feedID: feedId, uniqueID: uniqueId, externalID: externalId, title: title,
            link: link.flatMap(URL.init(string:)), externalLink: externalLink.flatMap(URL.init(string:)),
            published: published.map(Date.init(timeIntervalSince1970:)),
            updated: updated.map(Date.init(timeIntervalSince1970:)),
            authors: JSONColumn.decode([Author].self, from: authors), summary: summary,
            contentHTML: contentHtml, contentText: contentText,
            categories: JSONColumn.decode([String].self, from: categories),
            enclosures: JSONColumn.decode([Enclosure].self, from: enclosures),
            image: media.image.flatMap(URL.init(string:)), duration: media.duration, episode: media.episode,
            season: media.season)
    }
}
