import Foundation
import Testing

@testable import Feed

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

    @Test("a document that is not OPML is refused with a reason")
    func notOPML() throws {
        #expect(throws: FeedParseError.notAFeed("an XML document whose root is <rss>, not <opml>")) {
            try OPML.subscriptions(in: try fixture("rss/rss2-basic.xml"))
        }
        #expect(throws: FeedParseError.self) { try OPML.subscriptions(in: Data("not xml".utf8)) }
    }
}
