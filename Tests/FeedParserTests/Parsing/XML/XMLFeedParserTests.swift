import Foundation
import Models
import Testing

@testable import FeedParser

@Suite("RSS and Atom parser")
struct XMLFeedParserTests {
    @Test("RSS 2.0: channel fields, entities, CDATA, content:encoded, guid, authors, enclosures")
    func rss20() throws {
        let feed = try parseFixture("rss/rss2-basic.xml", url: "https://example.com/feed.xml")
        #expect(feed.format == .rss20)
        #expect(feed.title == "Example & Co")
        #expect(feed.link == URL(string: "https://example.com/"))
        #expect(feed.feedURL == URL(string: "https://example.com/feed.xml"))
        #expect(feed.description == "News from Example")
        #expect(feed.language == "en-us")
        #expect(feed.updated == RFC3339.date(from: "2021-03-13T10:00:00Z"))
        #expect(feed.icon == URL(string: "https://example.com/logo.png"))
        #expect(feed.items.count == 2)

        let first = feed.items[0]
        #expect(first.title == "First <post>")
        #expect(first.id == "urn:example:1")
        #expect(first.uniqueID == "urn:example:1")
        #expect(first.link == URL(string: "https://example.com/posts/1"))
        #expect(first.published == RFC3339.date(from: "2021-03-13T09:00:00Z"))
        #expect(first.authors == [Author(name: "Jo Smith", email: "jo@example.com")])
        #expect(first.categories == ["news", "swift"])
        #expect(first.summary == "Short summary")
        #expect(first.contentHTML == "<p>Full <b>content</b></p>")
        #expect(
            first.enclosures == [
                Enclosure(url: URL(string: "https://cdn.example.com/1.mp3")!, mimeType: "audio/mpeg", length: 1234)
            ])

        let second = feed.items[1]
        #expect(second.link == URL(string: "https://example.com/posts/2"))  // permalink guid
        #expect(second.authors == [Author(name: "Sam")])
        #expect(second.published == RFC3339.date(from: "2021-03-12T09:00:00Z"))
        #expect(second.contentHTML == "<p>Escaped HTML body</p>")
        #expect(second.summary == nil)
    }

    @Test("Atom 1.0: links by rel, xml:base per element, authors and contributors, content over summary")
    func atom10() throws {
        let feed = try parseFixture("atom/atom1-basic.xml")
        #expect(feed.format == .atom10)
        #expect(feed.title == "Atom Example")
        #expect(feed.description == "Thoughts")
        #expect(feed.link == URL(string: "https://blog.example.org/"))
        #expect(feed.feedURL == URL(string: "https://blog.example.org/atom.xml"))
        #expect(feed.icon == URL(string: "https://blog.example.org/favicon.ico"))
        #expect(feed.authors == [Author(name: "Jo", email: "jo@example.org", uri: "https://jo.example.org/")])
        #expect(feed.updated == RFC3339.date(from: "2021-03-13T09:00:00Z"))

        let one = feed.items[0]
        #expect(one.uniqueID == "tag:blog.example.org,2021:1")
        #expect(one.link == URL(string: "https://blog.example.org/entries/1"))
        #expect(one.published == RFC3339.date(from: "2021-03-13T07:00:00Z"))
        #expect(one.updated == RFC3339.date(from: "2021-03-13T09:30:00Z"))
        #expect(one.summary == "Summary one")
        #expect(one.contentHTML == "<p>Content one</p>")
        #expect(one.categories == ["swift"])
        #expect(one.enclosures.first?.length == 99)

        let two = feed.items[1]
        #expect(two.link == URL(string: "https://other.example.net/dir/two.html"))
        #expect(two.authors == [Author(name: "Sam")])
        #expect(two.contentHTML == "Only a summary")
    }

    @Test("RSS 1.0 (RDF) and RSS 0.91 are recognised")
    func olderRSS() throws {
        let rdf = try parseFixture("rss/rss1-rdf.xml")
        #expect(rdf.format == .rss10)
        #expect(rdf.title == "RDF Site")
        #expect(rdf.items.map(\.title) == ["Item A"])
        #expect(rdf.items[0].categories == ["rdf"])
        #expect(rdf.items[0].published == RFC3339.date(from: "2021-03-13T09:00:00Z"))
        let old = try parseFixture("rss/rss091.xml")
        #expect(old.format == .rss09x)
        #expect(old.items.map(\.link) == [URL(string: "https://old.example/1")])
    }

    @Test("a cut-off document keeps the items read before the cut, with a warning")
    func truncated() throws {
        let feed = try parseFixture("rss/rss2-truncated.xml")
        #expect(feed.items.map(\.uniqueID) == ["c1", "c2"])
        #expect(feed.warnings.count == 1)
        #expect(feed.warnings.first?.contains("cut off") == true)
    }

    @Test("HTML pages, other XML, empty files and binary data are not feeds")
    func notFeeds() throws {
        #expect(throws: FeedParseError.notAFeed("an HTML page")) { try parseFixture("other/html-page.html") }
        #expect(throws: FeedParseError.notAFeed("an XML document whose root is <svg>")) {
            try parseFixture("other/other-xml.xml")
        }
        #expect(throws: FeedParseError.notAFeed("the document is empty")) {
            try FeedDocumentParser.parse(data: Data(" \n".utf8), url: nil)
        }
        #expect(throws: FeedParseError.notAFeed("binary data")) {
            try FeedDocumentParser.parse(data: Data([0x89, 0x50, 0x4E, 0x47, 0, 0, 1]), url: nil)
        }
        #expect(throws: FeedParseError.notAFeed("the document is neither XML nor JSON")) {
            try FeedDocumentParser.parse(data: Data("hello".utf8), url: nil)
        }
    }

    @Test("external entities are never loaded")
    func noExternalEntities() throws {
        let hostname =
            (try? String(contentsOfFile: "/etc/hostname", encoding: .utf8))?.trimmingCharacters(
                in: .whitespacesAndNewlines) ?? ""
        do {
            let feed = try parseFixture("other/xxe.xml")
            #expect(!hostname.isEmpty && feed.title?.contains(hostname) != true)
        } catch {
            // Refusing the document outright is also safe.
            #expect(error.localizedDescription.contains(hostname) == false)
        }
    }

    @Test(
        "RSS author forms",
        arguments: [
            ("jo@example.com (Jo Smith)", Author(name: "Jo Smith", email: "jo@example.com")),
            ("Jo Smith <jo@example.com>", Author(name: "Jo Smith", email: "jo@example.com")),
            ("jo@example.com", Author(email: "jo@example.com")), ("Jo Smith", Author(name: "Jo Smith")),
        ])
    func authorForms(text: String, expected: Author) {
        #expect(RSSAuthor.parse(text) == expected)
    }

    @Test("the JSON Feed path goes through the same entry point")
    func jsonThroughEntryPoint() throws {
        #expect(try parseFixture("jsonfeed/v1.1-basic.json").format == .jsonFeed11)
    }
}

@Suite("XML encodings and entities")
struct XMLEncodingTests {
    @Test("the XML declaration's encoding is honoured: Windows-1252, ISO-8859-1, UTF-8 with a BOM")
    func encodings() throws {
        let windows = try parseFixture("rss/encoding-windows-1252.xml")
        #expect(windows.title == "Café “quoted” € sign")
        #expect(windows.items.first?.title == "Naïve résumé")
        let latin1 = try parseFixture("rss/encoding-iso-8859-1.xml")
        #expect(latin1.title == "Grüße aus Köln")
        #expect(latin1.items.first?.title == "© 2021")
        #expect(try parseFixture("rss/encoding-utf8-bom.xml").title == "BOM ✓")
    }

    @Test("HTML named entities that XML does not define are decoded; unknown ones kept as text")
    func htmlEntities() throws {
        let feed = try parseFixture("rss/html-entities.xml")
        #expect(feed.title == "Entities\u{A0}&\u{A0}more…")
        #expect(feed.items.first?.title == "Café — “quoted” © © ©")
        #expect(feed.items.first?.contentHTML == "a <b> &unknownentity; c")
        #expect(feed.items.count == 2)
    }

    @Test("every HTML5 named reference is decoded, in XML text and in the HTML inside CDATA; two-code-point ones whole")
    func html5Entities() throws {
        let feed = try parseFixture("rss/html5-entities.xml")
        #expect(feed.title == "Blåbær & Øl")
        let item = try #require(feed.items.first)
        #expect(item.title == "→ Next αβ ½ ✓ \u{2242}\u{338}")
        #expect(item.summary == "‹x› &bogusname;")
        #expect(item.contentHTML == "<p>&larr; back &amp; &Aring;ngstr&ouml;m &bogusname;</p>")
        #expect(item.contentText == "← back & Ångström &bogusname;")
    }

    @Test("the entity rewrite leaves CDATA and plain documents alone")
    func preprocessorScope() {
        let plain = Data("<rss><title>a &amp; b</title></rss>".utf8)
        #expect(HTMLEntityPreprocessor.process(plain).data == plain)
        let cdata = Data("<x><![CDATA[&nbsp;]]>&nbsp;</x>".utf8)
        #expect(
            String(decoding: HTMLEntityPreprocessor.process(cdata).data, as: UTF8.self)
                == "<x><![CDATA[&nbsp;]]>&#160;</x>")
    }

    @Test("a billion-laughs document is refused with a clear error")
    func billionLaughs() throws {
        #expect(
            throws: FeedParseError.malformed("an entity expands without bound (a billion-laughs document?); refused")
        ) {
            try parseFixture("other/billion-laughs.xml")
        }
    }
}

@Suite("Namespaces: Media RSS and iTunes")
struct MediaNamespaceTests {
    @Test("media:content and media:thumbnail become enclosures; iTunes author and image are read")
    func mediaAndITunes() throws {
        let feed = try FeedDocumentParser.parse(
            data: try fixture("rss/media-itunes.xml"), url: URL(string: "https://pod.example/feed.xml"))
        #expect(feed.authors == [Author(name: "The Hosts")])
        #expect(feed.icon == URL(string: "https://pod.example/cover.jpg"))
        let episode = try #require(feed.items.first)
        #expect(episode.authors == [Author(name: "Guest Host")])
        #expect(
            episode.enclosures == [
                Enclosure(url: URL(string: "https://pod.example/ep1.mp3")!, mimeType: "audio/mpeg", length: 100),
                Enclosure(url: URL(string: "https://pod.example/ep1.mp4")!, mimeType: "video/*", length: 2000),
                Enclosure(url: URL(string: "https://pod.example/thumb1.jpg")!, mimeType: "image/*"),
            ])
    }
}

@Suite("Atom XHTML content")
struct AtomXHTMLTests {
    @Test("type=xhtml content keeps its markup as HTML, without the wrapping div")
    func xhtml() throws {
        let feed = try FeedDocumentParser.parse(data: try fixture("atom/atom-xhtml.xml"), url: nil)
        let entry = try #require(feed.items.first)
        #expect(
            entry.contentHTML
                == #"<p>Hello <b>bold</b> &amp; <a href="https://e.example/?a=1&amp;b=2">link</a></p><p>Second</p>"#)
        #expect(entry.contentText == "Hello bold & link\nSecond")
        #expect(entry.title == "Plain title")
        #expect(feed.title == "XHTML feed")
    }
}

@Suite("Encodings that lie")
struct EncodingRepairTests {
    @Test("a document claiming UTF-8 but written in Windows-1252 is read as Windows-1252, with a warning")
    func lie() throws {
        let feed = try FeedDocumentParser.parse(data: try fixture("rss/encoding-lie.xml"), url: nil)
        #expect(feed.title == "Café lies")
        #expect(feed.items.map(\.title) == ["One “two”", "Three"])
        #expect(feed.warnings == ["the document is not the UTF-8 it claims; read it as Windows-1252"])
    }

    @Test("mostly valid UTF-8 with a stray bad byte keeps its UTF-8 and replaces the bad byte, with a warning")
    func mixed() throws {
        let feed = try FeedDocumentParser.parse(data: try fixture("rss/encoding-mixed.xml"), url: nil)
        #expect(feed.title == "Mixed café and bad \u{FFFD}")
        #expect(feed.warnings == ["the document is not valid UTF-8 (1 stray bytes); replaced them with U+FFFD"])
    }

    @Test("invalid bytes never make the feed unreadable")
    func invalidBytes() throws {
        let feed = try FeedDocumentParser.parse(data: try fixture("rss/encoding-invalid-bytes.xml"), url: nil)
        #expect(feed.items.count == 1)
        #expect(feed.title?.hasPrefix("Bad ") == true)
    }
}

@Suite("HTTP charset")
struct HTTPCharsetTests {
    @Test("a document without its own encoding is read in the HTTP charset")
    func httpCharset() throws {
        let data = try fixture("rss/encoding-from-http.xml")
        #expect(try FeedDocumentParser.parse(data: data, url: nil, charset: "ISO-8859-1").title == "Latin été")
        #expect(try FeedDocumentParser.parse(data: data, url: nil, charset: "\"windows-1252\"").title == "Latin été")
    }

    @Test("the document's own declaration wins over the HTTP charset")
    func declarationWins() throws {
        let data = try fixture("rss/encoding-iso-8859-1.xml")
        #expect(try FeedDocumentParser.parse(data: data, url: nil, charset: "utf-8").title == "Grüße aus Köln")
    }
}
