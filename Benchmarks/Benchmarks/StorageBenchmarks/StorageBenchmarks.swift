import Benchmark
import Foundation
import Models
import Storage

// Storage through its public repositories, on real database files under /tmp/tidings-bench,
// shaped like ../shared/bench/sqlite-baseline.sh's workload so the figures compare with the
// sqlite3 command line measured in the same session:
// - merge 100,000 articles with ~1 KB of text into 100 feeds (fresh file, WAL), and merge the
//   same 100,000 again unchanged;
// - the newest 50 unread articles of one feed among 1,000,000 (300 feeds, ~70% unread);
// - indexing the 100,000 for search, words and trigrams (done in bulk after merges, not inside
//   them);
// - searches over the 100,000: a rare word, a rare substring inside words, a rare two-character
//   Japanese word inside a run, a rare emoji, and common words.
// One iteration of a merge benchmark is the whole 100,000; divide to get articles/s.

private let benchDirectory = URL(fileURLWithPath: "/tmp/tidings-bench")
private let words = Array(
    ("feed reader article server client request response cache swift parser stream buffer index query "
        + "network storage config refresh update delete insert select table column value error result "
        + "household task chore weekly monthly garden kitchen laundry recycle bins window energy").split(separator: " ")
)

/// A deterministic generator, so every run measures the same data.
private struct Generator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state >> 33
    }
    mutating func text(bytes: Int) -> String {
        var text = ""
        while text.utf8.count < bytes { text += words[Int(next() % UInt64(words.count))] + " " }
        return text
    }
}

/// `count` articles for `feedID` with ~1 KB of text each, dated one hour apart: like the
/// sqlite3 baseline's rows (title, URL, date, ~1 KB of content), as a JSON Feed item with
/// `content_text` only would arrive.
private func makeArticles(feedID: Int64, count: Int, seed: UInt64, contentBytes: Int = 1_000) -> [Article] {
    var generator = Generator(state: seed)
    let base = Date().addingTimeInterval(-Double(count) * 3600)
    return (0..<count).map { index in
        // One article in 500 holds each rare thing, for selective searches: a word (in the
        // text), a Japanese phrase (in the title) and an emoji (in the text).
        let title = generator.text(bytes: 40) + (index % 500 == 11 ? " 今日は天気予報" : "")
        let text =
            generator.text(bytes: contentBytes) + (index % 500 == 7 ? " zeppelin" : "")
            + (index % 500 == 13 ? " 🦀" : "")
        return Article(
            feedID: feedID, uniqueID: "tag:feed\(feedID).example.com,2026:\(seed):\(index)",
            title: title, link: URL(string: "https://feed\(feedID).example.com/posts/\(index)"),
            published: base.addingTimeInterval(Double(index) * 3600 + Double(feedID)),
            contentText: text)
    }
}

/// A new database file (and its WAL files) replacing any earlier one.
private func freshDatabase(_ name: String) throws -> AppDatabase {
    try FileManager.default.createDirectory(at: benchDirectory, withIntermediateDirectories: true)
    let path = benchDirectory.appendingPathComponent(name).path
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    return try AppDatabase(path: path)
}

/// Subscribes `feeds` feeds and returns their ids.
private func addFeeds(_ database: AppDatabase, count: Int) async throws -> [Int64] {
    let repository = FeedRepository(database: database)
    var ids: [Int64] = []
    for index in 0..<count {
        let feed = try await repository.add(
            FeedSource(url: URL(string: "https://feed\(index).example.com/feed.xml")!, title: "Feed \(index)"))
        ids.append(feed.id ?? 0)
    }
    return ids
}

/// Data made in setup and only read while measuring (the runner runs setup, then the
/// iterations, one after the other), so the unchecked sendability is never exercised.
private final class State: @unchecked Sendable {
    var batches: [[Article]] = []
    var database: AppDatabase?
    var feedIDs: [Int64] = []
}

/// 100,000 merged and indexed articles for the search benchmarks (each benchmark runs in a
/// process of its own, so each prepares its data).
private func prepareSearch(_ state: State) async throws {
    if state.database == nil {
        let database = try freshDatabase("search.sqlite")
        state.feedIDs = try await addFeeds(database, count: 100)
        for (index, feedID) in state.feedIDs.enumerated() {
            let batch = makeArticles(feedID: feedID, count: 1_000, seed: UInt64(index + 1))
            _ = try await ArticleRepository(database: database).merge(batch, intoFeed: feedID)
        }
        state.database = database
    }
    if let database = state.database { _ = try await ArticleRepository(database: database).updateSearchIndex() }
}

let benchmarks: @Sendable () -> Void = {
    let heavy = Benchmark.Configuration(
        metrics: [.wallClock, .peakMemoryResident], warmupIterations: 0, scalingFactor: .one,
        maxDuration: .seconds(60), maxIterations: 5)
    let query = Benchmark.Configuration(
        metrics: [.wallClock, .throughput], warmupIterations: 10, scalingFactor: .one, maxDuration: .seconds(5))

    let merge = State()
    Benchmark(
        "Storage: merge 100,000 articles into 100 feeds (fresh file)", configuration: heavy,
        closure: { benchmark in
            for _ in benchmark.scaledIterations {
                let database = try freshDatabase("merge.sqlite")
                let feedIDs = try await addFeeds(database, count: 100)
                let articles = ArticleRepository(database: database)
                benchmark.startMeasurement()
                for (feedID, batch) in zip(feedIDs, merge.batches) {
                    blackHole(try await articles.merge(batch, intoFeed: feedID))
                }
                benchmark.stopMeasurement()
            }
        },
        setup: {
            merge.batches = (1...100).map { makeArticles(feedID: Int64($0), count: 1_000, seed: UInt64($0)) }
        })

    let remerge = State()
    Benchmark(
        "Storage: re-merge 100,000 unchanged articles", configuration: heavy,
        closure: { benchmark in
            guard let database = remerge.database else { return }
            let articles = ArticleRepository(database: database)
            for _ in benchmark.scaledIterations {
                for (feedID, batch) in zip(remerge.feedIDs, remerge.batches) {
                    blackHole(try await articles.merge(batch, intoFeed: feedID))
                }
            }
        },
        setup: {
            let database = try freshDatabase("remerge.sqlite")
            remerge.feedIDs = try await addFeeds(database, count: 100)
            remerge.batches = (1...100).map { makeArticles(feedID: Int64($0), count: 1_000, seed: UInt64($0)) }
            for (feedID, batch) in zip(remerge.feedIDs, remerge.batches) {
                _ = try await ArticleRepository(database: database).merge(batch, intoFeed: feedID)
            }
            remerge.database = database
        })

    let index = State()
    Benchmark(
        "Storage: index 100,000 merged articles for search (words and trigrams)", configuration: heavy,
        closure: { benchmark in
            for _ in benchmark.scaledIterations {
                let database = try freshDatabase("index.sqlite")
                let feedIDs = try await addFeeds(database, count: 100)
                let articles = ArticleRepository(database: database)
                for (feedID, batch) in zip(feedIDs, index.batches) {
                    _ = try await articles.merge(batch, intoFeed: feedID)
                }
                benchmark.startMeasurement()
                blackHole(try await articles.updateSearchIndex())
                benchmark.stopMeasurement()
            }
        },
        setup: {
            index.batches = (1...100).map { makeArticles(feedID: Int64($0), count: 1_000, seed: UInt64($0)) }
        })

    Benchmark(
        "Storage: full-text search over 100,000 articles, rare word (200 matches, 50 newest)", configuration: query,
        closure: { benchmark in
            guard let database = remerge.database else { return }
            let articles = ArticleRepository(database: database)
            for _ in benchmark.scaledIterations {
                blackHole(try await articles.articles(matching: ArticleQuery(search: "zeppelin"), limit: 50))
            }
        },
        setup: { try await prepareSearch(remerge) })

    for (name, text) in [
        ("rare substring inside words (eppeli: 200 matches)", "eppeli"),
        ("rare two-character Japanese word inside a run (天気: 200 matches)", "天気"),
        ("rare emoji (🦀: 200 matches)", "🦀"),
    ] {
        Benchmark(
            "Storage: search over 100,000 articles, \(name), 50 newest", configuration: query,
            closure: { benchmark in
                guard let database = remerge.database else { return }
                let articles = ArticleRepository(database: database)
                for _ in benchmark.scaledIterations {
                    blackHole(try await articles.articles(matching: ArticleQuery(search: text), limit: 50))
                }
            },
            setup: { try await prepareSearch(remerge) })
    }

    Benchmark(
        "Storage: full-text search over 100,000 articles, common words (~96,000 matches, 50 newest)",
        configuration: query,
        closure: { benchmark in
            guard let database = remerge.database else { return }
            let articles = ArticleRepository(database: database)
            for _ in benchmark.scaledIterations {
                blackHole(try await articles.articles(matching: ArticleQuery(search: "parser stream"), limit: 50))
            }
        },
        setup: { try await prepareSearch(remerge) })

    let million = State()
    Benchmark(
        "Storage: newest 50 unread of one feed (1,000,000 articles)", configuration: query,
        closure: { benchmark in
            guard let database = million.database else { return }
            let articles = ArticleRepository(database: database)
            var feed = 0
            for _ in benchmark.scaledIterations {
                feed = (feed + 1) % million.feedIDs.count
                blackHole(
                    try await articles.articles(
                        matching: ArticleQuery(feedID: million.feedIDs[feed], unreadOnly: true), limit: 50))
            }
        },
        setup: {
            // Built once and kept: 1,000,000 articles take a while to merge.
            let path = benchDirectory.appendingPathComponent("million-v2.sqlite").path
            if FileManager.default.fileExists(atPath: path), let database = try? AppDatabase(path: path) {
                million.database = database
                million.feedIDs = try await FeedRepository(database: database).all().compactMap(\.id)
                if million.feedIDs.count == 300 { return }
            }
            let database = try freshDatabase("million-v2.sqlite")
            let feedIDs = try await addFeeds(database, count: 300)
            let articles = ArticleRepository(database: database)
            var generator = Generator(state: 42)
            for (index, feedID) in feedIDs.enumerated() {
                let count = 1_000_000 / 300 + (index < 1_000_000 % 300 ? 1 : 0)
                let batch = makeArticles(feedID: feedID, count: count, seed: UInt64(1_000 + index))
                let ids = try await articles.merge(batch, intoFeed: feedID).inserted
                let read = ids.filter { _ in generator.next() % 10 < 3 }
                try await articles.setRead(true, ids: read, source: .app)
            }
            million.database = database
            million.feedIDs = feedIDs
        })
}
