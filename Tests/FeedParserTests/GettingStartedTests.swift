import FeedParser
import Foundation
import Testing

// The getting-started snippet of Sources/FeedParser/FeedParser.docc/FeedParser.md, compiled and
// run. DocumentationTests (REPLTests) checks that the page shows this code verbatim.

/// The titles of the items of the feed `document`, fetched from `url`, as plain text.
func itemTitles(of document: Data, from url: URL) throws -> [String] {
    let feed = try FeedDocumentParser.parse(data: document, url: url)
    return feed.items.map { $0.title ?? "(untitled)" }
}

@Suite("FeedParser: getting started")
struct FeedParserGettingStartedTests {
    @Test("an Atom document's items come back as plain-text titles, in document order")
    func titles() throws {
        let atom = """
            <feed xmlns="http://www.w3.org/2005/Atom"><title>Notes</title>
              <entry><id>1</id><title type="html">Bread &amp;lt;3</title></entry>
              <entry><id>2</id><title>Jam</title></entry>
            </feed>
            """
        let url = try #require(URL(string: "https://example.com/atom.xml"))
        #expect(try itemTitles(of: Data(atom.utf8), from: url) == ["Bread <3", "Jam"])
    }
}
