import Testing

@testable import REPL

@Suite("Article text")
struct ArticleTextTests {
    static let html = """
        <h2>A heading</h2><p>First paragraph with a <a href="https://example.com/one">link</a> and <b>bold</b> \
        text that goes on long enough to need wrapping at a narrow width of the terminal.</p>
        <p>Second<br>line after br.</p>
        <ul><li>apple</li><li>banana<ul><li>nested one</li><li>nested two</li></ul></li></ul>
        <ol><li>first</li><li>second <a href="https://example.com/two">two</a></li></ol>
        <pre>  let x = 1
            indented   code and a line far longer than the fifty columns it must never be wrapped at
        </pre>
        <blockquote><p>Quoted words here.</p></blockquote>
        <table><tr><th>Name</th><th>Qty</th></tr><tr><td>a</td><td>b</td></tr><tr><td>Longer cell</td><td>12</td></tr></table>
        <p><img src="x.png" alt="A cat"> and <img src="y.png"> and <a href="https://example.com/one">again</a></p>
        <script>alert(1)</script><!-- a comment -->
        """

    @Test("HTML5's named references read as their characters, in text and in an image's alt")
    func html5Entities() {
        let text = ArticleText(
            html: "<p>&larr; Bl&aring;b&aelig;r &rarr; &frac12; &NotEqualTilde; &bogusname;</p><img alt=\"&Aring;\">",
            width: 60)
        #expect(
            text.body.split(separator: "\n").map(String.init) == [
                "← Blåbær → ½ \u{2242}\u{338} &bogusname;", "[image: Å]",
            ])
    }

    @Test("blocks apart, lists marked and nested, pre verbatim, quotes, tables aligned, images and numbered links")
    func rendersLikeATextBrowser() {
        let text = ArticleText(html: Self.html, width: 50)
        #expect(
            text.body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) == [
                "A heading", "─────────", "",
                "First paragraph with a link[1] and bold text that",
                "goes on long enough to need wrapping at a narrow", "width of the terminal.", "",
                "Second", "line after br.", "",
                "• apple", "• banana", "  ◦ nested one", "  ◦ nested two", "",
                "1. first", "2. second two[2]", "",
                "  let x = 1",
                "    indented   code and a line far longer than the fifty columns it must never be wrapped at",
                "",
                "│ Quoted words here.", "",
                "Name         Qty", "a            b", "Longer cell  12", "",
                "[image: A cat] and [image] and again[1]",
            ])
        #expect(text.links == ["https://example.com/one", "https://example.com/two"])
    }

    @Test("wrapping counts display columns: CJK lines stay within the width")
    func wideText() {
        let text = ArticleText(html: "<p>" + String(repeating: "天気予報 ", count: 20) + "</p>", width: 30)
        #expect(text.body.split(separator: "\n").allSatisfy { DisplayWidth.of($0) <= 30 })
    }

    @Test("a > in a quoted value, a quote in an unquoted one, a < that opens no tag and a < in a script")
    func tagsReadAsABrowserDoes() {
        let html =
            #"<p><a title="a > b" href="https://example.com/x">link</a> and 5 < 6 and 7 > 3</p><p title=Bob's>Don't stop</p><script>if (a<b) { s = "</p>"; }</script><p>After</p>"#
        let text = ArticleText(html: html, width: nil)
        #expect(text.body == "link[1] and 5 < 6 and 7 > 3\n\nDon't stop\n\nAfter")
        #expect(text.links == ["https://example.com/x"])
    }
}
