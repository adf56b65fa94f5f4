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

    @Test("HTML whose URLs all have a scheme skips the tokenizer; every way of writing a relative one is seen")
    func candidates() {
        let absolute = [
            #"<p><a href="https://www.example.org/x?ref=feed&amp;id=3">a</a> <img src='http://i.example/p.png' width="320"></p>"#,
            #"<a HREF = " mailto:x@example.com" data-src="x.png" class=c>m</a> a = b, x=y"#,
            "<img srcs=a.png><a xhref=b.html><a data-href=c.html><p>5 = 5</p>",
            "",
        ]
        for html in absolute {
            #expect(!mayHoldRelativeURL(html), "\(html)")
        }
        let relative = [
            "<a href=x.html>", #"<a HREF = " x.html">"#, "<img src='a.png'>", #"<a title="t"href="x">"#,
            "<a/href=x>", "<a\thref\n=\nx>", #"<img srcset="https://a.example/x.png 1x, b.png 2x">"#,
            "<q cite=/quote>", "<video poster=p.jpg>", "<form action=?go>", "<object data=#o>",
            "<img longdesc=d.html>", "<td background=b.gif>", #"<a href="">"#, "<a href=>",
        ]
        for html in relative {
            #expect(mayHoldRelativeURL(html), "\(html)")
        }
    }

    @Test("the check changes nothing: fixtures and 20,000 generated pieces of HTML come out the same without it")
    func candidatesAgreeWithTokenizing() throws {
        var samples: [String] = []
        let resources = try #require(Bundle.module.url(forResource: "Resources", withExtension: nil))
        let files = try #require(FileManager.default.enumerator(at: resources, includingPropertiesForKeys: nil))
        for case let file as URL in files where !file.hasDirectoryPath {
            let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
            // As written (tags and attributes of XML), and with the escaped HTML inside it unescaped.
            samples.append(text)
            samples.append(
                text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                    .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&"))
        }
        #expect(samples.count > 150)
        var random = SplitMix64(seed: 7)
        for _ in 0..<20_000 {
            samples.append(generatedHTML(&random))
        }
        var skipped = 0
        var rewritten = 0
        for html in samples {
            let checked = HTMLURLResolver.resolvingURLs(in: html, against: base)
            let tokenized = HTMLURLResolver.resolvingURLs(in: html, against: base, checkingCandidatesFirst: false)
            #expect(checked == tokenized, "\(html.debugDescription)")
            if !mayHoldRelativeURL(html) { skipped += 1 }
            if tokenized != html { rewritten += 1 }
        }
        // Both ways are taken often: the check is what is being tested.
        #expect(skipped > 2_000)
        #expect(rewritten > 2_000)
    }

    /// A piece of HTML made of tags whose attributes meet their names, `=` and values in the ways
    /// HTML allows (and some it does not), with other pieces between them.
    private func generatedHTML(_ random: inout SplitMix64) -> String {
        func any(_ choices: [String]) -> String { choices[random.below(choices.count)] }
        var html = ""
        for _ in 0..<(1 + random.below(6)) {
            guard random.below(3) > 0 else {
                html += any(Self.pieces)
                continue
            }
            html += "<" + any(["a", "img", "source", "P", "q", "script", "textarea", "title"])
            for _ in 0..<random.below(4) {
                html += any([" ", " ", "\t", "/", "\"", "'", "", "\n "]) + any(Self.names)
                guard random.below(4) > 0 else { continue }
                let quote = any(["\"", "'", "", ""])
                html += any(["", " ", "\t"]) + "=" + any(["", " ", "\n"]) + quote + any(["", " ", ""])
                for _ in 0..<(1 + random.below(3)) { html += any(Self.values) }
                html += random.below(8) > 0 ? quote : ""
            }
            html += any([">", ">", "/>", " />", "", ">x"])
        }
        return html
    }

    private static let names = [
        "href", "HREF", "Src", "srcset", "src", "data", "cite", "action", "poster", "longdesc", "background",
        "data-src", "xhref", "title", "alt", "=href",
    ]

    private static let values = [
        "a.png", "x.html", "/root", "?q=1", "#f", "//cdn.example/i.png", "https://a.example/b", "http:", "HTTP://A/",
        "mailto:m@example.com", "javascript:x()", "data:,x", "h-1.x+y:z", " 1x", ", ", " 2x,", "a b", "é", "&amp;",
        ">", "=", "href=x",
    ]

    /// Pieces of HTML between the generated tags.
    private static let pieces = [
        " ", "\t", "\n", "\u{0C}", "/", ">", "/>", "=", " = ", "\"", "'", "href=x.png", "src = 'a.png'", "</a>",
        "<!--", "-->", "</script>", "</textarea>", "</title>", "<![CDATA[", "]]>", "<!DOCTYPE html>", "text", "5 < 6",
    ]

    private func mayHoldRelativeURL(_ html: String) -> Bool {
        var html = html
        return html.withUTF8 { HTMLURLResolver.mayHoldRelativeURL($0) }
    }
}

/// A small seeded generator (SplitMix64), so that the generated samples are the same every run.
private struct SplitMix64 {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
