import Foundation
import Models
import Testing

@testable import FeedParser

/// Issue 13: the URLs inside an item's HTML are absolute, as its links are.
@Suite("Relative URLs in items")
struct RelativeURLTests {
    @Test("relative URLs inside content and summary HTML resolve against the item's link")
    func relativeURLsInContent() throws {
        let feed = try parseFixture("rss/relative-urls-in-content.xml", url: "https://site.example/feed.xml")
        let item = try #require(feed.items.first)
        let post = "https://site.example/blog/2024/post-1/"
        #expect(
            item.contentHTML == """
                <p><a href="https://site.example/blog/2024/other/">other</a> <img src="\(post)img/a.png" \
                srcset="\(post)img/a-1x.png 1x, https://site.example/img/a-2x.png 2x" alt="a"> <a href="\(post)#fn1">1</a>
                <a href="https://abs.example/x?a=1&amp;b=2">abs</a> <a href="javascript:alert(1)">js</a> \
                <img src="data:image/png;base64,AAAA"> <a href="mailto:jo@example.com">mail</a>
                <video poster="\(post)poster.jpg" src="\(post)v.mp4"></video> \
                <blockquote cite="https://site.example/quote">q</blockquote> <form action="\(post)submit"></form> \
                <object data="\(post)movie.swf"></object>
                <a href='https://cdn.example/x'>cdn</a> <a href=\(post)unquoted.html>u</a> \
                <A HREF="\(post)upper.html">U</A> <span title="src=not-a-url.png">t</span></p>
                """)
        #expect(item.summary == #"<a href="https://site.example/about">About</a> <img src='\#(post)me.png'>"#)
        #expect(feed.items.last?.contentHTML == #"<img src="https://site.example/logo.png">"#)
    }

    @Test("xml:base on the content, else on an ancestor, wins over the entry's link")
    func relativeURLsUnderXMLBase() throws {
        let feed = try parseFixture("atom/relative-urls-in-content.xml", url: "https://feed.example/atom.xml")
        #expect(feed.items.first?.contentHTML == #"<img src="https://base.example/entries/1/pic.png">"#)
        #expect(feed.items.first?.summary == #"<a href="https://base.example/root/more.html">more</a>"#)
        #expect(feed.items.last?.contentHTML == #"<a href="https://base.example/root/x.html">x</a>"#)
    }

    @Test("content HTML is never resolved against a base that is not http(s)")
    func noFileBase() throws {
        let document =
            #"<rss version="2.0"><channel><item><guid>1</guid><description>&lt;img src="a.png"&gt;</description></item></channel></rss>"#
        let feed = try FeedDocumentParser.parse(data: Data(document.utf8), url: URL(fileURLWithPath: "/tmp/feed.xml"))
        #expect(feed.items.first?.contentHTML == #"<img src="a.png">"#)
    }

    @Test("a relative Atom author or contributor <uri> resolves against xml:base, else the document URL")
    func relativeAuthorURI() throws {
        let feed = try parseFixture("atom/author-uri-relative.xml", url: "https://people.example/feeds/feed.atom")
        #expect(feed.authors == [Author(name: "Jo", uri: "https://people.example/about/jo")])
        #expect(
            feed.items.first?.authors == [
                Author(name: "Guest", uri: "https://other.example/blog/guest"),
                Author(name: "Helper", uri: "https://other.example/people/helper"),
            ])
    }
}
