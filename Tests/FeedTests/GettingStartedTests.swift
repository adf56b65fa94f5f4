import DefaultTransport
import Feed
import Foundation
import Models
import Networking
import Store
import Testing

// The getting-started snippet of Sources/Feed/Feed.docc/Feed.md, compiled and run.
// DocumentationTests (REPLTests) checks that the page shows this code verbatim.

/// Subscribes to the feed at `feedURL` in the store at `storePath` (created when missing) and
/// returns the titles of its articles, newest first.
func subscribeAndList(feedURL: URL, storePath: String) async throws -> [String] {
    let store = try LocalStore.open(path: storePath)
    let service = FeedService(store: store, fetcher: HTTPFeedFetcher(transport: makeDefaultTransport()))
    let subscription = try await service.subscribe(url: feedURL)
    print("subscribed to \(subscription.feed.title): \(subscription.newCount) new articles")
    let articles = try await service.articles(matching: ArticleQuery(feedID: subscription.feed.id))
    return articles.map { $0.article.title ?? "(untitled)" }
}

@Suite("Feed: getting started")
struct FeedGettingStartedTests {
    static let rss = """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0"><channel>
          <title>Kitchen notes</title><link>https://example.com/</link>
          <item><title>Sourdough starter</title><guid>1</guid><pubDate>Mon, 02 Nov 2026 08:00:00 GMT</pubDate></item>
          <item><title>Garlic confit</title><guid>2</guid><pubDate>Tue, 03 Nov 2026 08:00:00 GMT</pubDate></item>
        </channel></rss>
        """

    @Test("a file feed is subscribed to and its articles are listed newest first, and stay stored")
    func fileFeedListed() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tidings-feed-start-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let feedURL = directory.appendingPathComponent("kitchen.xml")
        try Data(Self.rss.utf8).write(to: feedURL)
        let storePath = directory.appendingPathComponent("tidings.sqlite").path

        let titles = try await subscribeAndList(feedURL: feedURL, storePath: storePath)

        #expect(titles == ["Garlic confit", "Sourdough starter"])
        let reopened = FeedService(
            store: try LocalStore.open(path: storePath), fetcher: HTTPFeedFetcher(transport: CurlTransport()))
        #expect(try await reopened.subscriptions().map(\.title) == ["Kitchen notes"])
    }
}
