import Foundation
import Testing

@testable import FeedParser

/// The reading as it is takes runs of escaped text from libxml2 (`EscapedText`): each run it
/// takes becomes the instruction `<?tidings?>`, and is read from the document; only runs that
/// libxml2 would read as the same characters without an error, and the document otherwise byte
/// for byte.
@Suite("Escaped text read without libxml2")
struct EscapedTextTests {
    /// `document` as the writer hands it over, and the runs' texts decoded.
    private static func written(_ document: String) -> (String, [String]) {
        var output: [UInt8] = []
        var runs: [String] = []
        let queue = EscapedText.Queue()
        Array(document.utf8).withUnsafeBytes { raw in
            EscapedText.write(raw, queue: queue) { output.append(contentsOf: $0) }
            // The runs lie in the document: read while it is there.
            while let run = queue.takeNext() {
                var text: [UInt8] = []
                EscapedText.decode(run, into: &text)
                runs.append(String(decoding: text, as: UTF8.self))
            }
        }
        return (String(decoding: output, as: UTF8.self), runs)
    }

    @Test("a run of escaped text becomes the instruction, and is read from the document")
    func escapedRun() {
        let (output, runs) = Self.written("<d>&lt;p&gt;Hi &amp;amp; &quot;you&apos;&lt;/p&gt;</d>")
        #expect(output == "<d><?tidings?></d>")
        #expect(runs == ["<p>Hi &amp; \"you'</p>"])
        // Text before the first reference is kept; a run after another piece of markup too.
        let (second, texts) = Self.written(
            "<a><t>Title: &lt;b&gt;x&lt;/b&gt;</t><e/>tail &lt;i&gt;y&lt;/i&gt;\n</a>")
        #expect(second == "<a><t><?tidings?></t><e/><?tidings?></a>")
        #expect(texts == ["Title: <b>x</b>", "tail <i>y</i>\n"])
    }

    @Test("a run libxml2 would read otherwise, or with an error, is left to it")
    func runsLeftAlone() {
        let kept = [
            // No longer than the instruction.
            "<d>a &lt;b&gt;</d>",
            // A reference that is not one of the five: HTML5's, numeric, unknown, bare.
            "<d>&lt;p&gt;&mdash;&lt;/p&gt;</d>",
            "<d>&lt;p&gt;&#60;&lt;/p&gt;</d>",
            "<d>&lt;p&gt;&bogus;&lt;/p&gt;</d>",
            "<d>&lt;p&gt; AT&T &lt;/p&gt;</d>",
            "<d>&lt;p&gt;&lt;/p&gt;&amp</d>",
            // A `]` (`]]>` is an error in text) and a carriage return (read as a line feed).
            "<d>&lt;p&gt;a]]&gt;b&lt;/p&gt;</d>",
            "<d>&lt;p&gt;[1]&lt;/p&gt;</d>",
            "<d>&lt;p&gt;a\r\nb&lt;/p&gt;</d>",
            // A character XML does not allow.
            "<d>&lt;p&gt;a\u{1}b&lt;/p&gt;</d>",
            "<d>&lt;p&gt;a\u{FFFE}b&lt;/p&gt;</d>",
            // Outside the root element, where XML allows no text.
            "&lt;p&gt;before&lt;/p&gt;<d/>",
            "<d/>&lt;p&gt;after&lt;/p&gt;<e/>",
            "<![CDATA[before the root]]><d/>",
            // A CDATA section holding a carriage return or a character XML does not allow.
            "<d><![CDATA[a\r\nb]]></d>",
            "<d><![CDATA[a\u{1}b]]></d>",
        ]
        for document in kept {
            let (output, runs) = Self.written(document)
            #expect(output == document, "\(document)")
            #expect(runs.isEmpty, "\(document)")
        }
    }

    @Test("what is UTF-8 text XML allows, eight bytes at a time and one by one")
    func text() {
        func isText(_ bytes: [UInt8]) -> Bool {
            // At every alignment, so that the word loop and the byte loop both meet each byte.
            let results = (0..<9).map { padding in
                let padded = [UInt8](repeating: UInt8(ascii: "a"), count: padding) + bytes
                return padded.withUnsafeBufferPointer { EscapedText.isText($0.baseAddress!, count: $0.count) }
            }
            #expect(Set(results).count == 1, "\(bytes)")
            return results[0]
        }
        for good in [
            "plain text, longer than eight bytes\tand\nlines", "Caf\u{E9} \u{5929}\u{6C17} \u{1F980}", "\u{96}\u{7F}",
            "",
        ] {
            #expect(isText(Array(good.utf8)), "\(good)")
        }
        let bad: [[UInt8]] = [
            Array("a]b".utf8), Array("a\rb".utf8), [0x61, 0x00, 0x62], [0x1F], [0xFF], [0xC0, 0x80], [0xC3],
            [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xEF, 0xBF, 0xBE], [0xEF, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80],
            [0xF0, 0x80, 0x80, 0x80], [0xE2, 0x82], [0x80],
        ]
        for bytes in bad { #expect(!isText(bytes + Array("tail of the text".utf8)), "\(bytes)") }
    }

    @Test("the instruction's name is told from shorter and longer ones")
    func instructionName() {
        for (name, expected) in [
            ("tidings", true), ("tid", false), ("tidingsx", false), ("Tidings", false), ("", false),
        ] {
            let isTarget = Array(name.utf8CString).withUnsafeBufferPointer { buffer in
                buffer.baseAddress.map {
                    EscapedText.isTarget(UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self))
                } ?? false
            }
            #expect(isTarget == expected, "\(name)")
        }
    }

    @Test("markup is passed over as it is: quoted values, comments, instructions, CDATA, a DOCTYPE")
    func markupPassedOver() {
        let escaped = "&lt;b&gt;x&lt;/b&gt;"
        let kept = [
            "<d a=\"x>\(escaped)\" b='>\(escaped)'/>",
            "<d><!-- > \(escaped) --></d>",
            "<d><?pi > \(escaped) ?></d>",
        ]
        for document in kept { #expect(Self.written(document).0 == document, "\(document)") }
        #expect(
            Self.written("<?xml version=\"1.0\"?><!DOCTYPE rss PUBLIC \"-//a[b]//EN\" \"x.dtd\"><d>\(escaped)</d>").0
                == "<?xml version=\"1.0\"?><!DOCTYPE rss PUBLIC \"-//a[b]//EN\" \"x.dtd\"><d><?tidings?></d>")
        // A CDATA section is taken whole, its bytes its characters.
        #expect(
            Self.written("<d><![CDATA[ > \(escaped) a]b ]]><![CDATA[]]></d>") == (
                "<d><?tidings?><![CDATA[]]></d>", [" > \(escaped) a]b "]
            ))
        // After an internal subset, where entities are declared, nothing is taken.
        let subset = "<!DOCTYPE d [<!ENTITY e \"v\">]><d>\(escaped)</d>"
        #expect(Self.written(subset).0 == subset)
        // Nor after an instruction of the document's own with the same name.
        let own = "<r><a>\(escaped)</a><?tidings?><b>\(escaped)</b></r>"
        #expect(Self.written(own) == ("<r><a><?tidings?></a><?tidings?><b>\(escaped)</b></r>", ["<b>x</b>"]))
        // A document that ends inside markup is passed over from there.
        let cut = "<d>\(escaped)</d><!-- \(escaped)"
        #expect(Self.written(cut).0 == "<d><?tidings?></d><!-- \(escaped)")
    }

    @Test("a long run is taken whole, or left whole")
    func longRuns() {
        let long = String(repeating: "&lt;p&gt;paragraph &amp;amp; more&lt;/p&gt;\n", count: 4_000)
        let decoded = String(repeating: "<p>paragraph &amp; more</p>\n", count: 4_000)
        let document = "<rss><d>\(long)</d><d>&lt;i&gt;x&lt;/i&gt;</d></rss>"
        let (output, runs) = Self.written(document)
        #expect(output == "<rss><d><?tidings?></d><d><?tidings?></d></rss>")
        #expect(runs == [decoded, "<i>x</i>"])
        // A long run with one reference that is not predefined, at its very end: left whole.
        let spoiled = "<rss><d>\(long)&nbsp;</d></rss>"
        #expect(Self.written(spoiled) == (spoiled, []))
    }

    /// The feed of `document`, read as it is (through the writer) and through the entity
    /// rewriting, whole and streamed: the two must agree.
    private static func agree(_ document: String) -> Bool { agree(Data(document.utf8)) }

    private static func agree(_ data: Data) -> Bool {
        let readings = AsItIsReadingTests.readings(data)
        return Array(readings[0..<3]) == Array(readings[3..<6])
    }

    /// Whether the reading as it is, through the writer, read `document` to its end.
    private static func readAsItIs(_ document: String) -> Bool { readAsItIs(Data(document.utf8)) }

    private static func readAsItIs(_ data: Data) -> Bool {
        let queue = EscapedText.Queue()
        let outcome = data.withUnsafeBytes { raw in
            SAXFeedReader.read(documentURL: nil, readsHTMLEntities: true, escapedText: queue) { push in
                EscapedText.write(raw, queue: queue, into: push)
            }
        }
        guard let diagnostics = outcome?.diagnostics else { return false }
        return !diagnostics.abandoned && diagnostics.wellFormed && diagnostics.firstError == nil
    }

    @Test("feeds with escaped text read the same taken from libxml2 as through the entity rewriting")
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
            AsItIsReadingTests.feed(
                "<item><guid>b</guid><title>\(escaped)</title><?tidings?><description>\(escaped)</description></item>"),
            AsItIsReadingTests.feed(
                "<item><guid>b</guid><title><![CDATA[\(escaped) ]] ]>]]></title><description><![CDATA[<p>\u{96}</p>]]>\(escaped)<![CDATA[x]]></description></item>"
            ),
            AsItIsReadingTests.feed("<item><guid>b</guid><description><![CDATA[a\r\nb\rc]]></description></item>"),
            // Many runs, the instructions that stand for them split across libxml2's chunks.
            AsItIsReadingTests.feed(
                (0..<3_000).map {
                    "<item><guid>\($0)</guid><title>\(escaped) \($0)</title><description>\(escaped)</description></item>"
                }
                .joined(separator: "\n")),
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
            AsItIsReadingTests.feed("<item><guid>b</guid><title><![CDATA[a\u{1}b]]></title></item>"),
            "<?xml version=\"1.0\"?>\n<![CDATA[\(escaped)]]><rss version=\"2.0\"><channel><title>t</title></channel></rss>",
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
