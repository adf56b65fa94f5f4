import Foundation
import Testing

@testable import FeedParser

/// Entities a document declares in its DOCTYPE survive a recoverable error elsewhere in it
/// (libxml2 in recovery mode stops delivering entity references after its first error), and
/// stay bounded: nothing external is loaded, nothing expands without limit.
@Suite("DOCTYPE entities after a recoverable error")
struct InternalEntityRecoveryTests {
    @Test("references to declared entities after an unclosed <br> keep their text")
    func afterError() throws {
        let feed = try parseFixture("other/internal-entity-after-error.xml")
        #expect(feed.title == "Example Co news")
        #expect(feed.warnings.count == 1)
        #expect(feed.items.map(\.title) == ["Broken item", "About Example Co", "Again Example Co &"])
        #expect(feed.items[1].contentHTML == "AT&T <3 and\u{A0}more")
    }

    @Test("entity names with - _ . and non-ASCII letters are the document's entities, well-formed or not")
    func names() throws {
        for damage in ["", "<br>"] {
            let feed = try parseDocument(
                """
                <?xml version="1.0"?>
                <!DOCTYPE rss [<!ENTITY my-co "My Co"><!ENTITY co_2.x "Co Two"><!ENTITY café "Café">]>
                <rss version="2.0"><channel><title>T</title>
                <item><guid>1</guid><title>First \(damage)</title></item>
                <item><guid>2</guid><title>&my-co; &co_2.x; &café;</title></item></channel></rss>
                """)
            #expect(feed.items.last?.title == "My Co Co Two Café", "damage: \(damage)")
        }
    }

    @Test("a damaged document whose own entities would expand past the budget is refused")
    func budget() {
        let value = String(repeating: "x", count: 10_000)
        let uses = String(repeating: "&big;", count: 200)
        let document = """
            <?xml version="1.0"?><!DOCTYPE rss [<!ENTITY big "\(value)">]>
            <rss version="2.0"><channel><title>T</title><item><guid>1</guid><title>a <br> b</title></item>
            <item><guid>2</guid><title>\(uses)</title></item></channel></rss>
            """
        #expect(throws: FeedParseError.self) { try parseDocument(document) }
    }

    @Test("an external entity is never written in, damaged document or not")
    func external() throws {
        let feed = try parseDocument(
            """
            <?xml version="1.0"?><!DOCTYPE rss [<!ENTITY xxe SYSTEM "file:///etc/hostname">]>
            <rss version="2.0"><channel><title>T</title><item><guid>1</guid><title>a <br> b</title></item>
            <item><guid>2</guid><title>X&xxe;Y</title></item></channel></rss>
            """)
        #expect(feed.items.last?.title == "XY")
    }
}
