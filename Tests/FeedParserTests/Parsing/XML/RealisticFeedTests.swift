import Foundation
import Models
import Testing

@testable import FeedParser

/// Larger feeds shaped like what popular publishing tools emit.
@Suite("Realistic feeds")
struct RealisticFeedTests {
    /// 2021-03-13T09:00:00Z
    let reference = Date(timeIntervalSince1970: 1_615_626_000)

    @Test("a WordPress RSS 2.0 feed: namespaces, CDATA, image, non-permalink guids, scripts dropped from text")
    func wordpress() throws {
        let feed = try parseFixture("rss/realistic-wordpress.xml")
        #expect(feed.format == .rss20)
        #expect(feed.title == "WP Example – a WordPress blog")
        #expect(feed.link == URL(string: "https://wp.example"))
        #expect(feed.feedURL == URL(string: "https://wp.example/feed/"))
        #expect(feed.icon == URL(string: "https://wp.example/wp-content/uploads/icon-32x32.png"))
        #expect(feed.updated == reference)
        #expect(feed.language == "en-US")
        #expect(feed.warnings.isEmpty)
        #expect(feed.items.count == 30)
        let first = try #require(feed.items.first)
        #expect(first.title == "Post number 1: the quick brown fox jumps")
        #expect(first.id == "https://wp.example/?p=1000")
        #expect(first.link == URL(string: "https://wp.example/2021/03/13/post-1/"))
        #expect(first.published == reference)
        #expect(first.authors == [Author(name: "alice")])
        #expect(first.categories == ["Category 0", "Tag 0"])
        #expect(first.summary?.hasPrefix("the quick brown fox") == true)
        #expect(first.contentHTML?.hasPrefix("<p>the quick brown fox") == true)
        #expect(first.contentText?.contains("Related &") == true)
        #expect(first.contentText?.contains("trackView") == false)
        #expect(feed.items.last?.published == reference.addingTimeInterval(-7 * 3600 * 29))
        #expect(Set(feed.items.map(\.uniqueID)).count == 30)
    }

    @Test("a podcast feed: iTunes author and image, one enclosure per episode (media:content not repeated)")
    func podcast() throws {
        let feed = try parseFixture("rss/realistic-podcast.xml")
        #expect(feed.title == "The Example Podcast")
        #expect(feed.authors == [Author(name: "The Hosts")])
        #expect(feed.icon == URL(string: "https://pod.example/cover.jpg"))
        #expect(feed.feedURL == URL(string: "https://pod.example/feed.xml"))
        #expect(feed.items.count == 25)
        let latest = feed.items[0]
        #expect(latest.title?.hasPrefix("Episode 25: ") == true)
        #expect(latest.id == "pod-episode-25")
        #expect(latest.authors == [Author(name: "Guest 0")])
        #expect(feed.items[1].authors == [Author(name: "The Hosts")])
        #expect(
            latest.enclosures == [
                Enclosure(
                    url: URL(string: "https://media.pod.example/ep25.mp3")!, mimeType: "audio/mpeg", length: 20_000_000)
            ])
        #expect(latest.contentHTML?.hasPrefix("<p>the quick") == true)
        #expect(latest.contentText?.hasSuffix("Show note one\nShow note two") == true)
        #expect(feed.items[24].published == reference.addingTimeInterval(-7 * 86_400 * 24))
    }

    @Test("a Blogger Atom feed: many link relations, html subtitle, authors with extension elements")
    func blogger() throws {
        let feed = try parseFixture("atom/realistic-blogger.xml")
        #expect(feed.format == .atom10)
        #expect(feed.title == "Example Blogger Blog")
        #expect(feed.description == "Notes & thoughts")
        #expect(feed.link == URL(string: "https://blog.example/"))
        #expect(feed.feedURL == URL(string: "https://www.blogger.com/feeds/123/posts/default?redirect=false"))
        #expect(feed.updated == reference)
        #expect(feed.items.count == 25)
        let first = try #require(feed.items.first)
        #expect(first.id == "tag:blogger.com,1999:blog-123.post-9000")
        #expect(first.title == "the quick brown fox jumps over #1")
        #expect(first.link == URL(string: "https://blog.example/2021/03/post-0.html"))
        #expect(first.published == reference)
        #expect(first.updated == reference.addingTimeInterval(1800))
        #expect(first.categories == ["label0"])
        #expect(
            first.authors == [
                Author(name: "Blog Author", email: "noreply@blogger.com", uri: "https://www.blogger.com/profile/1")
            ])
        #expect(first.contentHTML?.hasPrefix(#"<div dir="ltr"><p>the quick"#) == true)
        #expect(first.contentText?.hasSuffix("\nmore") == true)
    }

    @Test("a JSON Feed 1.1 microblog: untitled posts, text or HTML content, attachments, per-item authors")
    func microblog() throws {
        let feed = try parseFixture("jsonfeed/realistic-microblog.json")
        #expect(feed.format == .jsonFeed11)
        #expect(feed.items.count == 40)
        #expect(feed.authors == [Author(name: "Micro Author", uri: "https://micro.example/")])
        #expect(feed.items[0].title == "the quick brown fox jumps")
        #expect(feed.items[1].title == nil)
        #expect(feed.items[1].contentHTML == nil)
        #expect(feed.items[1].contentText?.isEmpty == false)
        #expect(feed.items[0].authors == [Author(name: "Guest", uri: "https://guest.example/")])
        #expect(feed.items[7].enclosures.map(\.url) == [URL(string: "https://micro.example/uploads/7.jpg")!])
        #expect(feed.items[39].published == reference.addingTimeInterval(-3 * 3600 * 39))
        #expect(Set(feed.items.map(\.uniqueID)).count == 40)
    }
}
