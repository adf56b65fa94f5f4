import Benchmark
import Feed
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
                    for (data, url) in files.documents { blackHole(try FeedParser.parse(data: data, url: url)) }
                }
            },
            setup: { try load(files, matching: { set.extensions.contains($0.pathExtension) }, in: set.folder) })
    }
}
