import Foundation
import Testing

@testable import FeedParser

/// RSS 1.0 and 0.90 define their own `<image>`, `<url>` and `<textinput>`: read as RSS 2.0's.
@Suite("RSS 1.0 and 0.90 channel images")
struct RDFImageTests {
    @Test("the channel's image is the feed's icon; the image's and text input's fields are not the feed's")
    func rss10() throws {
        let feed = try parseFixture("rss/rss1-image.xml")
        #expect(feed.format == .rss10)
        #expect(feed.icon == URL(string: "https://rdf-image.example/logo.png"))
        #expect(feed.title == "RDF with image")
        #expect(feed.link == URL(string: "https://rdf-image.example/"))
        #expect(feed.description == "Has a picture")
        #expect(feed.items.map(\.title) == ["Item A"])
    }

    @Test("rdf:resource alone names the image; a relative one resolves against the document")
    func resourceOnly() throws {
        let feed = try parseDocument(
            """
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/">
            <channel rdf:about="x"><title>T</title><image rdf:resource="img/logo.png"/></channel>
            <item rdf:about="a"><title>A</title></item></rdf:RDF>
            """, url: "https://rdf.example/feed.rdf")
        #expect(feed.icon == URL(string: "https://rdf.example/img/logo.png"))
    }

    @Test("RSS 0.90: the image's url is the icon; a text input's link and title are not the feed's")
    func rss090() throws {
        let feed = try parseDocument(
            """
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
                     xmlns="http://my.netscape.com/rdf/simple/0.9/">
            <textinput><title>Search</title><link>https://netscape.example/search</link></textinput>
            <channel><title>Old Netscape</title><description>D</description></channel>
            <image><title>Img</title><url>https://netscape.example/n.gif</url><link>https://netscape.example/i</link></image>
            <item><title>One</title><link>https://netscape.example/1</link></item>
            </rdf:RDF>
            """)
        #expect(feed.icon == URL(string: "https://netscape.example/n.gif"))
        #expect(feed.title == "Old Netscape")
        #expect(feed.link == nil)
        #expect(feed.items.map(\.title) == ["One"])
    }
}
