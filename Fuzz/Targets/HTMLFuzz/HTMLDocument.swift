/// Well-formed HTML written from fuzz bytes, with the text a reader should get from it.
///
/// Each byte picks the next piece: an element opened (with attributes whose quoted values hold
/// `>` and quotes) or closed, a word, white space, an entity, a comment, a `<` that opens no tag,
/// a long run of text, a void element, a declaration, or a script or style element, whose
/// contents (words and tags) are never text. Entities are complete and a bare `&` is followed
/// by a space, so no reference forms across pieces.
struct HTMLDocument {
    private(set) var html = ""
    /// The text of `html`, entities decoded.
    private(set) var text = ""
    private var open: [String] = []

    private static let elements = [
        "p", "div", "b", "i", "a", "span", "em", "strong", "li", "ul", "ol", "h1", "h6", "blockquote", "pre", "table",
        "tr", "td", "section", "article", "figure", "custom-element", "svg:rect", "P", "DIV", "Em", "abbr", "font",
    ]
    private static let attributes = [
        "", " href=\"https://example.com/?a=1&amp;b=2\"", " title=\"a > b\"", " alt='it\"s <b>'", " data-x=plain",
        " checked", " class=\"x\" id='y'", " style=\"color: red\"", " onclick=\"if (a > b) { c() }\"",
        // URLs, relative and not, for the URL resolver.
        " href=rel.html", " title=\"t\"href=\"x.png\"", " SRC = ' pic.png '", "/href=/root",
        " srcset=\"https://a.example/1.png 1x, 2.png 2x\"", " data-src=x.png src=\"mailto:m@example.com\"",
    ]
    private static let words = [
        "word", "Tidings", "café", "naïve", "日本語", "👍🏽", "x", "5", "a.b,c!", "(why?)", "semi;colon", "\"quoted\"",
        "it's", "->", "a>b", "=", "-", "#hash", "x;y", "scripting", "styled",
    ]
    private static let spaces = [" ", "\n", "\t", "  ", " \n ", "\r\n"]
    private static let entities: [(String, String)] = [
        ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&apos;", "'"), ("&#8217;", "’"),
        ("&#x2019;", "’"), ("&eacute;", "é"), ("&nbsp;", " "), ("&hellip;", "…"), ("&#169;", "©"), ("& ", "& "),
        ("&copy;", "©"), ("&#X41;", "A"), ("&bogus;", "&bogus;"), ("&#0065;", "A"),
    ]
    private static let voids = ["<br>", "<br/>", "<BR />", "<hr>", "<img src=\"a.png\" alt=\"1 > 0\"/>", "<wbr>"]
    private static let declarations = [
        "<!DOCTYPE html>", "<?xml version=\"1.0\"?>", "<!-- a < b > c & d -->", "<!---->",
    ]
    private static let hidden = ["script", "style", "SCRIPT", "Style"]

    init(program: UnsafeBufferPointer<UInt8>) {
        var reader = program.makeIterator()
        while let byte = reader.next() {
            let pick = Int(reader.next() ?? 0)
            switch byte % 12 {
            case 0:
                let name = Self.elements[pick % Self.elements.count]
                html += "<\(name)\(Self.attributes[pick / Self.elements.count % Self.attributes.count])>"
                open.append(name)
            case 1:
                if let name = open.popLast() { html += pick % 2 == 0 ? "</\(name)>" : "</\(name) >" }
            case 2, 3: visible(Self.words[pick % Self.words.count])
            case 4: visible(Self.spaces[pick % Self.spaces.count])
            case 5:
                let (entity, value) = Self.entities[pick % Self.entities.count]
                html += entity
                text += value
            case 6: html += Self.declarations[pick % Self.declarations.count]
            case 7: visible(" < ")
            case 8: visible(String(repeating: Self.words[pick % Self.words.count] + " ", count: 2 + pick % 9))
            case 9: html += Self.voids[pick % Self.voids.count]
            case 10:
                let name = Self.hidden[pick % Self.hidden.count]
                html += "<\(name)\(Self.attributes[pick % Self.attributes.count])>"
                html += ["if (a < b) x();", "<b>bold</b> p { }", "", "<p>hidden</p>"][pick / 4 % 4]
                html += "</\(pick % 3 == 0 ? name.uppercased() : name.lowercased())>"
            default: visible(Self.words[pick % Self.words.count] + Self.words[pick / 3 % Self.words.count])
            }
        }
    }

    /// Text that is the same in the HTML and in what a reader shows.
    private mutating func visible(_ piece: String) {
        html += piece
        text += piece
    }
}
