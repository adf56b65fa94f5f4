import Foundation
import Testing

@testable import FeedParser

@Suite("Bounded memory")
struct BoundedMemoryTests {
    /// An RSS document of about `megabytes` MB: items of 1 KB of text each.
    static func largeFeed(megabytes: Int) -> Data {
        var document = #"<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Large</title>"#
        let body = String(repeating: "Lorem ipsum dolor sit amet, consectetur adipiscing elit. ", count: 17)
        let count = megabytes * 1_000
        document.reserveCapacity(count * 1_100)
        for index in 0..<count {
            document += "<item><title>Item \(index)</title><guid>g\(index)</guid>"
            document += "<description>&lt;p&gt;\(body)&lt;/p&gt;</description></item>\n"
        }
        return Data((document + "</channel></rss>").utf8)
    }

    @Test("a 10 MB feed streams through: libxml2 holds a window of it, the text buffer one element's worth")
    func tenMegabytes() throws {
        let data = Self.largeFeed(megabytes: 10)
        #expect(data.count > 10_000_000)
        let outcome = try #require(SAXFeedReader.read(data, documentURL: nil))
        #expect(outcome.builder.items.count == 10_000)
        #expect(outcome.builder.rootClosed)
        #expect(outcome.diagnostics.errorCount == 0)
        // The parser's input window stays within a few chunks, never the whole document…
        #expect(outcome.diagnostics.peakInputWindow > 0)
        #expect(outcome.diagnostics.peakInputWindow <= 3 * SAXFeedReader.chunkSize)
        // …and the character buffer holds one element's text, not the document's.
        #expect(outcome.builder.peakTextBuffer < 4_096)
    }
}
