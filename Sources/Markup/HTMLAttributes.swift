/// The attributes of an HTML start tag, as browsers read them loosely: `key="value"`,
/// `key='value'`, `key=value` and bare `key`, keys lower-cased, values as written (entities are
/// the caller's to decode). Shared by feed discovery and the REPL's article renderer.
package enum HTMLAttributes {
    /// The attributes in `text`, the part of a tag after its name.
    package static func parse(_ text: Substring) -> [String: String] {
        var attributes: [String: String] = [:]
        var rest = text
        while true {
            rest = rest.drop { $0.isWhitespace || $0 == "/" }
            let key = rest.prefix { !$0.isWhitespace && $0 != "=" && $0 != ">" && $0 != "/" }
            guard !key.isEmpty else { break }
            rest = rest.dropFirst(key.count).drop { $0.isWhitespace }
            guard rest.first == "=" else {
                attributes[key.lowercased()] = ""
                continue
            }
            rest = rest.dropFirst().drop { $0.isWhitespace }
            let value: Substring
            if let quote = rest.first, quote == "\"" || quote == "'" {
                let inner = rest.dropFirst()
                value = inner.prefix { $0 != quote }
                rest = inner.dropFirst(value.count + 1)
            } else {
                value = rest.prefix { !$0.isWhitespace }
                rest = rest.dropFirst(value.count)
            }
            attributes[key.lowercased()] = String(value)
        }
        return attributes
    }
}
