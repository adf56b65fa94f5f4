import Markup
import Models

/// RSS `author` and `managingEditor`, and Dublin Core's `creator`: `jo@example.com (Jo)`,
/// `Jo <jo@example.com>`, an address, or a name.
///
/// Only an address is an address: text is split into a name and an e-mail only when the part
/// taken for the e-mail is one (`local@domain`, nothing that cannot be in an address), so
/// `<p>Jo</p>` or `Jo <Editor>` is a name, not an e-mail. A name that is HTML (an escaped
/// `&lt;p&gt;Jo&lt;/p&gt;`, or markup the element held) is read as the text it shows.
enum RSSAuthor {
    // Byte searches for ASCII marks (an ASCII byte is never inside a longer character):
    // `String.contains` and `trimmingCharacters(in:)` went through Foundation's bridging, which
    // showed in reading a feed whose every item has an author.
    static func parse(_ text: String) -> Author? {
        let value = text.collapsingWhitespace
        guard !value.isEmpty else { return nil }
        let bytes = value.utf8
        if let open = bytes.firstIndex(of: UInt8(ascii: "(")), bytes.last == UInt8(ascii: ")") {
            let outside = trimmed(value[..<open])
            let inside = trimmed(value[value.index(after: open)..<value.index(before: value.endIndex)])
            // `jo@example.com (Jo)` as RSS asks, `Jo (jo@example.com)` as many write it; a name
            // with a remark in parentheses and no address stays whole.
            if let email = address(outside) { return author(name: String(inside), email: email) }
            if let email = address(inside) { return author(name: String(outside), email: email) }
        }
        if let open = bytes.lastIndex(of: UInt8(ascii: "<")), bytes.last == UInt8(ascii: ">") {
            let inside = trimmed(value[value.index(after: open)..<value.index(before: value.endIndex)])
            if let email = address(inside) { return author(name: String(trimmed(value[..<open])), email: email) }
        }
        if let email = address(value[...]) { return Author(email: email) }
        return author(name: value, email: nil)
    }

    /// An author of `name` (as plain text) and `email`; `nil` when both are empty.
    private static func author(name: String, email: String?) -> Author? {
        let name = HTMLText.line(name)
        return name == nil && email == nil ? nil : Author(name: name, email: email)
    }

    /// `part` as an e-mail address (`mailto:` dropped), when it is one: one `@` with text on
    /// both sides, and no white space, markup, quote or separator.
    static func address(_ part: Substring) -> String? {
        var candidate = part
        if candidate.utf8.count > 7, candidate.utf8.prefix(7).map({ $0 | 0x20 }) == Array("mailto:".utf8) {
            candidate = candidate.dropFirst(7)
        }
        let bytes = candidate.utf8
        guard let at = bytes.firstIndex(of: UInt8(ascii: "@")), at != bytes.startIndex,
            bytes.index(after: at) != bytes.endIndex, bytes.count(where: { $0 == UInt8(ascii: "@") }) == 1,
            !bytes.contains(where: { forbidden.contains($0) })
        else { return nil }
        return String(candidate)
    }

    /// Bytes that are never in an address as feeds write one: white space, markup, quotes and
    /// the separators around addresses.
    private static let forbidden: Set<UInt8> = Set(" \t\n\r<>()[]\"',;:\\".utf8)

    /// `text` without the white space (`CharacterSet.whitespaces`: space separators and tab)
    /// at either end.
    static func trimmed(_ text: Substring) -> Substring {
        func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator
        }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
            let last = scalars.lastIndex(where: { !isSpace($0) })
        else { return text[text.endIndex...] }
        return Substring(scalars[first...last])
    }
}
