import Foundation
import Testing

@testable import FeedParser

/// The feed reader under the limits every XML reader here shares (`XMLPushParser`,
/// `SAXFeedReader.limits`).
@Suite("Feed limits")
struct FeedLimitsTests {
    @Test("a feed nested past the depth limit is refused with a reason")
    func deepNesting() {
        let count = 100_000
        let document =
            "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>t</title><item><title>i</title><description>"
            + String(repeating: "<div>", count: count) + String(repeating: "</div>", count: count)
            + "</description></item></channel></rss>"
        #expect(throws: FeedParseError.malformed("the XML nests deeper than 256 elements; refused")) {
            try parseDocument(document)
        }
    }

    @Test("a feed within the limits reads as before")
    func withinLimits() throws {
        let document =
            "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>t</title><item><title>i</title><description>"
            + String(repeating: "<div>", count: 200) + String(repeating: "</div>", count: 200)
            + "</description></item></channel></rss>"
        let feed = try parseDocument(document)
        #expect(feed.items.count == 1)
    }
}
