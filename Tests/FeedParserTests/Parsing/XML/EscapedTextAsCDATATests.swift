import Foundation
import Testing

@testable import FeedParser

/// The reading as it is hands libxml2 runs of escaped text as CDATA sections
/// (`EscapedTextAsCDATA`): only runs that read the same either way, and the document otherwise
/// byte for byte.
@Suite("Escaped text read as CDATA")
struct EscapedTextAsCDATATests {
    /// `document` as the writer hands it over, checking that the pieces after the first (the
    /// document as it lies, up to the first run rewritten) end where libxml2's chunks do: after
    /// the first four bytes, then every `chunkSize`.
    private static func written(_ document: String, chunkSize: Int = 256 * 1024) -> String {
        var output: [UInt8] = []
        var sizes: [Int] = []
        Array(document.utf8).withUnsafeBytes { raw in
            EscapedTextAsCDATA.write(raw, chunkSize: chunkSize) { piece in
                output.append(contentsOf: piece)
                sizes.append(piece.count)
            }
        }
        var end = 0
        for (index, size) in sizes.enumerated() {
            end += size
            #expect(size > 0)
            if index > 0, index < sizes.count - 1 { #expect(end >= 4 && (end - 4) % chunkSize == 0, "pieces \(sizes)") }
        }
        return String(decoding: output, as: UTF8.self)
    }

    @Test("a run of escaped markup becomes one CDATA section of the same characters")
    func escapedRun() {
        #expect(
            Self.written("<d>&lt;p&gt;Hi &amp;amp; &quot;you&apos;&lt;/p&gt;</d>")
                == "<d><![CDATA[<p>Hi &amp; \"you'</p>]]></d>")
        // Text before the first reference is kept; a run after another piece of markup too.
        #expect(
            Self.written("<a><t>Title: &lt;b&gt;x&lt;/b&gt;</t><e/>tail &lt;i&gt;y&lt;/i&gt;</a>")
                == "<a><t><![CDATA[Title: <b>x</b>]]></t><e/><![CDATA[tail <i>y</i>]]></a>")
    }

    @Test("a run that would read differently or grow is left as it is")
    func runsLeftAlone() {
        let kept = [
            // Too few references to pay for the section's markup: it would grow.
            "<d>a &lt;b&gt; c</d>",
            // A reference that is not one of the five: HTML5's, numeric, unknown, bare.
            "<d>&lt;p&gt;&mdash;&lt;/p&gt;</d>",
            "<d>&lt;p&gt;&#60;&lt;/p&gt;</d>",
            "<d>&lt;p&gt;&bogus;&lt;/p&gt;</d>",
            "<d>&lt;p&gt; AT&T &lt;/p&gt;</d>",
            "<d>&lt;p&gt;&lt;/p&gt;&amp</d>",
            // A `]` (a `]]>` would end the section) and a carriage return (kept in CDATA only).
            "<d>&lt;p&gt;a]]&gt;b&lt;/p&gt;</d>",
            "<d>&lt;p&gt;[1]&lt;/p&gt;</d>",
            "<d>&lt;p&gt;a\r\nb&lt;/p&gt;</d>",
        ]
        for document in kept { #expect(Self.written(document) == document, "\(document)") }
    }

    @Test("markup is passed over as it is: quoted values, comments, instructions, CDATA, a DOCTYPE")
    func markupPassedOver() {
        let escaped = "&lt;b&gt;x&lt;/b&gt;"
        let kept = [
            "<d a=\"x>\(escaped)\" b='>\(escaped)'/>",
            "<d><!-- > \(escaped) --></d>",
            "<d><?pi > \(escaped) ?></d>",
            "<d><![CDATA[ > \(escaped) ]]></d>",
        ]
        for document in kept { #expect(Self.written(document) == document, "\(document)") }
        #expect(
            Self.written("<?xml version=\"1.0\"?><!DOCTYPE rss PUBLIC \"-//a[b]//EN\" \"x.dtd\"><d>\(escaped)</d>")
                == "<?xml version=\"1.0\"?><!DOCTYPE rss PUBLIC \"-//a[b]//EN\" \"x.dtd\"><d><![CDATA[<b>x</b>]]></d>")
        // After an internal subset, where entities are declared, nothing is rewritten.
        let subset = "<!DOCTYPE d [<!ENTITY e \"v\">]><d>\(escaped)</d>"
        #expect(Self.written(subset) == subset)
        // A document that ends inside markup is passed over from there.
        let cut = "<d>\(escaped)</d><!-- \(escaped)"
        #expect(Self.written(cut) == "<d><![CDATA[<b>x</b>]]></d><!-- \(escaped)")
    }

    @Test("every chunk size hands over the same document; a run longer than the buffer is checked first")
    func chunksAndLongRuns() {
        let long = String(repeating: "&lt;p&gt;paragraph &amp;amp; more&lt;/p&gt;\n", count: 4_000)
        let decoded = String(repeating: "<p>paragraph &amp; more</p>\n", count: 4_000)
        let document = "<rss><d>\(long)</d><d>&lt;i&gt;x&lt;/i&gt;</d></rss>"
        #expect(long.utf8.count > EscapedTextAsCDATA.runInBuffer)
        let expected = "<rss><d><![CDATA[\(decoded)]]></d><d><![CDATA[<i>x</i>]]></d></rss>"
        for chunkSize in [1, 7, 4_096, 65_536, 256 * 1024] {
            #expect(Self.written(document, chunkSize: chunkSize) == expected, "chunk \(chunkSize)")
        }
        // A long run with one reference that is not predefined, at its very end: left whole.
        let spoiled = "<rss><d>\(long)&nbsp;</d></rss>"
        #expect(Self.written(spoiled, chunkSize: 4_096) == spoiled)
    }

    /// The feed of `document`, read as it is (through the writer) and through the entity
    /// rewriting, whole and streamed: the two must agree.
    private static func agree(_ document: String) -> Bool { agree(Data(document.utf8)) }

    private static func agree(_ data: Data) -> Bool {
        let url = URL(string: "https://feed.example/feed.xml")
        func read(_ asItIs: Bool) -> String {
            do {
                var streamed: [ParsedItem] = []
                let whole = try XMLFeedParser.parse(data, url: url, readingAsItIsFirst: asItIs)
                let rest = try XMLFeedParser.parse(
                    data, url: url,
                    each: { event in
                        switch event {
                        case .item(let item): streamed.append(item)
                        case .restart: streamed = []
                        }
                    }, readingAsItIsFirst: asItIs)
                return "\(whole) \(rest) \(streamed)"
            } catch {
                return "error: \(error)"
            }
        }
        return read(true) == read(false)
    }

    /// Whether the reading as it is, through the writer, read `document` to its end.
    private static func readAsItIs(_ document: String) -> Bool { readAsItIs(Data(document.utf8)) }

    private static func readAsItIs(_ data: Data) -> Bool {
        let outcome = SAXFeedReader.read(documentURL: nil, readsHTMLEntities: true) { push in
            data.withUnsafeBytes { EscapedTextAsCDATA.write($0, chunkSize: 4_096, into: push) }
        }
        guard let diagnostics = outcome?.diagnostics else { return false }
        return !diagnostics.abandoned && diagnostics.wellFormed && diagnostics.firstError == nil
    }

    @Test("feeds with escaped text read the same through the CDATA sections as through the rewriting")
    func feedsAgree() {
        let escaped =
            "&lt;p&gt;Caf\u{E9} &amp;amp; &lt;a href=&quot;/x?a=1&amp;amp;b=2&quot;&gt;link&lt;/a&gt;&lt;/p&gt;"
        let wellFormed = [
            AsItIsReadingTests.feed(
                "<item><guid>b</guid><title>\(escaped)</title><description>\(escaped)</description></item>"),
            AsItIsReadingTests.feed(
                "<item><guid>b</guid><description>\(String(repeating: escaped, count: 3_000))</description></item>"),
            AsItIsReadingTests.feed(
                "<item><guid>b</guid><description>  \(escaped) &amp;mdash; \u{96} </description></item>"),
            AsItIsReadingTests.feed(
                "<item><guid>b</guid><description>\(escaped)\r\n\(escaped)\r\r\(escaped)</description></item>"),
            AsItIsReadingTests.feed(
                "<item><guid>b</guid><description>\(escaped) [1] a]]&gt;b ]]]]&gt;</description></item>"),
            """
            <?xml version="1.0" encoding="utf-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom"><title type="html">\(escaped)</title>
            <entry><id>a</id><title>\(escaped)</title><content type="html">\(escaped)</content>
            <summary type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">\(escaped)<b>\(escaped)</b></div></summary>
            <author><name>\(escaped)</name></author></entry></feed>
            """,
        ]
        for (index, document) in wellFormed.enumerated() {
            #expect(Self.readAsItIs(document), "\(index)")
            #expect(Self.agree(document), "\(index)")
        }
        // Escaped text where XML allows no text: an error either way, read through the rewriting.
        let misplaced = [
            "<?xml version=\"1.0\"?>\n\(escaped)<rss version=\"2.0\"><channel><title>t</title></channel></rss>",
            "<rss version=\"2.0\"><channel><title>t</title></channel></rss>\(escaped)",
            AsItIsReadingTests.feed("<item><guid>b</guid><title>\(escaped)\u{1}</title></item>"),
            AsItIsReadingTests.feed("<item><guid>b</guid><title>\(escaped)</title><x>\(escaped)</item>"),
        ]
        for (index, document) in misplaced.enumerated() {
            #expect(!Self.readAsItIs(document), "\(index)")
            #expect(Self.agree(document), "\(index)")
        }
        // Bytes that are not UTF-8 inside an escaped run: an error either way.
        var broken = Data(AsItIsReadingTests.feed("<item><guid>b</guid><title>\(escaped)@</title></item>").utf8)
        if let at = broken.firstIndex(of: UInt8(ascii: "@")) { broken[at] = 0xFF }
        #expect(!Self.readAsItIs(broken))
        #expect(Self.agree(broken))
        let feed = try? XMLFeedParser.parse(Data(wellFormed[0].utf8), url: URL(string: "https://feed.example/feed.xml"))
        #expect(feed?.items.dropFirst().first?.title == "Caf\u{E9} & link")
    }
}
