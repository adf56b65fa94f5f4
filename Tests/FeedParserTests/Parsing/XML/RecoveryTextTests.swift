import Foundation
import Models
import Testing

@testable import FeedParser

/// Issue 13: text must read the same after libxml2 has met a recoverable error as before it.
@Suite("Text survives a broken document")
struct RecoveryTextTests {
    @Test("after an unclosed <br>, &amp; &lt; &gt; &quot; &apos; still decode in titles and descriptions")
    func entitiesAfterUnclosedBreak() throws {
        let feed = try parseFixture("rss/recovery-entities-after-unclosed-br.xml")
        #expect(feed.items.map(\.title) == ["Broken item", "Tom & Jerry", "1 < 2 > 0"])
        #expect(
            feed.items.map(\.contentHTML) == [
                "An unclosed <br> here makes the document not well-formed",
                #"<p>Hello <b>world</b> &amp; "friends" 'n' & &</p>"#, "<p>CDATA &amp; stays</p>",
            ])
        #expect(
            feed.items.last?.enclosures.map(\.url.absoluteString) == ["https://recovery.example/a.mp3?x=1&y=2"])
        #expect(feed.warnings.contains { $0.contains("recovery mode") })
    }

    @Test("after a stray control byte, Atom html content and titles keep their entities")
    func entitiesAfterControlByte() throws {
        let feed = try parseFixture("atom/recovery-entities-after-control-byte.xml")
        let entry = try #require(feed.items.last)
        #expect(entry.title == "Tom & Jerry <3")
        #expect(entry.contentHTML == "<p>Hello <b>world</b> &amp; more</p>")
        #expect(entry.summary == "Fish & chips < 5")
        #expect(!feed.warnings.isEmpty)
    }

    /// Each way a feed commonly stops being well-formed, placed before the text under test.
    static let damages: [String] = [
        "<description>unclosed <br> tag</description>",
        "<description>stray \u{01} control byte</description>",
        "<title>invalid &#xD800; reference</title>",
        "<title>mismatched <b>tags</i></title>",
        "<description>an attribute <img src=x> unquoted</description>",
        "<description>a bare < less-than</description>",
        "<enclosure url=\"a\" url=\"b\"/>",
        "<dc:creator>undeclared prefix</dc:creator>",
    ]

    @Test("whatever the first error, later predefined entities and character references decode", arguments: damages)
    func entitiesAfterAnyError(damage: String) throws {
        let document = """
            <?xml version="1.0"?><rss version="2.0"><channel><title>Damaged</title>
            <item><guid>1</guid>\(damage)</item>
            <item><guid>2</guid><title>Tom &amp; Jerry &lt;3 &gt; &quot;q&quot; &apos;a&apos; &#38; &#x26;</title>
            <description>&lt;p&gt;Hello &lt;b&gt;world&lt;/b&gt;&lt;/p&gt;</description></item>
            </channel></rss>
            """
        let feed = try FeedDocumentParser.parse(data: Data(document.utf8), url: nil)
        let item = try #require(feed.items.first { $0.id == "2" })
        #expect(item.title == #"Tom & Jerry <3 > "q" 'a' & &"#)
        #expect(item.contentHTML == "<p>Hello <b>world</b></p>")
    }

    @Test("a < that opens no tag is text, and the items after it are kept")
    func bareLessThan() throws {
        let document = """
            <rss version="2.0"><channel><title>Bare</title>
            <item><guid>1</guid><title>1 < 2 &amp; 3 <4</title><description>a <= b</description></item>
            <item><guid>2</guid><title>Two</title></item></channel></rss>
            """
        let feed = try FeedDocumentParser.parse(data: Data(document.utf8), url: nil)
        #expect(feed.items.map(\.title) == ["1 < 2 & 3 <4", "Two"])
        #expect(feed.items.first?.contentHTML == "a <= b")
    }

    @Test("the repair rewrite leaves CDATA and the internal subset alone")
    func predefinedRewriteScope() {
        let document = Data(
            #"<!DOCTYPE r [<!ENTITY e "a&amp;b <">]><r a="&lt;&amp;">&lt;&gt;&amp;&quot;&apos;<![CDATA[&lt; <]]> < </r>"#
                .utf8)
        let rewritten = HTMLEntityPreprocessor.process(document, rewritingPredefined: true).data
        #expect(
            String(decoding: rewritten, as: UTF8.self)
                == #"<!DOCTYPE r [<!ENTITY e "a&amp;b <">]><r a="&#60;&#38;">&#60;&#62;&#38;&#34;&#39;<![CDATA[&lt; <]]> &#60; </r>"#
        )
    }
}
