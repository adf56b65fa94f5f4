import Foundation
import Testing

@testable import Feed

@Suite("Feed discovery")
struct FeedDiscoveryTests {
    @Test("alternate feed links are found in page order, resolved against <base>, without repeats")
    func links() throws {
        let page = try #require(URL(string: "https://blog.example.com/posts/1"))
        let feeds = FeedDiscovery.feedLinks(inHTML: try fixture("other/discovery.html"), pageURL: page)
        #expect(
            feeds.map(\.url.absoluteString) == [
                "https://blog.example.com/sub/feed.xml", "https://blog.example.com/atom.xml",
                "https://blog.example.com/feed.json", "https://blog.example.com/comments.rss",
            ])
        #expect(feeds.first?.title == "RSS & more")
        #expect(
            feeds.map(\.type) == [
                "application/rss+xml", "application/atom+xml", "application/feed+json", "application/rss+xml",
            ])
    }

    @Test("a page without feed links finds none; the common paths are offered for the site")
    func fallbacks() throws {
        let page = try #require(URL(string: "https://site.example/a/b.html"))
        #expect(FeedDiscovery.feedLinks(inHTML: Data("<html><head></head></html>".utf8), pageURL: page).isEmpty)
        #expect(
            FeedDiscovery.commonFeedURLs(for: page).map(\.absoluteString) == [
                "https://site.example/feed", "https://site.example/rss", "https://site.example/atom.xml",
                "https://site.example/feed.json", "https://site.example/index.xml",
            ])
    }
}
