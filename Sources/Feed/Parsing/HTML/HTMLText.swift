/// Turns HTML into readable plain text: block elements become line breaks, scripts and styles
/// are dropped, entities are decoded, runs of spaces collapse.
public enum HTMLText {
    private static let blockElements: Set<String> = [
        "p", "div", "br", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "tr", "table",
        "section", "article", "header", "footer", "hr", "dd", "dt", "figure", "figcaption",
    ]

    /// The plain text of `html`.
    public static func plainText(_ html: String) -> String {
        var output = ""
        var index = html.startIndex
        var skipping: String?
        while index < html.endIndex {
            let character = html[index]
            if character == "<", let close = html[index...].firstIndex(of: ">") {
                let tag = html[html.index(after: index)..<close]
                let name = tag.drop { $0 == "/" }.prefix { $0.isLetter || $0.isNumber }.lowercased()
                let isClosing = tag.first == "/"
                if let open = skipping {
                    if isClosing && name == open { skipping = nil }
                } else if name == "script" || name == "style", !isClosing {
                    skipping = name
                } else if blockElements.contains(name) {
                    output.append("\n")
                }
                index = html.index(after: close)
                continue
            }
            if skipping == nil { output.append(character) }
            index = html.index(after: index)
        }
        return normalize(HTMLEntities.decode(output))
    }

    /// Collapses spaces within lines, drops empty lines, and trims.
    private static func normalize(_ text: String) -> String {
        var lines: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let collapsed = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\u{A0}" || $0 == "\r" })
                .joined(separator: " ")
            if !collapsed.isEmpty { lines.append(collapsed) }
        }
        return lines.joined(separator: "\n")
    }
}

/// Decodes the XML five, numeric references and the HTML named entities feeds commonly use.
public enum HTMLEntities {
    static let named: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}", "copy": "©", "reg": "®",
        "trade": "™", "hellip": "…", "mdash": "—", "ndash": "–", "lsquo": "‘", "rsquo": "’", "ldquo": "“",
        "rdquo": "”", "laquo": "«", "raquo": "»", "bull": "•", "middot": "·", "deg": "°", "euro": "€", "pound": "£",
        "yen": "¥", "cent": "¢", "sect": "§", "para": "¶", "times": "×", "divide": "÷", "eacute": "é",
        "egrave": "è", "ecirc": "ê", "aacute": "á", "agrave": "à", "acirc": "â", "auml": "ä", "ouml": "ö",
        "uuml": "ü", "Auml": "Ä", "Ouml": "Ö", "Uuml": "Ü", "szlig": "ß", "ccedil": "ç", "ntilde": "ñ",
        "oacute": "ó", "iacute": "í", "uacute": "ú", "Eacute": "É", "shy": "\u{AD}", "thinsp": "\u{2009}",
        "ensp": "\u{2002}", "emsp": "\u{2003}", "zwj": "\u{200D}", "zwnj": "\u{200C}",
    ]

    /// `text` with every entity it recognises decoded; unknown ones are left as they are.
    public static func decode(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var output = ""
        var index = text.startIndex
        while index < text.endIndex {
            guard text[index] == "&", let semicolon = text[index...].prefix(12).firstIndex(of: ";") else {
                output.append(text[index])
                index = text.index(after: index)
                continue
            }
            let name = text[text.index(after: index)..<semicolon]
            if let replacement = decodeEntity(name) {
                output += replacement
                index = text.index(after: semicolon)
            } else {
                output.append("&")
                index = text.index(after: index)
            }
        }
        return output
    }

    private static func decodeEntity(_ name: Substring) -> String? {
        if name.hasPrefix("#") {
            let digits = name.dropFirst()
            let value =
                digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
            return value.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
        }
        return named[String(name)]
    }
}
