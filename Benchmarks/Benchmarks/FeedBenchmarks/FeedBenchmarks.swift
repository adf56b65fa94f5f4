import Benchmark
import FeedParser
import Foundation

// Parse throughput on the shared corpus (../shared/bench/make-corpus.sh, `make bench` makes
// it): the 20 MB RSS of 10,000 items, the 250 typical XML feeds (150 RSS + 100 Atom, 100-200
// KB each), and the 50 JSON Feeds. Every item is parsed fully (content_text included). One
// iteration is the whole set; MB/s = set size / wall-clock time. Sizes are printed in setup.

private let corpus = URL(fileURLWithPath: ProcessInfo.processInfo.environment["TIDINGS_CORPUS"] ?? "/tmp/feedcorpus")

/// Loaded in setup, read while measuring (the runner runs them one after the other).
private final class Files: @unchecked Sendable {
    var documents: [(Data, URL)] = []
    var bytes: Int { documents.reduce(0) { $0 + $1.0.count } }
}

private func load(_ files: Files, matching predicate: (URL) -> Bool, in folder: String) throws {
    let directory = corpus.appendingPathComponent(folder)
    let urls = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        .filter(predicate).sorted { $0.path < $1.path }
    guard !urls.isEmpty else { throw FeedParseError.notAFeed("no corpus at \(directory.path): run make-corpus.sh") }
    files.documents = try urls.map { (try Data(contentsOf: $0), $0) }
    print("\(folder): \(urls.count) files, \(files.bytes) bytes")
}

let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .peakMemoryResident], warmupIterations: 1, scalingFactor: .one,
        maxDuration: .seconds(15), maxIterations: 20)

    let sets: [(name: String, folder: String, extensions: Set<String>)] = [
        ("Feed: parse the 20 MB RSS (10,000 items)", "large", ["rss"]),
        ("Feed: parse 250 typical feeds (150 RSS + 100 Atom)", "feeds", ["rss", "atom"]),
        ("Feed: parse 50 JSON Feeds", "feeds", ["json"]),
    ]
    for set in sets {
        let files = Files()
        Benchmark(
            set.name, configuration: configuration,
            closure: { benchmark in
                for _ in benchmark.scaledIterations {
                    for (data, url) in files.documents { blackHole(try FeedDocumentParser.parse(data: data, url: url)) }
                }
            },
            setup: { try load(files, matching: { set.extensions.contains($0.pathExtension) }, in: set.folder) })
    }

    // Bounded memory: a 10 MB RSS document (10,000 items of 1 KB) built in setup. The resident
    // delta is what parsing adds on top of the document: the reader streams it through libxml2
    // in 256 KB chunks and keeps no tree, so the delta is the parsed items themselves.
    let large = Files()
    Benchmark(
        "Feed: parse a 10 MB RSS (memory)",
        configuration: .init(
            metrics: [.wallClock, .peakMemoryResidentDelta, .peakMemoryResident, .mallocCountTotal],
            warmupIterations: 1, scalingFactor: .one, maxDuration: .seconds(10), maxIterations: 10),
        closure: { benchmark in
            for _ in benchmark.scaledIterations {
                for (data, url) in large.documents { blackHole(try FeedDocumentParser.parse(data: data, url: url)) }
            }
        },
        setup: {
            large.documents = [(tenMegabyteFeed(), URL(fileURLWithPath: "/generated.rss"))]
            print("generated: 1 file, \(large.bytes) bytes")
        })
}

/// About 10 MB of RSS: 10,000 items with 1 KB of escaped HTML each.
private func tenMegabyteFeed() -> Data {
    var document = #"<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Large</title>"#
    let body = String(repeating: "Lorem ipsum dolor sit amet, consectetur adipiscing elit. ", count: 17)
    for index in 0..<10_000 {
        document += "<item><title>Item \(index)</title><guid>g\(index)</guid>"
        document += "<description>&lt;p&gt;\(body)&lt;/p&gt;</description></item>\n"
    }
    return Data((document + "</channel></rss>").utf8)
}
