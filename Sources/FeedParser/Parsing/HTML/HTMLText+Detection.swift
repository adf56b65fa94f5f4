import Markup
import Models

/// Telling HTML from plain text that merely contains `<` or `&`.
extension HTMLText {
    /// The elements whose tags mark a text as HTML (what feeds put in titles and summaries).
    private static let knownElements: Set<[UInt8]> = Set(
        [
            "a", "abbr", "acronym", "b", "big", "blockquote", "br", "cite", "code", "del", "dfn", "div", "em",
            "font", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "img", "ins", "kbd", "li", "mark", "ol", "p",
            "pre", "q", "s", "samp", "script", "small", "span", "strike", "strong", "style", "sub", "sup", "table",
            "td", "th", "tr", "tt", "u", "ul", "var",
        ].map { Array($0.utf8) })

    /// A title or a name as one line of plain text (`nil` when empty): rendered when it is HTML
    /// (`looksLikeHTML`), as feeds put HTML in what should be plain text, and its runs of white
    /// space (line breaks from the markup, or from the rendering) made one space.
    static func line(_ text: String) -> String? {
        (looksLikeHTML(text) ? plainText(text) : text).collapsingWhitespace.nonEmpty
    }

    /// Whether `text` is HTML: it has a tag of a known HTML element (`<b>`, `</em>`, `<br/>`)
    /// or an entity reference (`&amp;`, `&#8217;`). `AT&T`, `5 < 6` and `First <post>` are
    /// plain text.
    static func looksLikeHTML(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            for index in bytes.indices {
                switch bytes[index] {
                case UInt8(ascii: "<"):
                    if isKnownTag(bytes, at: index) { return true }
                case UInt8(ascii: "&"):
                    if HTMLEntities.entity(in: bytes, at: index) != nil { return true }
                default:
                    continue
                }
            }
            return false
        }
    }

    private static func isKnownTag(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        var cursor = index + 1
        if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "/") { cursor += 1 }
        var name: [UInt8] = []
        while cursor < bytes.count, name.count <= 10 {
            let byte = bytes[cursor]
            let isLetter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
            let isDigit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
            guard isLetter || (isDigit && !name.isEmpty) else { break }
            name.append(byte | (isLetter ? 0x20 : 0))
            cursor += 1
        }
        guard cursor < bytes.count, knownElements.contains(name) else { return false }
        let next = bytes[cursor]
        return next == UInt8(ascii: ">") || next == UInt8(ascii: "/") || next == UInt8(ascii: " ")
            || next == UInt8(ascii: "\t") || next == UInt8(ascii: "\n")
    }
}
