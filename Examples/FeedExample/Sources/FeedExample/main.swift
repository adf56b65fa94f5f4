import DefaultTransport
import Feed
import Store

// Subscribes to a feed (a path or URL given as the first argument, else kitchen.xml in the
// current directory) in an in-memory store, then lists its articles, newest first. The app picks
// the transport (the platform's, from DefaultTransport; the fetcher reads file feeds itself) and
// opens the store; Feed re-exports the Models values its API speaks (`ArticleQuery`, `Article`).

let feedURL = try FeedService.url(from: CommandLine.arguments.dropFirst().first ?? "kitchen.xml")
let service = FeedService(store: try LocalStore.inMemory(), fetcher: HTTPFeedFetcher(transport: makeDefaultTransport()))
let subscription = try await service.subscribe(url: feedURL)
print("\(subscription.feed.title): \(subscription.itemCount) articles")
for stored in try await service.articles(matching: ArticleQuery()) {
    print("-", stored.article.title ?? "(untitled)")
}
