import Foundation
import Models
import Testing

@testable import FeedParser

/// One small fixture per rule, each named for what it tests.
@Suite("RSS and Atom rules, one fixture each")
struct XMLRuleFixtureTests {
    @Test("RSS titles holding HTML become plain text; AT&T, 5 < 6 and First <post> survive")
    func titleWithHTML() throws {
        let feed = try parseFixture("rss/title-with-html.xml")
        #expect(feed.title == "Titles with HTML")
        #expect(
            feed.items.map(\.title) == [
                "Bold & co", "AT&T", "5 < 6", "First <post>", "Emphasis in CDATA", "Real child element",
                "Café “quoted”", "if a < b && c > d",
            ])
    }

    @Test("an Atom entry without authors has the feed's (RFC 4287 4.2.1); its own authors win")
    func atomAuthorInheritance() throws {
        let feed = try parseFixture("atom/author-inherited-from-feed.xml")
        #expect(feed.items[0].authors == [Author(name: "Feed Author", email: "feed@example.com")])
        #expect(feed.items[1].authors == [Author(name: "Entry Author")])
        #expect(feed.authors == [Author(name: "Feed Author", email: "feed@example.com")])
    }

    @Test("xml:base nests per element: channel, item, enclosure and link each resolve against the nearest")
    func xmlBaseNested() throws {
        let feed = try parseFixture("rss/xml-base-nested.xml", url: "https://ignored.example/feed.xml")
        #expect(feed.link == URL(string: "https://base.example/blog/home/"))
        #expect(feed.items[0].link == URL(string: "https://base.example/blog/posts/one.html"))
        #expect(feed.items[0].enclosures.map(\.url) == [URL(string: "https://base.example/media/one.mp3")!])
        #expect(feed.items[1].link == URL(string: "https://base.example/blog/two.html"))
        #expect(feed.items[2].link == URL(string: "https://elsewhere.example/y/three.html"))
    }

    @Test("without xml:base, item links resolve against the feed's link")
    func relativeLinksAgainstFeedLink() throws {
        let feed = try parseFixture("rss/relative-links-no-base.xml", url: "https://cdn.example/feeds/news.xml")
        #expect(
            feed.items.map(\.link) == [
                URL(string: "https://site.example/news/story-1.html"), URL(string: "https://site.example/story-2.html"),
            ])
    }

    @Test("Atom xml:base applies to the element that carries it and its descendants")
    func atomXMLBasePerElement() throws {
        let feed = try parseFixture("atom/xml-base-per-element.xml")
        #expect(feed.link == URL(string: "https://atom.example/a/"))
        #expect(feed.items[0].link == URL(string: "https://atom.example/a/b/entries/1.html"))
        #expect(
            feed.items[0].enclosures == [
                Enclosure(url: URL(string: "https://cdn.example/files/1.mp3")!, mimeType: "audio/mpeg", length: 5)
            ])
        #expect(feed.items[1].link == URL(string: "https://atom.example/root/2.html"))
    }

    @Test("Atom 0.3: tagline, modified/issued, author url, escaped content")
    func atom03() throws {
        let feed = try parseFixture("atom/atom03-basic.xml")
        #expect(feed.format == .atom03)
        #expect(feed.title == "Atom 0.3 Example")
        #expect(feed.description == "An old format")
        #expect(feed.link == URL(string: "https://old-atom.example/"))
        #expect(feed.updated == RFC3339.date(from: "2004-05-01T12:00:00Z"))
        #expect(feed.authors == [Author(name: "Mark", email: "mark@example.org", uri: "https://mark.example/")])
        #expect(feed.items.count == 2)
        let first = feed.items[0]
        #expect(first.id == "tag:old-atom.example,2004:1")
        #expect(first.link == URL(string: "https://old-atom.example/2004/05/01/first"))
        #expect(first.published == RFC3339.date(from: "2004-05-01T12:00:00Z"))
        #expect(first.updated == RFC3339.date(from: "2004-05-01T13:00:00Z"))
        #expect(first.summary == "A summary")
        #expect(first.contentHTML == "<p>Escaped <b>HTML</b></p>")
        #expect(first.contentText == "Escaped HTML")
    }

    @Test("RSS 0.92: the format, a declared ISO-8859-1 encoding, description-only items, enclosures")
    func rss092() throws {
        let feed = try parseFixture("rss/rss092.xml")
        #expect(feed.format == .rss09x)
        #expect(feed.language == "en")
        #expect(feed.items.map(\.title) == [nil, "Titled"])
        #expect(feed.items[0].contentHTML == "An item with no title, only a description")
        #expect(
            feed.items[0].enclosures == [
                Enclosure(
                    url: URL(string: "https://rss092.example/show.mp3")!, mimeType: "audio/mpeg", length: 24_986_239)
            ])
        #expect(feed.items[1].categories == ["Old"])
        #expect(feed.items[1].link == URL(string: "https://rss092.example/titled"))
    }

    @Test("author forms: e-mail (name), name <e-mail>, bare address, name, dc:creator, itunes:author")
    func authorEmailForms() throws {
        let feed = try parseFixture("rss/author-email-forms.xml")
        #expect(feed.authors == [Author(name: "The Editor", email: "editor@authors.example")])
        let jo = Author(name: "Jo Smith", email: "jo@example.com")
        #expect(
            feed.items.map(\.authors) == [
                [jo], [jo], [Author(email: "jo@example.com")], [Author(name: "Jo Smith")],
                [Author(name: "Dee Creator")],
                [Author(name: "Pod Caster")], [jo], [],
            ])
    }

    @Test("GUIDs: isPermaLink=false is no link; a URL guid is the permalink; a link wins; ids are trimmed")
    func guidPermalinks() throws {
        let feed = try parseFixture("rss/guid-not-permalink.xml")
        #expect(
            feed.items.map(\.link) == [
                nil, URL(string: "https://guids.example/p/2"), URL(string: "https://guids.example/story/3"), nil, nil,
            ])
        #expect(
            feed.items.map(\.id) == [
                "https://guids.example/p/1", "https://guids.example/p/2", "https://guids.example/p/3",
                "urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a", "just-a-slug",
            ])
        #expect(feed.items.map(\.uniqueID) == feed.items.compactMap(\.id))
    }

    @Test("items without a guid get the hashed identity of DESIGN.md's rule")
    func identityWithoutGUID() throws {
        let feed = try parseFixture("rss/identity-no-guid.xml")
        let items = feed.items
        #expect(items.count == 5)
        #expect(items.allSatisfy { $0.id == nil })
        let expected = items.map {
            ArticleIdentity.uniqueID(
                id: nil, permalink: $0.link, link: nil, title: $0.title, date: $0.published,
                body: $0.contentHTML)
        }
        #expect(items.map(\.uniqueID) == expected)
        #expect(Set(items.map(\.uniqueID)).count == 5)  // the same link on another date is another article
        #expect(try parseFixture("rss/identity-no-guid.xml").items.map(\.uniqueID) == items.map(\.uniqueID))
    }

    @Test("a malformed item does not lose the items after it")
    func malformedItem() throws {
        let feed = try parseFixture("rss/malformed-item.xml")
        #expect(feed.items.map(\.id) == ["m1", "m2", "m3", "m4"])
        #expect(feed.items.first?.title == "Good one")
        #expect(feed.items.last?.title == "Good two")
        #expect(feed.warnings.count == 1)
    }

    @Test("UTF-16 with a byte-order mark")
    func utf16() throws {
        let feed = try parseFixture("rss/encoding-utf16-bom.xml")
        #expect(feed.title == "UTF-16 été ✓")
        #expect(feed.items.map(\.id) == ["u1"])
        #expect(feed.warnings.isEmpty)
    }

    @Test("RSS 0.91 with the Netscape DOCTYPE: the DTD is not fetched, its HTML entities still read")
    func netscapeDoctype() throws {
        let feed = try parseFixture("rss/rss091-netscape-doctype.xml")
        #expect(feed.format == .rss09x)
        #expect(feed.title == "Netscape DTD été")
        #expect(feed.items.map(\.title) == ["Café & more"])
        #expect(feed.warnings.isEmpty)
    }

    @Test("an encoded surrogate is not UTF-8: in a UTF-8 document it becomes U+FFFD")
    func encodedSurrogate() throws {
        var data = Data(#"<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Bad "#.utf8)
        data.append(contentsOf: [0xED, 0xA0, 0x80])
        data.append(contentsOf: Data(" café</title><item><guid>s1</guid></item></channel></rss>".utf8))
        let feed = try FeedDocumentParser.parse(data: data, url: nil)
        #expect(feed.title == "Bad \u{FFFD}\u{FFFD}\u{FFFD} café")
        #expect(feed.items.map(\.id) == ["s1"])
    }

    @Test("empty files and binary data are not feeds")
    func emptyAndBinary() throws {
        #expect(throws: FeedParseError.notAFeed("the document is empty")) { try parseFixture("other/empty.xml") }
        #expect(throws: FeedParseError.notAFeed("binary data")) { try parseFixture("other/binary.bin") }
    }

    @Test("the document's own internal entities expand at every reference")
    func internalEntities() throws {
        let feed = try parseFixture("other/internal-entity.xml")
        #expect(feed.title == "Example Co news")
        #expect(feed.items.map(\.title) == ["About Example Co", "Again Example Co"])
        #expect(feed.items[0].contentHTML == "Example Co and\u{A0}more")
    }

    @Test("an external entity is left unresolved: the text around it stays, with a warning")
    func externalEntityUnresolved() throws {
        let feed = try parseFixture("other/xxe.xml")
        #expect(feed.title == "XXE")
        #expect(feed.items.map(\.id) == ["1"])
        #expect(feed.warnings.count == 1)
        #expect(feed.warnings.first?.contains("'xxe'") == true)
    }

    @Test("an entity referenced until it expands past the budget (quadratic blowup) is refused")
    func quadraticBlowup() throws {
        #expect(
            throws: FeedParseError.malformed("an entity expands without bound (a billion-laughs document?); refused")
        ) {
            try parseFixture("other/quadratic-blowup.xml")
        }
    }
}
