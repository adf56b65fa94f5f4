import Foundation
import Testing

@testable import FeedParser

@Suite("OPML")
struct OPMLTests {
    @Test("nested outlines become folders; xmlUrl in any case; titles from title or text; no repeats")
    func importing() throws {
        let subscriptions = try OPML.subscriptions(in: try fixture("other/subscriptions.opml"))
        #expect(
            subscriptions == [
                OPMLSubscription(
                    feedURL: URL(string: "https://swift.example/feed.xml")!, title: "Swift Blog",
                    homePageURL: URL(string: "https://swift.example/"), categories: ["Tech"]),
                OPMLSubscription(
                    feedURL: URL(string: "https://deep.example/atom")!, title: "Deep & Nested",
                    categories: ["Tech", "Nested"]),
                OPMLSubscription(feedURL: URL(string: "https://top.example/rss")!, title: "Top level"),
            ])
    }

    @Test("export then import gives the same subscriptions back")
    func roundTrip() throws {
        let original = [
            OPMLSubscription(
                feedURL: URL(string: "https://a.example/feed?x=1&y=2")!, title: "A \"quoted\" <title> & more",
                categories: ["News"]),
            OPMLSubscription(
                feedURL: URL(string: "https://b.example/rss")!, title: "B",
                homePageURL: URL(string: "https://b.example/")),
            OPMLSubscription(feedURL: URL(string: "https://c.example/atom")!, title: "C", categories: ["News"]),
        ]
        let document = OPML.document(title: "Tidings", subscriptions: original, created: Date(timeIntervalSince1970: 0))
        let text = String(decoding: document, as: UTF8.self)
        #expect(text.contains("<dateCreated>Thu, 01 Jan 1970 00:00:00 GMT</dateCreated>"))
        let again = try OPML.subscriptions(in: document)
        #expect(Set(again) == Set(original))
    }

    // The escaping bug fuzz-html found reached OPML export: a `<` or `"` joined to a combining mark
    // was written as it was, so the exported file was not well-formed XML.
    @Test("a title with a combining mark on a markup character exports and imports intact")
    func combiningMarkInTitle() throws {
        let original = OPMLSubscription(
            feedURL: URL(string: "https://a.example/feed")!, title: "1 <\u{338} 2 \"\u{301} x")
        let document = OPML.document(title: "Tidings", subscriptions: [original])
        #expect(try OPML.subscriptions(in: document) == [original])
    }

    @Test("a document that is not OPML is refused with a reason")
    func notOPML() throws {
        #expect(throws: FeedParseError.notAFeed("an XML document whose root is <rss>, not <opml>")) {
            try OPML.subscriptions(in: try fixture("rss/rss2-basic.xml"))
        }
        #expect(throws: FeedParseError.self) { try OPML.subscriptions(in: Data("not xml".utf8)) }
    }
}

@Suite("OPML safety")
struct OPMLSafetyTests {
    @Test("external entities are never loaded, and an OPML file that uses one still yields its other outlines")
    func externalEntity() throws {
        let opml = """
            <?xml version="1.0"?>
            <!DOCTYPE opml [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
            <opml version="2.0"><head><title>t</title></head><body>
            <outline type="rss" text="Leak &secret;" xmlUrl="https://a.test/feed"/>
            <outline type="rss" text="Fine &amp; dandy" xmlUrl="https://b.test/feed"/>
            </body></opml>
            """
        let subscriptions = try OPML.subscriptions(in: Data(opml.utf8))
        #expect(subscriptions.map(\.feedURL.absoluteString).contains("https://b.test/feed"))
        #expect(subscriptions.allSatisfy { !($0.title ?? "").contains("root:") })
        #expect(subscriptions.first { $0.feedURL.absoluteString == "https://b.test/feed" }?.title == "Fine & dandy")
    }

    @Test("a broken OPML file is refused with the parser's reason")
    func broken() {
        #expect(throws: FeedParseError.self) { try OPML.subscriptions(in: Data("<opml><body><outline".utf8)) }
        #expect(throws: FeedParseError.self) { try OPML.subscriptions(in: Data()) }
    }
}
