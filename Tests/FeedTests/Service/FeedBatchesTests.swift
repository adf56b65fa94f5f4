import Foundation
import GRDB
import Models
import Networking
import Testing

@testable import Feed
@testable import Storage

/// Large documents are parsed while they are stored, their items merged 500 at a time in the
/// transaction that stores the feed (`FeedService+Batches`). What ends up in the database must
/// be what parsing first and merging once stores.
@Suite("FeedService: large feeds merged in batches")
struct FeedBatchesTests {
    let url = "https://large.test/feed.xml"

    /// Everything a subscription left in the database, ids included, in a comparable form.
    static func contents(_ database: AppDatabase) async throws -> [String] {
        try await database.writer.read { db in
            var rows: [String] = []
            for table in ["feed", "article", "articleStatus", "articleCounts"] {
                for row in try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY 1, 2") {
                    rows.append("\(table) \(row)")
                }
            }
            return rows
        }
    }

    /// A feed of `count` items; `damaged` puts a control byte (not allowed in XML) in the third
    /// item's title, which makes libxml2 drop `&amp;` from there on: the document is read again.
    /// Item `repeatAt` repeats the first item's guid with another title (the first one wins).
    static func largeFeed(count: Int, damaged: Bool = false, repeatAt: Int? = nil, title: String = "Large") -> Data {
        var document = #"<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>\#(title)</title>"#
        document += "<link>https://large.test/</link>"
        for index in 0..<count {
            let guid = index == repeatAt ? "g0" : "g\(index)"
            let name = damaged && index == 2 ? "Item \u{1} \(index)" : "Item \(index) &amp; more"
            document += "<item><title>\(name)</title><guid>\(guid)</guid><link>https://large.test/\(index)</link>"
            document += "<pubDate>Sat, 13 Mar 2021 09:\(String(format: "%02d", index % 60)):00 GMT</pubDate>"
            document += "<description>&lt;p&gt;Body of item \(index), with words.&lt;/p&gt;</description></item>\n"
        }
        return Data((document + "</channel></rss>").utf8)
    }

    /// Subscribes to `first`, then refreshes to `second`, with a service that merges in batches
    /// from `threshold` bytes; the summaries and what the database holds.
    static func run(first: Data, second: Data?, threshold: Int) async throws -> [String] {
        try await withTemporaryDatabase { database in
            let url = "https://large.test/feed.xml"
            let server = FakeFeedServer()
            server.serve(url, body: first, etag: "\"v1\"")
            let service = makeService(database, server, batchThreshold: threshold)
            var log: [String] = []
            do {
                let added = try await service.subscribe(url: #require(URL(string: url)))
                log.append("added \(added.itemCount) \(added.newCount) \(added.warnings)")
            } catch {
                log.append("failed \(error)")
            }
            if let second, let feed = try await service.subscriptions().first, let id = feed.id {
                server.serve(url, body: second, etag: "\"v2\"")
                let summary = try await service.refresh([id])
                log.append("refreshed \(summary.newItems) \(summary.refreshed) \(summary.failed.map(\.reason))")
            }
            return log + (try await contents(database))
        }
    }

    @Test("every fixture feed: the same subscription, articles and statuses parsed first or merged in batches")
    func fixtures() async throws {
        // The parser's fixtures, read where its tests keep them.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("FeedParserTests/Resources")
        var compared = 0
        // (Not `other/`: its HTML page would send discovery to addresses nothing serves.)
        for folder in ["rss", "atom", "jsonfeed"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)
            for name in names.sorted() {
                let data = try Data(contentsOf: root.appendingPathComponent("\(folder)/\(name)"))
                let whole = try await Self.run(first: data, second: nil, threshold: 8 << 20)
                let batched = try await Self.run(first: data, second: nil, threshold: 1)
                #expect(Self.difference(batched, whole) == nil, "\(folder)/\(name)")
                compared += 1
            }
        }
        #expect(compared > 65)
    }

    @Test(
        "a large feed, then a refresh: the same both ways, including a damaged document read again and a repeated guid",
        arguments: [(false, nil), (true, nil), (false, 700), (true, 1_100)] as [(Bool, Int?)])
    func largeFeeds(damaged: Bool, repeatAt: Int?) async throws {
        let first = Self.largeFeed(count: 1_200, damaged: damaged, repeatAt: repeatAt)
        let second = Self.largeFeed(count: 1_300, damaged: damaged, repeatAt: repeatAt, title: "Larger")
        let whole = try await Self.run(first: first, second: second, threshold: 8 << 20)
        let batched = try await Self.run(first: first, second: second, threshold: 1)
        #expect(Self.difference(batched, whole) == nil)
        let distinct = repeatAt == nil ? 1_200 : 1_199
        #expect(whole.first?.hasPrefix("added 1200 \(distinct) ") == true)
        #expect(whole.dropFirst().first?.hasPrefix("refreshed 100 ") == true)
        if damaged {
            // The text after the broken byte kept its `&amp;`: the document was read again.
            #expect(whole.contains { $0.contains("Item 5 & more") })
        }
    }

    @Test("a storage failure in a later batch undoes the earlier ones: nothing of the refresh is stored")
    func failureInALaterBatch() async throws {
        let first = Self.largeFeed(count: 10)
        let second = Self.largeFeed(count: 1_600)
        // How many pages the refresh needs, measured on a copy.
        let needed = try await withTemporaryDatabase { database in
            let server = FakeFeedServer()
            server.serve(url, body: first)
            let service = makeService(database, server, batchThreshold: 1)
            let id = try #require(try await subscribe(service, [url])[0].id)
            let before = try await Self.pageCount(database)
            server.serve(url, body: second)
            _ = try await service.refresh([id])
            return try await Self.pageCount(database) - before
        }
        #expect(needed > 20)
        try await withTemporaryDatabase { database in
            let server = FakeFeedServer()
            server.serve(url, body: first, etag: "\"v1\"")
            let service = makeService(database, server, batchThreshold: 1)
            let id = try #require(try await subscribe(service, [url])[0].id)
            let before = try await Self.contents(database)
            server.serve(url, body: second, etag: "\"v2\"")
            // Room for the first batches, not for all of them.
            try await database.writer.writeWithoutTransaction { db in
                let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
                _ = try Int.fetchOne(db, sql: "PRAGMA max_page_count = \(pages + needed / 2)")
            }
            let summary = try await service.refresh([id])
            #expect(summary.storingFailed && summary.failed.count == 1)
            var after = try await Self.contents(database)
            // Only the feed's row changed: its last result and refresh time.
            #expect(after.filter { !$0.hasPrefix("feed ") } == before.filter { !$0.hasPrefix("feed ") })
            after = after.filter { $0.hasPrefix("feed ") }
            #expect(after.count == 1 && after[0].contains("v1") && !after[0].contains("v2"), "\(after)")
        }
    }

    @Test("a large document that is not a feed leaves no subscription; a large HTML page still leads to its feed")
    func largeNonFeeds() async throws {
        try await withTemporaryDatabase { database in
            let server = FakeFeedServer()
            let padding = String(repeating: "<p>padding</p>", count: 1_000)
            server.serve(
                url, body: Data("<?xml version=\"1.0\"?><catalog>\(padding)</catalog>".utf8),
                headers: ["Content-Type": "application/xml"])
            let page = "https://large.test/page"
            server.serve(
                page,
                body: Data(
                    "<!doctype html><html><head><link rel=\"alternate\" type=\"application/rss+xml\" href=\"/real.xml\"></head><body>\(padding)</body></html>"
                        .utf8), headers: ["Content-Type": "text/html"])
            server.serve("https://large.test/real.xml", body: Self.largeFeed(count: 3))
            let service = makeService(database, server, batchThreshold: 1)
            await #expect(throws: FeedError.self) { try await service.subscribe(url: #require(URL(string: url))) }
            do {
                _ = try await service.subscribe(url: #require(URL(string: url)))
            } catch {
                #expect("\(error.localizedDescription)".contains("<catalog>"))
            }
            #expect(try await service.subscriptions().isEmpty)
            let added = try await service.subscribe(url: #require(URL(string: page)))
            #expect(added.feed.url.absoluteString == "https://large.test/real.xml")
            #expect(added.itemCount == 3)
        }
    }

    /// The first line where `batched` and `whole` differ, or `nil`.
    static func difference(_ batched: [String], _ whole: [String]) -> String? {
        guard batched != whole else { return nil }
        guard let index = batched.indices.first(where: { $0 < whole.count && batched[$0] != whole[$0] }) else {
            return "\(batched.count) lines against \(whole.count)"
        }
        return "line \(index): batched \(batched[index]), whole \(whole[index])"
    }

    static func pageCount(_ database: AppDatabase) async throws -> Int {
        try await database.writer.read { db in try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0 }
    }
}
