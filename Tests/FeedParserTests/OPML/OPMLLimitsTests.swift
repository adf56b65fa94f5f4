import Foundation
import Markup
import Testing

@testable import FeedParser

/// The limits every XML reader here shares (`XMLPushParser`), as OPML meets them: a file past
/// one is refused with a reason, never read until memory or the stack runs out.
@Suite("OPML limits")
struct OPMLLimitsTests {
    private static func opml(body: String) -> Data {
        Data(
            ("<?xml version=\"1.0\"?><opml version=\"2.0\"><head><title>t</title></head><body>" + body
                + "</body></opml>").utf8)
    }

    @Test("a million nested outlines are refused at the depth limit")
    func deepNesting() {
        let count = 1_000_000
        let document = Self.opml(
            body: String(repeating: "<outline text=\"f\">", count: count)
                + String(repeating: "</outline>", count: count))
        #expect(throws: FeedParseError.malformed("the OPML is refused: the XML nests deeper than 256 elements")) {
            try OPML.subscriptions(in: document)
        }
    }

    @Test("nesting within the depth limit is read")
    func nestingWithinLimit() throws {
        let depth = 200
        let document = Self.opml(
            body: String(repeating: "<outline text=\"f\">", count: depth)
                + "<outline text=\"deep\" xmlUrl=\"https://deep.test/feed\"/>"
                + String(repeating: "</outline>", count: depth))
        let subscriptions = try OPML.subscriptions(in: document)
        #expect(subscriptions.map(\.feedURL.absoluteString) == ["https://deep.test/feed"])
        #expect(subscriptions.first?.categories.count == depth)
    }

    @Test("a large OPML file within the limits is read whole (fed in chunks)")
    func largeWithinLimits() throws {
        let count = 250_000
        let document = Self.opml(body: (0..<count).map { "<outline xmlUrl=\"https://a.test/\($0)\"/>" }.joined())
        #expect(document.count > 10_000_000)
        let subscriptions = try OPML.subscriptions(in: document)
        #expect(subscriptions.count == count)
        #expect(subscriptions.last?.feedURL.absoluteString == "https://a.test/\(count - 1)")
    }

    @Test("more outlines than the element limit are refused")
    func tooManyElements() {
        let document = Self.opml(body: String(repeating: "<outline/>", count: OPMLReader.limits.maximumElements))
        #expect(throws: FeedParseError.malformed("the OPML is refused: the XML holds more than 1000000 elements")) {
            try OPML.subscriptions(in: document)
        }
    }

    @Test("a file larger than the size limit is refused before it is read")
    func tooLarge() {
        let limit = OPMLReader.limits.maximumBytes
        var document = Self.opml(body: "")
        document.append(Data(repeating: 0x20, count: limit + 1 - document.count + 1))
        #expect(
            throws: FeedParseError.malformed(
                "the OPML is refused: the XML is more than \(limit) bytes (\(document.count) read)")
        ) {
            try OPML.subscriptions(in: document)
        }
    }

    @Test("a billion-laughs OPML file expands nothing, and its other outlines are still read")
    func billionLaughs() throws {
        var declarations = "<!ENTITY lol0 \"lol\">"
        for level in 1...9 {
            declarations += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">"
        }
        let opml = """
            <?xml version="1.0"?>
            <!DOCTYPE opml [\(declarations)]>
            <opml version="2.0"><head><title>t</title></head><body>
            <outline type="rss" text="&lol9;" xmlUrl="https://a.test/feed"/>
            <outline type="rss" text="Fine &amp; dandy" xmlUrl="https://b.test/feed"/>
            </body></opml>
            """
        let subscriptions = try OPML.subscriptions(in: Data(opml.utf8))
        #expect(subscriptions.map(\.feedURL.absoluteString).contains("https://b.test/feed"))
        #expect(subscriptions.allSatisfy { ($0.title ?? "").count < 100 })
    }

    @Test("a quadratic-blowup OPML file expands nothing")
    func quadraticBlowup() throws {
        let big = String(repeating: "x", count: 100_000)
        let opml = """
            <?xml version="1.0"?>
            <!DOCTYPE opml [<!ENTITY big "\(big)">]>
            <opml version="2.0"><head><title>t</title></head><body>
            <outline type="rss" text="\(String(repeating: "&big;", count: 10_000))" xmlUrl="https://a.test/feed"/>
            <outline type="rss" text="B" xmlUrl="https://b.test/feed"/>
            </body></opml>
            """
        let subscriptions = try OPML.subscriptions(in: Data(opml.utf8))
        #expect(subscriptions.allSatisfy { ($0.title ?? "").count < 100 })
    }
}
