import Feed
import Foundation

// Subscribes to a feed (a path or URL given as the first argument, else kitchen.xml in the
// current directory) in an in-memory store, then lists its articles, newest first.
//
// Feed alone names neither a transport (`CurlTransport` is Networking's) nor `ArticleQuery`
// (Models'), so this program reads file feeds with a fetcher of its own instead of
// `HTTPFeedFetcher(transport: CurlTransport())`, and writes the query as `.init()`.

/// Reads `file:` URLs from disk: a `FeedFetching` built from Feed's own types.
struct FileFetcher: FeedFetching {
    func fetch(_ url: URL, etag: String?, lastModified: String?) async throws(FeedError) -> FetchOutcome {
        do {
            return .fetched(FetchedDocument(body: try Data(contentsOf: url), url: url))
        } catch {
            throw .file(error.localizedDescription)
        }
    }
}

let feedURL = try FeedService.url(from: CommandLine.arguments.dropFirst().first ?? "kitchen.xml")
let service = FeedService(store: try LocalStore.inMemory(), fetcher: FileFetcher())
let subscription = try await service.subscribe(url: feedURL)
print("\(subscription.feed.title): \(subscription.itemCount) articles")
for stored in try await service.articles(matching: .init()) {
    print("-", stored.article.title ?? "(untitled)")
}
