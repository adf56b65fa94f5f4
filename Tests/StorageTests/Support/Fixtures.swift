import Foundation
import GRDB
import Models

@testable import Storage

/// A fresh directory under the system's temporary directory, removed by the caller.
func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("tidings-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A fixed "now" so dates in tests never depend on the clock: 2026-11-22T12:00:00Z.
let now = Date(timeIntervalSince1970: 1_795_348_800)

/// Days before `now`.
func daysAgo(_ days: Double) -> Date { now.addingTimeInterval(-days * 86_400) }

/// Adds a subscription and returns its id.
func addFeed(_ database: AppDatabase, _ name: String = "Example") async throws -> Int64 {
    let feed = try await FeedRepository(database: database).add(
        FeedSource(url: URL(string: "https://\(name.lowercased()).example.com/feed.xml")!, title: name))
    return feed.id ?? -1
}

/// Inserts `count` bare articles into `feedID` in one statement ("guid-1" … titled "Title 1" …,
/// article i dated `i` seconds, or `-i` when `newestFirst`, so that "guid-1" is the newest),
/// with statuses read or unread.
func insertArticles(
    _ database: AppDatabase, feedID: Int64, count: Int, newestFirst: Bool = false, read: Bool = false
) async throws {
    try await database.write(source: .app) { db in
        try db.execute(
            sql: """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
                INSERT INTO article (feedId, uniqueId, title, sortDate)
                SELECT ?, 'guid-' || i, 'Title ' || i, CASE WHEN ? THEN -i ELSE i END FROM n;
                INSERT INTO articleStatus (feedId, uniqueId, isRead, arrivedAt) SELECT feedId, uniqueId, ?, 0 FROM article;
                """, arguments: [count, feedID, newestFirst, read])
    }
}

/// An article of `feedID` with a guid-like unique id and a date `age` days before `now`.
func article(_ feedID: Int64, _ key: String, age: Double = 1, title: String? = nil, text: String? = nil) -> Article {
    Article(
        feedID: feedID, uniqueID: "guid-\(key)", externalID: "guid-\(key)", title: title ?? "Article \(key)",
        link: URL(string: "https://example.com/\(key)"), published: daysAgo(age),
        authors: [Author(name: "Jo", email: "jo@example.com")], summary: "Summary \(key)",
        contentHTML: "<p>\(text ?? "Body \(key)")</p>", contentText: text ?? "Body \(key)", categories: ["news"])
}

extension AsyncStream {
    /// The next element, or `nil` when none arrives (the stream ended).
    func first() async -> Element? {
        var iterator = makeAsyncIterator()
        return await iterator.next()
    }
}

/// FTS5's own consistency check of the word and substring indexes against the articles they
/// were built from (throws when an index is corrupt or a contentless delete missed).
func checkSearchIndexes(_ database: AppDatabase) async throws {
    let report = try database.searchIntegrityCheck()
    guard report == ["ok"] else { throw SearchIndexDamaged(report: report) }
}

/// What `checkSearchIndexes` found wrong.
struct SearchIndexDamaged: Error, CustomStringConvertible {
    let report: [String]
    var description: String { "search index: " + report.joined(separator: "; ") }
}
