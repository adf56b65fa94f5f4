import Foundation
import Models
import Storage

/// A helper for the storage crash test (not a user command): merges batches of articles into
/// new feeds in a loop, one transaction per batch, and prints `merged <feed id> <count>` after
/// each commit, until it is killed. The test kills it with SIGKILL mid-merge and checks that
/// the database is sound and holds whole batches only.
@main
struct MergeUntilKilled {
    static func main() async {
        let arguments = CommandLine.arguments
        guard (3...4).contains(arguments.count), let batchSize = Int(arguments[2]),
            arguments.count == 3 || arguments[3] == "index"
        else {
            FileHandle.standardError.write(
                Data("usage: tidings-storage-probe <database> <articles per batch> [index]\n".utf8))
            exit(2)
        }
        do {
            let database = try AppDatabase(path: arguments[1])
            let feeds = FeedRepository(database: database)
            let articles = ArticleRepository(database: database)
            // With `index`, the search index is built beside the merges, as a refresh builds it,
            // so that the kill lands in its transactions too.
            if arguments.count == 4 {
                Task.detached {
                    while true {
                        let indexed = (try? await articles.updateSearchIndex(batchSize: 1_000)) ?? 0
                        if indexed > 0 { FileHandle.standardOutput.write(Data("indexed \(indexed)\n".utf8)) }
                        try? await Task.sleep(for: .milliseconds(5))
                    }
                }
            }
            let body = String(repeating: "Lorem ipsum dolor sit amet, consectetur adipiscing elit. ", count: 18)
            var round = 0
            while true {
                round += 1
                let feedURL = URL(string: "https://probe.example/\(UUID().uuidString)")
                guard let feedURL else { exit(1) }
                let feed = try await feeds.add(FeedSource(url: feedURL, title: "Probe \(round)"))
                guard let feedID = feed.id else { exit(1) }
                let batch = (0..<batchSize).map { index in
                    Article(
                        feedID: feedID, uniqueID: "probe-\(round)-\(index)",
                        title: "Article \(index) of round \(round)",
                        published: Date(timeIntervalSince1970: 1_700_000_000 + Double(index)), contentText: body)
                }
                let result = try await articles.merge(batch, intoFeed: feedID)
                FileHandle.standardOutput.write(Data("merged \(feedID) \(result.inserted.count)\n".utf8))
            }
        } catch {
            FileHandle.standardError.write(Data("tidings-storage-probe: \(error.localizedDescription)\n".utf8))
            exit(1)
        }
    }
}
