/// An attribute of a tag: its lower-cased name, where the name is written, and where its value is
/// (within the quotes; `nil` for a bare attribute, `<input disabled>`). Entities in the value are
/// the reader's to decode.
package struct HTMLAttribute: Equatable, Sendable {
    package var name: PackedName
    package var nameRange: Range<Int>
    package var value: Range<Int>?
}

/// Reads the attributes of a tag, as browsers read them: `key="value"`, `key='value'`,
/// `key=value` (to a space or `>`, quotes and all) and bare `key`, with a `/` between them
/// skipped. Its range ends at the tag's `>`, or at the end of the text when the tokenizer is
/// finding that `>`.
///
/// A quoted value ends at its closing quote, a `>` in it included (`title="a > b"`). A quote not
/// closed within 4 KB, nor before the first `>` after that, is unbalanced (`class="x>`): the
/// value and the tag end at that `>`, as they would if the quote were not there; the bound keeps
/// a document of such tags linear.
package struct HTMLAttributeReader: IteratorProtocol {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let end: Int
    /// Where reading has got to: at the end, the tag's `>` (or the range's end).
    package private(set) var position: Int
    /// Whether the tag ended in `/>`, once `next()` has returned `nil`.
    package private(set) var isSelfClosing = false
    /// The first `>` at or after where a value last looked for one (see `nextGreater`).
    private var greater: Int?

    /// How far a quoted value is looked at for its closing quote before it may be unbalanced.
    static let quoteReach = 4096

    /// A reader of the attributes in `range` of `bytes`.
    package init(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        self.bytes = bytes
        self.end = range.upperBound
        self.position = range.lowerBound
    }

    /// The next attribute; `nil` at the tag's end.
    package mutating func next() -> HTMLAttribute? {
        var slash = false
        while position < end {
            let byte = bytes[position]
            if byte == UInt8(ascii: "/") {
                slash = true
            } else if HTMLTokenizer.isSpace(byte) {
                slash = false
            } else {
                break
            }
            position += 1
        }
        guard position < end, bytes[position] != UInt8(ascii: ">") else {
            isSelfClosing = slash
            return nil
        }
        // A name is all but white space, `/`, `>` and `=`; it may start with `=`.
        let nameStart = position
        var name = PackedName()
        repeat {
            name.append(bytes[position])
            position += 1
        } while position < end && !isNameEnd(bytes[position])
        let nameRange = nameStart..<position
        skipSpaces()
        guard position < end, bytes[position] == UInt8(ascii: "=") else {
            return HTMLAttribute(name: name, nameRange: nameRange, value: nil)
        }
        position += 1
        skipSpaces()
        return HTMLAttribute(name: name, nameRange: nameRange, value: value())
    }

    /// The value starting at `position`, which is left just past it.
    private mutating func value() -> Range<Int> {
        guard position < end else { return position..<position }
        let quote = bytes[position]
        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
            let start = position
            while position < end, !HTMLTokenizer.isSpace(bytes[position]), bytes[position] != UInt8(ascii: ">") {
                position += 1
            }
            return start..<position
        }
        let start = position + 1
        let reach = min(end, start + Self.quoteReach)
        var close = HTMLTokenizer.find(quote, in: bytes, start..<reach)
        if close == nil {
            let greater = nextGreater(from: start)
            if reach < greater { close = HTMLTokenizer.find(quote, in: bytes, reach..<greater) }
            guard close != nil else {
                // Unbalanced: the value ends where the tag does.
                position = greater
                return start..<greater
            }
        }
        let found = close ?? end
        position = min(end, found + 1)
        return start..<found
    }

    /// The first `>` at or after `start` (the end when there is none). Remembered: a tag of many
    /// long values, each looking past 4 KB for the `>`, would otherwise cross the same bytes
    /// again for each.
    private mutating func nextGreater(from start: Int) -> Int {
        if let greater, greater >= start { return greater }
        let found = HTMLTokenizer.find(UInt8(ascii: ">"), in: bytes, start..<end) ?? end
        greater = found
        return found
    }

    private mutating func skipSpaces() {
        while position < end, HTMLTokenizer.isSpace(bytes[position]) { position += 1 }
    }

    private func isNameEnd(_ byte: UInt8) -> Bool {
        HTMLTokenizer.isSpace(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">")
            || byte == UInt8(ascii: "=")
    }
}

/// A tag's attributes as strings, for readers that want a few of them by name (feed discovery,
/// the REPL's article renderer).
package enum HTMLAttributes {
    /// The attributes of `tag`, read from `bytes`: names lower-cased, values as written (entities
    /// are the caller's to decode), a bare attribute's value empty. Of an attribute given twice,
    /// the first counts, as in a browser.
    package static func parse(_ tag: HTMLTag, in bytes: UnsafeBufferPointer<UInt8>) -> [String: String] {
        var attributes: [String: String] = [:]
        var reader = HTMLAttributeReader(bytes, tag.attributes)
        while let attribute = reader.next() {
            let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[attribute.nameRange]), as: UTF8.self)
            let value = attribute.value.map {
                String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self)
            }
            let key = name.lowercased()
            if attributes[key] == nil { attributes[key] = value ?? "" }
        }
        return attributes
    }

}
