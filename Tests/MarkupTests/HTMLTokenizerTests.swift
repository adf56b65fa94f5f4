import Testing

@testable import Markup

@Suite("HTML tokenizer")
struct HTMLTokenizerTests {
    @Test("a > inside a quoted attribute value, double or single, does not end the tag")
    func quotedGreaterThan() {
        #expect(
            tokens(#"<a title="a > b" href='x>y'>t</a>"#) == [#"<a title="a > b" href="x>y">"#, "t", "</a>"])
        #expect(
            tokens(#"<link title="a > b" rel="alternate" href="/feed">"#)
                == [#"<link title="a > b" rel="alternate" href="/feed">"#])
        #expect(tokens(#"<img alt="cat<br />dog">after"#) == [#"<img alt="cat<br />dog">"#, "after"])
    }

    @Test("unquoted and single-quoted values; bare attributes; spaces around =; a quote in an unquoted value")
    func values() {
        #expect(
            tokens(#"<img src=a.png alt='It"s' data-x = "1" hidden/>"#)
                == [#"<img src="a.png" alt="It"s" data-x="1" hidden/>"#])
        // A / in an unquoted value is the value's; only a / before > outside a value closes the tag.
        #expect(tokens("<a href=/path/x/>") == [#"<a href="/path/x/">"#])
        #expect(tokens("<br/><br / ><hr />") == ["<br/>", "<br>", "<hr/>"])
        #expect(tokens("<p title=Bob's>Don't stop</p>") == [#"<p title="Bob's">"#, "Don't stop", "</p>"])
        #expect(tokens("<input value=>x") == [#"<input value="">"#, "x"])
    }

    @Test("comments run to -->, a > or a tag in them included; unclosed, to the end; <!--> is empty")
    func comments() {
        #expect(tokens("a<!-- x > y <b> -->b") == ["a", "<!-- x > y <b> -->", "b"])
        #expect(tokens("a<!---->b<!-->c<!--->d") == ["a", "<!---->", "b", "<!---->", "c", "<!---->", "d"])
        #expect(tokens("a<!-- never <b>closed") == ["a", "<!-- never <b>closed-->"])
    }

    @Test("script, style, textarea and title hold text up to their end tag; </ inside a string does not end them")
    func rawText() {
        #expect(
            tokens(#"<script>var s = "</p>" + '<b>'; if (a<b) {}</script>after"#) == [
                "<script>", #"raw(script): var s = "</p>" + '<b>'; if (a<b) {}"#, "</script>", "after",
            ])
        #expect(
            tokens("<STYLE>a::before { content: '</styles>' }</Style >x")
                == ["<style>", "raw(style): a::before { content: '</styles>' }", "</style>", "x"])
        #expect(
            tokens("<title>A <b>bold</b> &amp; title</title>") == [
                "<title>", "raw(title): A <b>bold</b> &amp; title", "</title>",
            ])
        #expect(tokens("<textarea><p>x</textarea>") == ["<textarea>", "raw(textarea): <p>x", "</textarea>"])
        // Never closed: to the end; empty: no text; self-closing: no content at all.
        #expect(tokens("<script>a</scrip") == ["<script>", "raw(script): a</scrip"])
        #expect(tokens("<script></script>") == ["<script>", "</script>"])
        #expect(tokens("<script src=x.js/>y<b>") == [#"<script src="x.js/">"#, "raw(script): y<b>"])
        #expect(tokens(#"<script src="x.js"/>y<b>"#) == [#"<script src="x.js"/>"#, "y", "<b>"])
    }

    @Test("tag and attribute names are read in any case and compare lower-cased")
    func uppercase() {
        #expect(tokens(#"<P CLASS="Intro">Hi</P><BR/>"#) == [#"<p class="Intro">"#, "Hi", "</p>", "<br/>"])
        var html = "<DIV Id=A>"
        html.withUTF8 { bytes in
            var tokenizer = HTMLTokenizer(bytes)
            guard case .startTag(let tag) = tokenizer.next() else {
                Issue.record("no start tag")
                return
            }
            #expect(tag.name == PackedName("div"))
            var attributes = HTMLAttributeReader(bytes, tag.attributes)
            #expect(attributes.next()?.name == PackedName("id"))
            #expect(HTMLAttributes.parse(tag, in: bytes) == ["id": "A"])
        }
    }

    @Test("a tag never closed is text, to the end; so is a < that opens nothing")
    func unterminated() {
        #expect(tokens(#"a <b c="d"#) == [#"a <b c="d"#])
        #expect(tokens("x <br") == ["x <br"])
        #expect(tokens("<a<a<a") == ["<a<a<a"])
        #expect(tokens("x <!DOCTYPE") == ["x <!DOCTYPE"])
        #expect(tokens("5 < 6 and 7 > 3 <3 </") == ["5 < 6 and 7 > 3 <3 </"])
        #expect(tokens("a <b title='>'") == ["a <b title='>'"])
    }

    @Test("a quote not closed within 4 KB or before the next > ends at that >; a long closed value is whole")
    func unbalancedQuotes() {
        #expect(tokens(#"<p class="unbalanced>x</p>"#) == [#"<p class="unbalanced">"#, "x", "</p>"])
        let long = String(repeating: "a", count: 5000)
        #expect(tokens(#"<img src="\#(long)" alt="b > c">d"#) == [#"<img src="\#(long)" alt="b > c">"#, "d"])
        #expect(tokens(#"<img alt="\#(long)>d</p>"#) == [#"<img alt="\#(long)">"#, "d", "</p>"])
    }

    @Test("entities are left as written, in text and in values")
    func entities() {
        #expect(
            tokens(#"a &amp; b <a title="&lt;x&gt;">&eacute;</a>"#) == [
                "a &amp; b ", #"<a title="&lt;x&gt;">"#, "&eacute;", "</a>",
            ])
    }

    @Test("CDATA sections run to ]]>; declarations, processing instructions and bogus end tags to >")
    func sectionsAndDeclarations() {
        #expect(tokens("<![CDATA[a <b> & ]] c]]>d") == ["<![CDATA[a <b> & ]] c]]>", "d"])
        #expect(tokens("<![CDATA[open <b>") == ["<![CDATA[open <b>]]>"])
        #expect(
            tokens(#"<!DOCTYPE html><?xml version="1.0"?></ 3>x</>"#)
                == ["<!DOCTYPE html>", #"<!xml version="1.0"?>"#, "<! 3>", "x", "<!>"])
    }

    @Test("the tokens cover the text: every byte is in exactly one token, in order")
    func coverage() {
        let html = #"<p a="1">x<!--c--><![CDATA[d]]><script>s</script>&amp;<br/>5 < 6</p> <b"#
        var copy = html
        copy.withUTF8 { bytes in
            var tokenizer = HTMLTokenizer(bytes)
            var end = 0
            while let token = tokenizer.next() {
                let range: Range<Int>
                switch token {
                case .startTag(let tag), .endTag(let tag): range = tag.range
                case .text(let text), .rawText(let text, _): range = text
                case .comment(let content): range = (content.lowerBound - 4)..<(content.upperBound + 3)
                case .cdata(let content): range = (content.lowerBound - 9)..<(content.upperBound + 3)
                case .declaration(let content): range = (content.lowerBound - 2)..<(content.upperBound + 1)
                }
                #expect(range.lowerBound == end)
                end = range.upperBound
            }
            #expect(end == bytes.count)
        }
    }

    @Test("nextMarkup gives the tokens next gives less the text between tags; a script's raw text is kept")
    func markupOnly() {
        let documents = [
            #"<p a="1">x<!--c--><![CDATA[d]]><script>s</script>&amp;<br/>5 < 6</p> <b"#,
            #"text only, 5 < 6 > 3"#, "<p>", "<p>tail", "head<p>", "<a href=x>a</a><b>b</b>c",
            #"<script src="x.js"/>y<b><textarea><p>x</textarea><title>t</title><style></style>z"#,
            "<!DOCTYPE html><?xml?></ 3>x</>", "<a<a<a", "a <b title='>'", "",
        ]
        for document in documents {
            var html = document
            html.withUTF8 { bytes in
                var all = HTMLTokenizer(bytes)
                var expected: [HTMLToken] = []
                while let token = all.next() {
                    if case .text = token { continue }
                    expected.append(token)
                }
                var markup = HTMLTokenizer(bytes)
                var tokens: [HTMLToken] = []
                while let token = markup.nextMarkup() { tokens.append(token) }
                #expect(tokens == expected, "\(document)")
            }
        }
    }
}

/// The tokens of `html`, written out: text as it is, tags with their attributes double-quoted,
/// comments, CDATA and declarations around their content.
private func tokens(_ html: String) -> [String] {
    var html = html
    return html.withUTF8 { bytes in
        func string(_ range: Range<Int>) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }
        func tag(_ tag: HTMLTag, closing: Bool) -> String {
            var text = (closing ? "</" : "<") + string(tag.nameRange).lowercased()
            var attributes = HTMLAttributeReader(bytes, tag.attributes)
            while let attribute = attributes.next() {
                text += " " + string(attribute.nameRange).lowercased()
                if let value = attribute.value { text += "=\"" + string(value) + "\"" }
            }
            return text + (tag.isSelfClosing ? "/>" : ">")
        }
        let names = ["script", "style", "textarea", "title"]
        var tokenizer = HTMLTokenizer(bytes)
        var result: [String] = []
        while let token = tokenizer.next() {
            switch token {
            case .text(let range): result.append(string(range))
            case .rawText(let range, let element):
                let name = names.first { PackedName($0) == element } ?? "?"
                result.append("raw(\(name)): " + string(range))
            case .cdata(let range): result.append("<![CDATA[" + string(range) + "]]>")
            case .startTag(let start): result.append(tag(start, closing: false))
            case .endTag(let end): result.append(tag(end, closing: true))
            case .comment(let range): result.append("<!--" + string(range) + "-->")
            case .declaration(let range): result.append("<!" + string(range) + ">")
            }
        }
        return result
    }
}
