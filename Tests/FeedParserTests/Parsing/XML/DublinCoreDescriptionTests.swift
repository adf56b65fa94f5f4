import Foundation
import Testing

@testable import FeedParser

/// Dublin Core's `description` stands in for a feed's or an item's own when it has none.
@Suite("dc:description as a fallback")
struct DublinCoreDescriptionTests {
    @Test("an item with only dc:description has it as its content; an RSS description wins over it")
    func rss() throws {
        let feed = try parseFixture("rss/dublin-core-description.xml")
        #expect(feed.description == "The channel, described")
        #expect(
            feed.items[0].contentHTML
                == #"Only a <b>DC</b> description, <a href="https://dc-description.example/more">more</a>"#)
        #expect(feed.items[0].contentText == "Only a DC description, more")
        #expect(feed.items[1].contentHTML == "The RSS description")
    }

    @Test("RSS 1.0 and Atom items with only dc:description")
    func rdfAndAtom() throws {
        let rdf = try parseDocument(
            """
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"
                     xmlns:dc="http://purl.org/dc/elements/1.1/">
            <channel rdf:about="x"><title>T</title></channel>
            <item rdf:about="https://rdf.example/a"><title>A</title><dc:description>RDF words</dc:description></item>
            </rdf:RDF>
            """)
        #expect(rdf.items.first?.contentText == "RDF words")
        let atom = try parseDocument(
            """
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/"><title>T</title>
            <entry><id>urn:a</id><title>A</title><dc:description>Atom words</dc:description></entry></feed>
            """)
        #expect(atom.items.first?.contentText == "Atom words")
    }
}
