import Foundation
import Testing

@testable import FeedParser

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

    @Test("a page from the web leads only to http(s) feed links; a local page may link to local files")
    func remotePagesLeadOnlyToTheWeb() throws {
        let html = Data(
            """
            <html><head>
            <link rel="alternate" type="application/rss+xml" href="file:///home/me/notes.xml">
            <link rel="alternate" type="application/rss+xml" href="FILE:/etc/passwd">
            <link rel="alternate" type="application/atom+xml" href="gopher://127.0.0.1:6379/_x">
            <link rel="alternate" type="application/atom+xml" href="javascript:alert(1)">
            <link rel="alternate" type="application/rss+xml" href="//cdn.example/feed.xml">
            <link rel="alternate" type="application/rss+xml" href="https://site.example/real.xml">
            </head></html>
            """.utf8)
        let remote = try #require(URL(string: "http://site.example/page"))
        #expect(
            FeedDiscovery.feedLinks(inHTML: html, pageURL: remote).map(\.url.absoluteString) == [
                "http://cdn.example/feed.xml", "https://site.example/real.xml",
            ])
        let local = URL(fileURLWithPath: "/home/me/page.html")
        #expect(
            FeedDiscovery.feedLinks(inHTML: html, pageURL: local).map(\.url.absoluteString).first
                == "file:///home/me/notes.xml")
    }

    @Test("a <base href=\"file:...\"> on a web page cannot turn relative links into local files")
    func fileBaseOnARemotePage() throws {
        let html = Data(
            """
            <html><head><base href="file:///home/me/">
            <link rel="alternate" type="application/rss+xml" href="notes.xml"></head></html>
            """.utf8)
        let remote = try #require(URL(string: "https://site.example/page"))
        #expect(FeedDiscovery.feedLinks(inHTML: html, pageURL: remote).isEmpty)
    }

    @Test("a > inside a quoted attribute value does not end the link tag")
    func quotedGreaterThan() throws {
        let html = Data(
            #"<html><head><link title="a > b" rel="alternate" type="application/rss+xml" href="/feed"></head></html>"#
                .utf8)
        let page = try #require(URL(string: "https://site.example/page"))
        let feeds = FeedDiscovery.feedLinks(inHTML: html, pageURL: page)
        #expect(feeds.map(\.url.absoluteString) == ["https://site.example/feed"])
        #expect(feeds.first?.title == "a > b")
    }

    @Test("a link in a comment, a script or the title is not one of the page's links, nor a <body> in a script its end")
    func markupThatIsNotALink() throws {
        let html = Data(
            """
            <html><head>
            <!-- <link rel="alternate" type="application/rss+xml" href="/old.xml"> -->
            <script>document.write('<link rel="alternate" type="application/rss+xml" href="/script.xml"><body>')</script>
            <title>Use <link rel="alternate" type="application/rss+xml" href="/title.xml"></title>
            <link rel="alternate" type="application/rss+xml" href="/real.xml">
            </head><body></body></html>
            """.utf8)
        let page = try #require(URL(string: "https://site.example/page"))
        #expect(
            FeedDiscovery.feedLinks(inHTML: html, pageURL: page).map(\.url.absoluteString) == [
                "https://site.example/real.xml"
            ])
    }
}
