import Foundation
import Models
import Testing

@testable import FeedParser

/// Issue 13: what a feed lists twice, an item shows once; names read as one line.
@Suite("Repeated authors and enclosures")
struct RepeatedEntriesTests {
    @Test("an enclosure repeated in one item is listed once: the first, completed by the later ones")
    func repeatedEnclosures() throws {
        let feed = try parseFixture("rss/enclosures-repeated.xml")
        #expect(
            feed.items.first?.enclosures == [
                Enclosure(
                    url: try #require(URL(string: "https://e.example/a.mp3")), mimeType: "audio/mpeg", length: 123),
                Enclosure(
                    url: try #require(URL(string: "https://e.example/b.mp3")), mimeType: "audio/mpeg", length: 456),
            ])
    }

    @Test("an author listed twice appears once; names and titles have their whitespace collapsed")
    func repeatedAuthors() throws {
        let feed = try parseFixture("rss/authors-repeated.xml")
        #expect(feed.title == "Repeated authors")
        #expect(feed.authors == [Author(name: "The Editor", email: "ed@example.com")])
        let item = try #require(feed.items.first)
        #expect(item.title == "Multi line title")
        #expect(item.authors == [Author(name: "Jo Bloggs", email: "jo@example.com"), Author(name: "Ann Other")])
    }

    @Test("Atom authors repeated in an entry, and repeated atom enclosure links, appear once")
    func repeatedAtomAuthorsAndLinks() throws {
        let document = """
            <feed xmlns="http://www.w3.org/2005/Atom"><title>t</title><entry><id>1</id>
            <author><name>Jo
              Bloggs</name></author><author><name>Jo Bloggs</name></author>
            <link rel="enclosure" href="https://e.example/a.mp3"/>
            <link rel="enclosure" href="https://e.example/a.mp3" type="audio/mpeg" length="7"/>
            </entry></feed>
            """
        let entry = try #require(try FeedDocumentParser.parse(data: Data(document.utf8), url: nil).items.first)
        #expect(entry.authors == [Author(name: "Jo Bloggs")])
        #expect(entry.enclosures.map(\.mimeType) == ["audio/mpeg"])
        #expect(entry.enclosures.map(\.length) == [7])
    }
}
