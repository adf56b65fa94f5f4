/// The HTML elements that whatever reads HTML treats alike: one list each, for HTML to text, the
/// terminal's article renderer, the tokenizer and the XHTML the feed builder writes.
package enum HTMLElements {
    /// The elements that stand apart from the text around them (HTML's block-level elements, and
    /// the table row): text before and after one is on other lines.
    package static let block = PackedNameSet(
        [
            "address", "article", "aside", "blockquote", "details", "dialog", "dd", "div", "dl", "dt", "fieldset",
            "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup", "hr",
            "li", "main", "nav", "ol", "p", "pre", "section", "summary", "table", "tr", "ul",
        ])

    /// The elements that have no content and no end tag (`<br>`, `<img>`).
    package static let void = PackedNameSet([
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr",
    ])

    /// The elements whose content is text up to their end tag, never markup: `script` and `style`
    /// (raw text, where `&` is a character), `textarea` and `title` (where it still starts an
    /// entity).
    package static let rawText = PackedNameSet(["script", "style", "textarea", "title"])

    package static let script = PackedName("script")
    package static let style = PackedName("style")
    package static let br = PackedName("br")
}
