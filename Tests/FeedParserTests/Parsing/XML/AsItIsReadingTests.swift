import Foundation
import Testing

@testable import FeedParser

/// A document is first read as it is, HTML5's entities answered by libxml2's own lookup, and
/// read through the entity rewriting only when that reading stops (`XMLFeedParser.parse`). The
/// two readings must agree on every document; these tests hold each fixture and each kind of
/// reference the rewriting changes to that.
@Suite("Reading a document as it is first")
struct AsItIsReadingTests {
    /// Both readings of `data`: the feed or the error, and the items streamed (after restarts).
    static func readings(_ data: Data, url: URL? = URL(string: "https://feed.example/feed.xml")) -> [String] {
        [true, false].flatMap { asItIs -> [String] in
            let whole: String
            do {
                whole = String(describing: try XMLFeedParser.parse(data, url: url, readingAsItIsFirst: asItIs))
            } catch {
                whole = "error: \(error)"
            }
            var streamed: [ParsedItem] = []
            let rest: String
            do {
                rest = String(
                    describing: try XMLFeedParser.parse(
                        data, url: url,
                        each: { event in
                            switch event {
                            case .item(let item): streamed.append(item)
                            case .restart: streamed = []
                            }
                        }, readingAsItIsFirst: asItIs))
            } catch {
                rest = "error: \(error)"
            }
            return [whole, rest, String(describing: streamed)]
        }
    }

    /// Whether the reading as it is stopped (and the document went through the rewriting).
    private static func abandoned(_ document: String) -> Bool {
        guard let outcome = SAXFeedReader.read(Data(document.utf8), documentURL: nil, readsHTMLEntities: true)
        else { return true }
        return outcome.diagnostics.abandoned || !outcome.diagnostics.wellFormed
            || outcome.diagnostics.firstError != nil
    }

    static let fixtures: [String] = {
        guard let root = Bundle.module.url(forResource: "Resources", withExtension: nil),
            let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        else { return [] }
        return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "xml" }.map {
            String($0.path.dropFirst(root.path.count + 1))
        }.sorted()
    }()

    @Test("every XML fixture reads the same both ways, whole and streamed")
    func fixturesAgree() throws {
        #expect(Self.fixtures.count >= 80)
        for path in Self.fixtures {
            let readings = Self.readings(try fixture(path))
            #expect(Array(readings[0..<3]) == Array(readings[3..<6]), "\(path)")
        }
    }

    static func feed(_ item: String, head: String = "") -> String {
        """
        <?xml version="1.0" encoding="utf-8"?>\(head)
        <rss version="2.0"><channel><title>t</title><link>https://feed.example/</link>
        <item><guid>a</guid><title>First</title></item>
        \(item)
        <item><guid>z</guid><title>Last &amp; &lt;final&gt;</title></item>
        </channel></rss>
        """
    }

    /// Documents the rewriting changes, each of which must stop the reading as it is.
    static let rewritten: [String] = [
        feed("<item><guid>b</guid><title>AT&T</title></item>"),
        feed("<item><guid>b</guid><link>https://x.example/?a=1&b=2</link></item>"),
        feed("<item><guid>b</guid><title>&bogusname; here</title></item>"),
        feed("<item><guid>b</guid><title>dash &#150; here</title></item>"),
        feed("<item><guid>b</guid><title>dash &#x96; here</title></item>"),
        feed("<item><guid>b</guid><enclosure url=\"https://x.example/a&#150;b.mp3\" type=\"audio/mpeg\"/></item>"),
        feed("<item><guid>b</guid><title>&#X41;</title></item>"),
        feed("<item><guid>b</guid><title>nul &#0; here</title></item>"),
        feed("<item><guid>b</guid><title>&#xZZ; and &#;</title></item>"),
        feed("<item><guid>b</guid><category domain=\"Caf&eacute;\">x</category><title>t</title></item>"),
        feed("<item><guid>b</guid><category domain=\"a&nbsp;b\">x</category></item>"),
        feed("<item><guid>b</guid><title>a < b</title></item>"),
        feed("<item><guid>b</guid><title>&mine;</title></item>", head: "<!DOCTYPE rss [<!ENTITY mine \"Mine\">]>"),
        feed("<item><guid>b</guid><title>unclosed</item>"),
        feed("<item><guid>b</guid><title>cut off"),
    ]

    /// Documents the reading as it is reads through to the end.
    static let readAsTheyAre: [String] = [
        feed("<item><guid>b</guid><title>Caf&eacute; &rarr; &hellip; &NotEqualTilde; &nbsp;</title></item>"),
        feed("<item><guid>b</guid><description><![CDATA[<p>&nbsp;&bogus; AT&T &#150;</p>]]></description></item>"),
        feed("<item><guid>b</guid><category domain=\"a&lpar;b&amp;c&#8211;\">x</category></item>"),
        feed("<item><guid>b</guid><title>dash &#8211; and &#x2014; and literal \u{96}text</title></item>"),
        feed(
            "<item><guid>b</guid><title>unused</title></item>",
            head: "<!DOCTYPE rss PUBLIC \"-//Netscape Communications//DTD RSS 0.91//EN\" \"http://x/rss.dtd\">"),
    ]

    @Test("what the entity rewriting would change stops the reading as it is, and both readings agree")
    func rewrittenDocuments() {
        for (index, document) in Self.rewritten.enumerated() {
            #expect(Self.abandoned(document), "\(index): \(document)")
            let readings = Self.readings(Data(document.utf8))
            #expect(Array(readings[0..<3]) == Array(readings[3..<6]), "\(index)")
        }
    }

    /// UTF-16 by its first bytes, with a high surrogate no low one follows: libxml2 cannot
    /// convert it, halts, and reports that to its generic handler only.
    static let unconvertible: Data = {
        func utf16(_ text: String) -> [UInt8] { text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } }
        return Data(
            utf16("<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>t</title>")
                + [0x20, 0xDB, 0x20, 0x20] + utf16("<item><guid>a</guid></item></channel></rss>"))
    }()

    @Test("bytes libxml2 cannot convert from the encoding it detected are an error, both ways")
    func unconvertibleBytes() throws {
        let readings = Self.readings(Self.unconvertible)
        #expect(Array(readings[0..<3]) == Array(readings[3..<6]))
        // Found by the xml fuzz target (2026-11-28): read as it is, the halted reading came back
        // well-formed with no root element; through the rewriting, repaired with its items.
        let found = Self.readings(try fixture("other/fuzz-xml-utf16-unconvertible.xml"))
        #expect(Array(found[0..<3]) == Array(found[3..<6]))
        #expect(!found[0].hasPrefix("error"))
        let outcome = SAXFeedReader.read(Self.unconvertible, documentURL: nil, readsHTMLEntities: true)
        #expect(outcome?.diagnostics.wellFormed == false)
        #expect(outcome?.diagnostics.firstError != nil)
    }

    @Test("a well-formed document with HTML5's entities, CDATA and character references is read once, as it is")
    func readOnce() {
        for (index, document) in Self.readAsTheyAre.enumerated() {
            #expect(!Self.abandoned(document), "as it is: \(index)")
            let readings = Self.readings(Data(document.utf8))
            #expect(Array(readings[0..<3]) == Array(readings[3..<6]), "\(index)")
        }
        let feed = try? XMLFeedParser.parse(Data(Self.readAsTheyAre[0].utf8), url: nil)
        #expect(feed?.items.map(\.title) == ["First", "Café → … \u{2242}\u{338} \u{A0}", "Last & <final>"])
    }
}
