import Foundation
import Testing

@testable import FeedParser

@Suite("OPML")
struct OPMLTests {
    @Test("nested outlines become folders; xmlUrl in any case; titles from title or text; a repeat is one more place")
    func importing() throws {
        let subscriptions = try OPML.subscriptions(in: try fixture("other/subscriptions.opml"))
        #expect(
            subscriptions == [
                OPMLSubscription(
                    feedURL: URL(string: "https://swift.example/feed.xml")!, title: "Swift Blog",
                    homePageURL: URL(string: "https://swift.example/"), categories: ["Tech"],
                    places: [["Tech"], []], placeOrder: [0, 3]),
                OPMLSubscription(
                    feedURL: URL(string: "https://deep.example/atom")!, title: "Deep & Nested",
                    categories: ["Tech", "Nested"], placeOrder: [1]),
                OPMLSubscription(feedURL: URL(string: "https://top.example/rss")!, title: "Top level", placeOrder: [2]),
            ])
    }

    /// The outline structure of a document: each outline's depth and attributes, in order.
    static func structure(_ data: Data) -> [String] {
        String(decoding: data, as: UTF8.self).split(separator: "\n").filter {
            $0.contains("<outline") || $0.contains("</outline>")
        }.map { $0.trimmingCharacters(in: .whitespaces) + " @\($0.prefix { $0 == " " }.count)" }
    }

    @Test("nested folders, a feed in two folders and feeds between folders are written back as they were read")
    func nestedRoundTrip() throws {
        let document = Data(
            """
            <?xml version="1.0"?><opml version="2.0"><head><title>t</title></head><body>
            <outline type="rss" text="Top" title="Top" xmlUrl="https://a.test/top"/>
            <outline text="Tech" title="Tech">
              <outline type="rss" text="LWN" title="LWN" xmlUrl="https://a.test/lwn"/>
              <outline text="Swift" title="Swift">
                <outline type="rss" text="Swift.org" title="Swift.org" xmlUrl="https://a.test/swift"/>
              </outline>
              <outline type="rss" text="HN" title="HN" xmlUrl="https://a.test/hn"/>
            </outline>
            <outline text="A/B &amp; C" title="A/B &amp; C">
              <outline type="rss" text="Town" title="Town" xmlUrl="https://a.test/town"/>
              <outline type="rss" text="LWN" title="LWN" xmlUrl="https://a.test/lwn"/>
            </outline>
            <outline type="rss" text="Bottom" title="Bottom" xmlUrl="https://a.test/bottom"/>
            </body></opml>
            """.utf8)
        let read = try OPML.subscriptions(in: document)
        #expect(
            read.map(\.places) == [
                [[]], [["Tech"], ["A/B & C"]], [["Tech", "Swift"]], [["Tech"]], [["A/B & C"]], [[]],
            ])
        // Written one place at a time in document order, as the feed service exports them.
        let places = read.flatMap { subscription in
            zip(subscription.places, subscription.placeOrder).map { (subscription, $0, $1) }
        }.sorted { $0.2 < $1.2 }.map { subscription, place, _ in
            OPMLSubscription(
                feedURL: subscription.feedURL, title: subscription.title, categories: place, places: [place])
        }
        let written = OPML.document(title: "t", subscriptions: places)
        let expected = Self.structure(document).map { line in
            // The source above indents by two from column 0; the writer starts at four.
            let parts = line.split(separator: "@")
            return parts[0] + "@" + String((Int(parts[1]) ?? 0) + 4)
        }
        #expect(Self.structure(written) == expected)
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
        func described(_ list: [OPMLSubscription]) -> Set<String> {
            Set(list.map { "\($0.feedURL) \($0.title ?? "") \($0.homePageURL?.absoluteString ?? "") \($0.places)" })
        }
        #expect(described(again) == described(original))
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
