import Foundation
import Models
import Testing

@testable import FeedParser

/// RFC 3986 5.2.2: an empty reference resolves to the base URL (without its fragment). Every
/// URL-bearing attribute is resolved so; an element with no text is no URL.
@Suite("Empty references resolve to the base")
struct EmptyReferenceTests {
    @Test("Atom link href=\"\" under xml:base: the feed's self and alternate links, an entry's link and enclosure")
    func atom() throws {
        let feed = try parseFixture("atom/empty-href.xml", url: "https://elsewhere.example/feed.xml")
        #expect(feed.feedURL == URL(string: "https://empty-href.example/blog/"))
        #expect(feed.link == URL(string: "https://empty-href.example/blog/"))
        let entry = try #require(feed.items.first)
        #expect(entry.link == URL(string: "https://empty-href.example/blog/posts/1"))
        #expect(
            entry.enclosures == [
                Enclosure(
                    url: URL(string: "https://empty-href.example/blog/posts/1")!, mimeType: "audio/mpeg", length: 10)
            ])
    }

    @Test("RSS attributes: enclosure url, media:content url, itunes:image href")
    func rssAttributes() throws {
        let feed = try parseDocument(
            """
            <rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"
                 xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel>
            <title>T</title><itunes:image href="" xml:base="https://img.example/cover.jpg"/>
            <item><guid>1</guid><enclosure url="" xml:base="https://media.example/a.mp3" type="audio/mpeg"/>
            <media:content url="" xml:base="https://media.example/b.mp4" type="video/mp4"/></item>
            </channel></rss>
            """, url: "https://doc.example/feed.xml")
        #expect(feed.icon == URL(string: "https://img.example/cover.jpg"))
        #expect(
            feed.items.first?.enclosures.map(\.url) == [
                URL(string: "https://media.example/a.mp3")!, URL(string: "https://media.example/b.mp4")!,
            ])
    }

    @Test("an empty element is no URL: <link></link> leaves the feed's link absent")
    func emptyElement() throws {
        let feed = try parseDocument(
            "<rss version=\"2.0\"><channel><title>T</title><link></link><item><guid>1</guid><link/></item></channel></rss>",
            url: "https://doc.example/feed.xml")
        #expect(feed.link == nil)
        #expect(feed.items.first?.link == nil)
    }
}
