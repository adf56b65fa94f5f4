import Foundation
import Testing

@testable import FeedParser

/// RFC 4287 4.1.3.3: only `atom:content` whose type is a media type that is neither text nor
/// XML holds base64. Text constructs (title, subtitle, summary, rights) of any other type are
/// text.
@Suite("Atom text constructs of unknown types")
struct AtomTextTypeTests {
    @Test("title, subtitle and summary of unknown or binary types are read as the text they hold")
    func textConstructs() throws {
        let feed = try parseFixture("atom/text-types-unknown.xml")
        #expect(feed.title == "QmFzZTY0IHRpdGxl")
        #expect(feed.description == "U3VidGl0bGU=")
        #expect(feed.items.map(\.title) == ["Plain title", "Other title", "SVG-typed title"])
        #expect(feed.items[0].summary == "Summary text")
        #expect(feed.items[1].summary == "YWJj")
    }

    @Test("content of a text or XML type is as written; of a binary type, base64-decoded")
    func content() throws {
        let feed = try parseFixture("atom/text-types-unknown.xml")
        #expect(feed.items[0].contentHTML == "Markdown *body*")
        #expect(feed.items[1].contentHTML == "<p>Decoded</p>")
        #expect(feed.items[2].contentHTML == "As written")
    }
}
