import Testing

@testable import FeedParser
@testable import Markup

@Suite("HTML to text")
struct HTMLTextTests {
    @Test("block elements become line breaks, inline tags vanish, spaces collapse")
    func blocks() {
        #expect(HTMLText.plainText("<p>Hello <b>bold</b>   world</p><p>Second</p>") == "Hello bold world\nSecond")
        #expect(HTMLText.plainText("One<br>Two<br/>Three") == "One\nTwo\nThree")
        #expect(HTMLText.plainText("<ul><li>a</li><li>b</li></ul>") == "a\nb")
    }

    @Test("scripts and styles are dropped with their content")
    func scripts() {
        #expect(
            HTMLText.plainText("<p>Safe</p><script>alert('x')</script><style>p{}</style><p>Text</p>") == "Safe\nText")
    }

    @Test("entities: the XML five, numeric, and common HTML names; unknown ones stay")
    func entities() {
        #expect(HTMLEntities.decode("a &amp; b &lt;c&gt; &quot;d&quot; &#39;e&#x27;") == "a & b <c> \"d\" 'e'")
        #expect(HTMLEntities.decode("&hellip;&mdash;&eacute;&nbsp;&euro;") == "…—é\u{A0}€")
        #expect(HTMLEntities.decode("&unknown; & alone &#xZZ;") == "&unknown; & alone &#xZZ;")
        #expect(HTMLText.plainText("Caf&eacute;&nbsp;au&nbsp;lait") == "Café au lait")
    }

    @Test("every named reference of HTML5 is known, and the few that stand for two code points give both")
    func html5Names() {
        #expect(HTMLEntities.count == 2125)
        #expect(HTMLEntities.decode("&rarr;&alpha;&Aring;&oslash;&frac12;&check;&AMP;&hearts;") == "→αÅø½✓&♥")
        #expect(HTMLEntities.decode("&NotEqualTilde;&fjlig;") == "\u{2242}\u{338}fj")
        #expect(HTMLText.plainText("<p>x&fjlig;y&NotEqualTilde;&rarr;</p>") == "xfjy\u{2242}\u{338}→")
        #expect(HTMLEntities.decode("&rarr &Rarr; &rArr; &notanentity;") == "&rarr ↠ ⇒ &notanentity;")
    }

    @Test("numeric references follow HTML5: forbidden code points are U+FFFD, 128-159 are Windows-1252")
    func numericReferences() {
        #expect(
            HTMLEntities.decode("a&#0;b&#x0;c&#xD800;d&#x110000;e&#1;f&#xFFFF;g")
                == "a\u{FFFD}b\u{FFFD}c\u{FFFD}d\u{FFFD}e\u{FFFD}f\u{FFFD}g")
        #expect(HTMLEntities.decode("&#150; &#128; &#147;q&#148; &#x92; &#x9F; &#129;") == "– € “q” ’ Ÿ \u{81}")
        #expect(HTMLEntities.decode("&#9;&#10;&#13;&#160;&#x1F600;") == "\t\n\r\u{A0}😀")
        #expect(HTMLText.plainText("x &#0; y &#150; z") == "x \u{FFFD} y – z")
    }

    @Test("long runs of text: a space, tab, entity or tag at any offset is handled as in a short one")
    func longRuns() {
        for offset in 0..<40 {
            let prefix = String(repeating: "a", count: offset)
            let tail = String(repeating: "word é ", count: 6)
            let text = prefix + "  b&amp;c\td<br>e<i>f</i> g " + tail + "&lt; 5 < 6"
            let expected = prefix + " b&c d\nef g " + tail.split(separator: " ").joined(separator: " ") + " < 5 < 6"
            #expect(HTMLText.plainText(text) == expected.trimmedWhitespace, "offset \(offset)")
        }
    }

    @Test("a quote in an unquoted value, or a < inside a script, does not swallow the text after it")
    func tagsReadAsABrowserDoes() {
        #expect(
            HTMLText.plainText("<img alt=Bob's src=x.png> I don't know <b>this</b> rest") == "I don't know this rest")
        #expect(HTMLText.plainText(#"<script>if (a<b) { s = "</p>"; }</script>After"#) == "After")
        #expect(HTMLText.plainText(#"<script src="x.js"/>After"#) == "After")
    }

    @Test("block elements are HTML's (aside, nav …); CDATA, textarea and title content is text, never markup")
    func blocksAndTextElements() {
        #expect(HTMLText.plainText("<p>one</p><aside>two</aside><nav>three</nav>") == "one\ntwo\nthree")
        #expect(HTMLText.plainText("<![CDATA[a < b &amp; c]]> d") == "a < b &amp; c d")
        #expect(HTMLText.plainText("<textarea><b>x</b> &amp;</textarea>") == "<b>x</b> &")
    }

    @Test("text without markup comes back as it is, trimmed")
    func plain() {
        #expect(HTMLText.plainText("  just text  ") == "just text")
        #expect(HTMLText.plainText("") == "")
    }
}

@Suite("Whitespace trimming")
struct TrimmingTests {
    @Test(
        "leading and trailing ASCII whitespace goes, inner whitespace and other text stay",
        arguments: [
            ("  a b  ", "a b"), ("\n\t x\r\n", "x"), ("", ""), ("   ", ""), ("abc", "abc"), (" é ", "é"),
            ("\u{A0}x\u{A0}", "\u{A0}x\u{A0}"),
        ])
    func trims(input: String, expected: String) {
        #expect(input.trimmedWhitespace == expected)
    }

    @Test("a > inside a quoted attribute value does not end the tag; comments go, closed or not")
    func quotesAndComments() {
        #expect(HTMLText.plainText(#"<img src="a.jpg" alt="cat<br />dog">after"#) == "after")
        #expect(HTMLText.plainText("<a title='x > y'>link</a> text") == "link text")
        #expect(HTMLText.plainText("before<!-- a > b -->after") == "beforeafter")
        #expect(HTMLText.plainText("safe<!-- never closed <b>bold</b>") == "safe")
        #expect(HTMLText.plainText(#"<p class="unbalanced>x</p>"#) == "x")
        #expect(HTMLText.plainText(#"<a title="it's > that" href='b"c'>x</a> y"#) == "x y")
    }
}

@Suite("Markup escaping")
struct MarkupEscapingTests {
    // Found by fuzz-html: escaping walked Characters, so a `&`, `<` or `"` sharing a Character with
    // a prepended mark (U+0600 before `&`) or a combining one (`<` U+0338, the decomposed `≮`)
    // was left as it was, and `&eacute;` then decoded to `é` instead of reading back as written.
    @Test("a markup character joined to a prepended or combining mark is escaped too")
    func joinedMarks() {
        #expect(MarkupEscaping.escape("\u{600}&eacute;") == "\u{600}&amp;eacute;")
        #expect(MarkupEscaping.escape("1 <\u{338} 2 \"\u{301}") == "1 &lt;\u{338} 2 &quot;\u{301}")
        #expect(HTMLEntities.decode(MarkupEscaping.escape("\u{600}&eacute;")) == "\u{600}&eacute;")
    }
}
