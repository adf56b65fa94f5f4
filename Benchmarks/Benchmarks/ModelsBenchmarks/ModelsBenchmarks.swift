import Benchmark
import Foundation
import Models

// JSON coding of a realistic batch of articles with the coders Tidings uses at its edges
// (`JSONCoding.encoder()` / `JSONCoding.decoder()`: snake_case keys, RFC 3339 dates).
//
// One iteration = the whole batch of 5,000 articles, so `scalingFactor` is `.one` and the
// wall-clock figures are per batch. The encoded batch is 11,295,598 bytes (measured with
// Swift 6.3.1 on Linux; it changes if `makeArticles()` or the coders change), so
// MB/s = 11.295598 / wall-clock median in seconds (= 11.3 × throughput in batches/s).

private let articleCount = 5_000

/// 5,000 deterministic articles: ~60-char title, permalink, published date, one author,
/// ~200-char summary, ~1.5 KB of HTML content, two categories, and an audio enclosure on
/// every fourth article.
private func makeArticles() -> [Article] {
    let paragraph =
        "Swift concurrency makes data races a compile-time error, but moving an existing code base "
        + "over takes care: actors, Sendable checking and isolation regions all change how state flows."
    let base = Date(timeIntervalSince1970: 1_700_000_000)
    let topics = ["swift", "linux", "performance", "networking", "databases", "tooling", "testing", "design"]

    return (0..<articleCount).map { index in
        let feedID = Int64(index % 40 + 1)
        let slug = "article-\(index)-on-structured-concurrency"
        let title = "Article \(index): What structured concurrency means for your app"
        let intro =
            "A closer look at \(topics[index % topics.count]) in practice, with measurements, trade-offs "
            + "and the changes we made after shipping it to users over several releases. "
        let summary = String((intro + paragraph).prefix(200))
        var html = "<article><h1>\(title)</h1>"
        for part in 0..<6 {
            html += "<p>\(paragraph) <a href=\"https://example.com/notes/\(index)/\(part)\">Read more</a>.</p>"
        }
        html += "</article>"

        var enclosures: [Enclosure] = []
        if index % 4 == 0 {
            enclosures.append(
                Enclosure(
                    url: URL(string: "https://cdn.example.com/audio/episode-\(index).mp3")!,
                    mimeType: "audio/mpeg", length: 24_000_000 + Int64(index)))
        }

        return Article(
            feedID: feedID,
            uniqueID: "https://example.com/\(feedID)/\(slug)",
            externalID: "tag:example.com,2024:\(index)",
            title: title,
            link: URL(string: "https://example.com/\(feedID)/\(slug)")!,
            published: base.addingTimeInterval(Double(index) * 3_607),
            authors: [Author(name: "Author \(index % 97)", email: "author\(index % 97)@example.com")],
            summary: summary,
            contentHTML: html,
            categories: [topics[index % topics.count], topics[(index + 3) % topics.count]],
            enclosures: enclosures)
    }
}

let benchmarks: @Sendable () -> Void = {
    let articles = makeArticles()
    let encoded: Data
    do {
        encoded = try JSONCoding.encoder().encode(articles)
    } catch {
        fatalError("could not encode the benchmark input: \(error)")
    }

    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        scalingFactor: .one,
        // An iteration takes ~0.1-0.2 s; 3 s gives enough samples for a meaningful p90.
        maxDuration: .seconds(3))

    Benchmark("JSON decode 5,000 articles", configuration: configuration) { benchmark in
        let decoder = JSONCoding.decoder()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try decoder.decode([Article].self, from: encoded))
        }
    }

    // The same decode with Foundation's own ISO 8601 date strategy, for comparison with the
    // hand-written RFC 3339 reader `JSONCoding` uses.
    Benchmark("JSON decode 5,000 articles (Foundation .iso8601 dates)", configuration: configuration) { benchmark in
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try decoder.decode([Article].self, from: encoded))
        }
    }

    Benchmark("JSON encode 5,000 articles", configuration: configuration) { benchmark in
        let encoder = JSONCoding.encoder()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try encoder.encode(articles))
        }
    }
}
