import Foundation
import GRDB
import Models
import Networking
import Testing

@testable import Feed
@testable import Storage

/// Caps the database file at its current size plus `extraPages` (SQLite's `max_page_count`), so
/// the next write that needs more room fails with SQLITE_FULL, as a full disk would; `nil`
/// lifts the cap.
private func limitGrowth(_ database: AppDatabase, extraPages: Int?) throws {
    try database.writer.writeWithoutTransaction { db in
        let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
        let limit = extraPages.map { pages + $0 } ?? 1_073_741_823
        _ = try Int.fetchOne(db, sql: "PRAGMA max_page_count = \(limit)")
    }
}

/// A feed of `count` articles, each with enough text that they need many pages.
private func bulkyFeed(count: Int, title: String = "Bulky") -> Data {
    let body = String(repeating: "Words that take room on a page. ", count: 60)
    let items = (0..<count).map { index in
        "<item><title>Item \(index)</title><guid>urn:item:\(index)</guid><description>\(body)</description></item>"
    }
    return Data(
        """
        <?xml version="1.0"?><rss version="2.0"><channel><title>\(title)</title><link>https://bulky.test/</link>
        \(items.joined(separator: "\n"))</channel></rss>
        """.utf8)
}

@Suite("FeedService: whole or nothing")
struct FeedAtomicityTests {
    let url = "https://bulky.test/feed.xml"

    /// Documents parsed before they are stored, and parsed while stored in batches of 500.
    static let thresholds = [8 << 20, 1]

    @Test(
        "a subscribe that cannot store its articles (disk full) leaves no subscription; a retry adds the whole feed",
        arguments: thresholds)
    func subscribeOnAFullDisk(batchThreshold: Int) async throws {
        try await withTemporaryDatabase { database in
            let server = FakeFeedServer()
            server.serve(url, body: bulkyFeed(count: 1_200), etag: "\"v1\"")
            let service = makeService(database, server, batchThreshold: batchThreshold)
            let feedURL = try #require(URL(string: url))
            try limitGrowth(database, extraPages: 2)
            do {
                _ = try await service.subscribe(url: feedURL)
                Issue.record("the subscribe should have failed on a full disk")
            } catch let error as FeedError {
                guard case .storage = error else {
                    Issue.record("unexpected \(error)")
                    return
                }
            }
            let afterFailure = try await service.subscriptions()
            #expect(afterFailure.isEmpty, "a failed add left \(afterFailure.map(\.title))")
            try limitGrowth(database, extraPages: nil)
            let added = try await service.subscribe(url: feedURL)
            #expect(added.itemCount == 1_200 && added.newCount == 1_200)
        }
    }

    @Test(
        "a refresh whose merge fails (disk full) keeps the old validators, so the next refresh brings every item",
        arguments: thresholds)
    func refreshOnAFullDisk(batchThreshold: Int) async throws {
        try await withTemporaryDatabase { database in
            let server = FakeFeedServer()
            server.serve(url, body: bulkyFeed(count: 5), etag: "\"v1\"")
            let service = makeService(database, server, batchThreshold: batchThreshold)
            let feed = try await subscribe(service, [url])[0]
            let id = try #require(feed.id)
            server.serve(url, body: bulkyFeed(count: 1_200), etag: "\"v2\"")
            try limitGrowth(database, extraPages: 2)
            let failed = try await service.refresh([id])
            #expect(failed.storingFailed && failed.failed.count == 1 && failed.nothingRefreshed)
            let stored = try await service.subscription(id: id)
            #expect(stored.etag == "\"v1\"", "validators of a merge that never happened were stored")
            try limitGrowth(database, extraPages: nil)
            let summary = try await service.refresh([id])
            #expect(summary.newItems == 1_195 && summary.failed.isEmpty)
            let counts = try await service.articleCounts()
            #expect(counts[id]?.total == 1_200)
            #expect(try await service.subscription(id: id).etag == "\"v2\"")
        }
    }
}
