import Foundation
import Models
import Testing

@testable import FeedParser

/// Cases from feedparser's public edge-case corpus where Tidings first disagreed with it, each
/// as a small fixture of our own.
@Suite("Liberal reading: namespaces, ids, ampersands, encodings")
struct LiberalReadingTests {
    @Test("a root <rss> in Userland's namespace is RSS, its elements read as RSS's")
    func userlandNamespace() throws {
        let feed = try parseFixture("rss/namespace-userland-root.xml")
        #expect(feed.format == .rss20)
        #expect(feed.title == "Userland namespace")
        #expect(feed.link == URL(string: "https://userland.example/"))
        #expect(feed.items.map(\.title) == ["Namespaced item"])
        #expect(feed.items.first?.authors == [Author(name: "Dave")])
    }

    @Test("a root <feed> without the Atom namespace is Atom; an <item> in it is an entry")
    func atomWithoutNamespace() throws {
        let feed = try parseFixture("atom/namespace-missing.xml")
        #expect(feed.format == .atom10)
        #expect(feed.title == "No namespace")
        #expect(feed.link == URL(string: "https://bare-atom.example/"))
        #expect(feed.items.map(\.title) == ["First", "Second"])
        #expect(feed.items.map(\.id) == ["tag:bare-atom.example,2024:1", "tag:bare-atom.example,2024:2"])
    }

    @Test("a root <feed version=\"0.3\"> in a made-up namespace is Atom 0.3")
    func atom03MadeUpNamespace() throws {
        let feed = try parseFixture("atom/namespace-made-up-03.xml")
        #expect(feed.format == .atom03)
        #expect(feed.title == "Made-up namespace")
        #expect(feed.description == "Old and odd")
    }

    @Test("an extension element's id, title and link are not the entry's; an http id is the link")
    func nestedIDAndTitle() throws {
        let feed = try parseFixture("atom/nested-id-and-title.xml")
        #expect(feed.items.map(\.id) == ["https://ids.example/posts/1", "tag:ids.example,2024:2"])
        #expect(feed.items.map(\.title) == ["Right title", "Also right"])
        #expect(feed.items.map(\.link) == [URL(string: "https://ids.example/posts/1"), nil])
        #expect(feed.link == URL(string: "https://ids.example/"))
    }

    @Test("Atom 0.3 modes: base64 text, an XHTML media type as markup, a binary media type as base64")
    func atom03Modes() throws {
        let feed = try parseFixture("atom/atom03-content-modes.xml")
        #expect(feed.title == "Base64 title")
        #expect(feed.items.map(\.title) == ["History of the <blink> tag", "Binary type"])
        #expect(feed.items.first?.contentHTML == "<p>Decoded <b>body</b></p>")
    }

    @Test("bare ampersands in URLs and text are kept; &#X41; reads as A")
    func bareAmpersands() throws {
        let feed = try parseFixture("rss/ampersands-bare.xml")
        #expect(feed.title == "AT&T news")
        #expect(feed.link?.absoluteString == "https://amp.example/?a=1&b=2&c")
        let item = try #require(feed.items.first)
        #expect(item.title == "Q&A: Alpha & omega & more & &")
        #expect(item.link?.absoluteString == "https://amp.example/story?id=7&page=2")
        #expect(item.enclosures.map(\.url.absoluteString) == ["https://amp.example/file.mp3?x=1&y=2"])
    }

    @Test("iTunes' capitalised namespace, itunes and media categories, media:title, dc:author, dcterms:issued")
    func namespaceExtras() throws {
        let feed = try parseFixture("rss/namespaces-extras.xml")
        #expect(feed.authors == [Author(name: "Channel Host")])
        let first = feed.items[0]
        #expect(first.authors == [Author(name: "Mark Pilgrim")])
        #expect(first.categories == ["Technology", "Gadgets", "cat1"])
        #expect(first.title == "Media title only")
        #expect(first.published == RFC3339.date(from: "2003-12-31T10:14:55Z"))
        #expect(feed.items[1].title == "The real title")
        #expect(feed.items[1].authors == [Author(name: "Example editor")])
        #expect(
            feed.items[2].authors == [
                Author(name: "Example editor", email: "editor@example.com"), Author(name: "Jo Bloggs (Guest writer)"),
            ])
    }

    @Test("RSS author and dc:creator: address (name), name (address), and a name with a remark")
    func authorForms() {
        #expect(RSSAuthor.parse("jo@example.com (Jo)") == Author(name: "Jo", email: "jo@example.com"))
        #expect(RSSAuthor.parse("Jo (jo@example.com)") == Author(name: "Jo", email: "jo@example.com"))
        #expect(RSSAuthor.parse("Jo Bloggs (Editor)") == Author(name: "Jo Bloggs (Editor)"))
        #expect(RSSAuthor.parse("Jo <jo@example.com>") == Author(name: "Jo", email: "jo@example.com"))
        // White space around the parts is any space separator or a tab, as Foundation's
        // `.whitespaces`; non-ASCII names and addresses keep their characters.
        #expect(
            RSSAuthor.parse("zoë@exämple.com\u{00A0}(Zoë\u{3000})") == Author(name: "Zoë", email: "zoë@exämple.com"))
        #expect(RSSAuthor.parse("Ünal\u{2003}<\u{00A0}u@example.com>") == Author(name: "Ünal", email: "u@example.com"))
        #expect(RSSAuthor.parse("Plain Name") == Author(name: "Plain Name"))
        #expect(RSSAuthor.parse("solo@example.com") == Author(email: "solo@example.com"))
        #expect(RSSAuthor.parse("not an@address") == Author(name: "not an@address"))
        #expect(RSSAuthor.parse("( )") == Author(name: "( )"))
        // Empty angle brackets hold no address: the text is a name (it used to split into an
        // author with neither name nor e-mail).
        #expect(RSSAuthor.parse("<>") == Author(name: "<>"))
        #expect(RSSAuthor.parse(" \t ") == nil)
    }

    @Test("RSS 1.0 items take their rdf:about as id")
    func rdfAbout() throws {
        let feed = try parseFixture("rss/rss1-rdf-about.xml")
        #expect(feed.format == .rss10)
        #expect(feed.items.map(\.id) == ["https://rdf.example/1"])
        #expect(feed.items.map(\.link) == [URL(string: "https://rdf.example/1.html")])
    }

    @Test("an XHTML doctype before the <rss> root does not make the feed a web page")
    func xhtmlDoctype() throws {
        let feed = try parseFixture("rss/doctype-xhtml-before-rss.xml")
        #expect(feed.title == "found")
    }

    @Test("UTF-16 without a BOM, UTF-16BE and UTF-32BE with one: read as the text they encode")
    func wideEncodings() throws {
        for path in ["rss/encoding-utf16le-no-bom.xml", "rss/encoding-utf16be-bom.xml", "rss/encoding-utf32be-bom.xml"]
        {
            let feed = try parseFixture(path)
            #expect(feed.title == "Wide ünïcode", "\(path)")
            #expect(feed.items.map(\.title) == ["Item ✓"], "\(path)")
            #expect(feed.warnings.isEmpty, "\(path)")
        }
    }

    @Test("an encoding nobody knows is read as UTF-8, with a warning")
    func unknownEncoding() throws {
        let feed = try parseFixture("rss/encoding-unknown-declared.xml")
        #expect(feed.title == "Café bogus: Café")
        #expect(feed.warnings.contains { $0.contains("does not know") })
    }

    @Test("xml:lang on the Atom feed or the RSS channel is the language when no element gives one")
    func xmlLang() throws {
        #expect(try parseFixture("atom/xml-lang.xml").language == "en-GB")
        #expect(try parseFixture("rss/xml-lang.xml").language == "fr-CA")
        let explicit =
            #"<rss version="2.0" xml:lang="de"><channel><language>en-us</language><title>t</title></channel></rss>"#
        #expect(try FeedDocumentParser.parse(data: Data(explicit.utf8), url: nil).language == "en-us")
    }
}
