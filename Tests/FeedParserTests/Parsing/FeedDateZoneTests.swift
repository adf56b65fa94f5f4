import Foundation
import Models
import Testing

@testable import FeedParser

/// A zone named in parentheses is read, as the best readers read it: the date's zone when the
/// date gives none of its own, else a comment.
@Suite("Dates with a zone in parentheses")
struct FeedDateZoneTests {
    @Test(
        "the parenthesized zone, or the offset before it",
        arguments: [
            "Tue, 10 Jun 2003 09:41:01 (JST)", "Tue, 10 Jun 2003 09:41:01 +0900 (JST)",
            "Tue, 10 Jun 2003 09:41:01 (Japan Standard Time)",
            "Tue Jun 10 2003 09:41:01 GMT+0900 (Japan Standard Time)",
            "10 Jun 2003 09:41:01 (+0900)", "Tue, 10 Jun 2003 09:41:01 +09:00 (Tokyo)", "Jun 10, 2003 09:41:01 (JST)",
            "Tue, 10 Jun 2003 00:41:01 GMT (JST)", "Tue, 10 Jun 2003 01:41:01 CET (Central European Time)",
            "Mon, 09 Jun 2003 17:41:01 (Pacific Daylight Time)",
            "Tue, 10 Jun 2003 00:41:01 (Coordinated Universal Time)",
            "Tue, 10 Jun 2003 00:41:01 (UTC)",
        ])
    func parenthesizedZone(text: String) throws {
        let reading = try #require(FeedDate.reading(text))
        #expect(reading.date == RFC3339.date(from: "2003-06-10T00:41:01Z"))
        #expect(reading.unknownZone == nil)
    }

    @Test("a name no table knows is read as UTC and reported")
    func unknownName() throws {
        let reading = try #require(FeedDate.reading("Tue, 10 Jun 2003 09:41:01 (XYZT)"))
        #expect(reading.date == RFC3339.date(from: "2003-06-10T09:41:01Z"))
        #expect(reading.unknownZone == "XYZT")
    }

    @Test("in a feed: an RSS pubDate in (JST)")
    func inFeed() throws {
        let feed = try parseDocument(
            """
            <rss version="2.0"><channel><title>T</title><item><guid>1</guid>
            <pubDate>Tue, 10 Jun 2003 09:41:01 (JST)</pubDate></item></channel></rss>
            """)
        #expect(feed.items.first?.published == RFC3339.date(from: "2003-06-10T00:41:01Z"))
        #expect(feed.warnings.isEmpty)
    }
}
