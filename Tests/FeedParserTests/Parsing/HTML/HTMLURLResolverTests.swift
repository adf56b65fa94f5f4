import Foundation
import Testing

@testable import FeedParser

@Suite("Relative URLs in HTML")
struct HTMLURLResolverTests {
    let base = URL(string: "https://site.example/posts/1/")

    @Test("URL attributes resolve; comments, scripts, styles and other attributes are left alone")
    func scope() {
        let html =
            #"<!-- <img src="c.png"> --><script>var s = '<img src="s.png">';</script><style>a{}</style><p class="a.png" data-src="x.png"><img src = b.png><source srcset="a.png, b.png 2x,  c.png 640w"></p>"#
        #expect(
            HTMLURLResolver.resolvingURLs(in: html, against: base)
                == #"<!-- <img src="c.png"> --><script>var s = '<img src="s.png">';</script><style>a{}</style><p class="a.png" data-src="x.png"><img src = https://site.example/posts/1/b.png><source srcset="https://site.example/posts/1/a.png, https://site.example/posts/1/b.png 2x,  https://site.example/posts/1/c.png 640w"></p>"#
        )
    }

    @Test("HTML without relative URLs, or a base that is not http(s), comes back as it is")
    func untouched() {
        let absolute = #"<a href="https://a.example/">a</a> <a href="mailto:x@example.com">m</a> <a href="">e</a>"#
        #expect(HTMLURLResolver.resolvingURLs(in: absolute, against: base) == absolute)
        let relative = #"<img src="a.png">"#
        #expect(HTMLURLResolver.resolvingURLs(in: relative, against: URL(string: "file:///tmp/feed.xml")) == relative)
        #expect(HTMLURLResolver.resolvingURLs(in: relative, against: nil) == relative)
        #expect(HTMLURLResolver.resolvingURLs(in: "5 < 6 and a=b", against: base) == "5 < 6 and a=b")
    }

    @Test("a > in an earlier quoted value does not end the tag; a textarea's or title's content is text, not markup")
    func tagsReadAsABrowserDoes() {
        let html =
            #"<a title="a > b" href="x.html">x</a><img alt='1 > 0' src=y.png><textarea><img src="t.png"></textarea><title><a href="t.html"></title><script src="s.js"/><img src="z.png">"#
        #expect(
            HTMLURLResolver.resolvingURLs(in: html, against: base)
                == #"<a title="a > b" href="https://site.example/posts/1/x.html">x</a><img alt='1 > 0' src=https://site.example/posts/1/y.png><textarea><img src="t.png"></textarea><title><a href="t.html"></title><script src="https://site.example/posts/1/s.js"/><img src="https://site.example/posts/1/z.png">"#
        )
    }

    @Test("a quote never closed ends its value at the tag's >: the HTML after it is not taken into the URL")
    func unbalancedQuote() {
        #expect(
            HTMLURLResolver.resolvingURLs(in: "<img src='a.png><p>Some text</p><a href=b.html>b</a>", against: base)
                == "<img src='https://site.example/posts/1/a.png><p>Some text</p><a href=https://site.example/posts/1/b.html>b</a>"
        )
    }
}
