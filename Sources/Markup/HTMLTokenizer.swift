import Foundation

/// A piece of HTML as `HTMLTokenizer` reads it. Ranges are offsets into the UTF-8 bytes read.
package enum HTMLToken: Equatable, Sendable {
    /// Text between tags, entities and all (decoding them is the reader's, see `HTMLEntities`).
    /// A `<` that opens no tag (`5 < 6`, or a tag never closed) is text.
    case text(Range<Int>)
    /// The content of a raw-text element (`HTMLElements.rawText`) up to its end tag, never markup:
    /// in `script` and `style` an `&` is a character, in `textarea` and `title` it starts an entity.
    case rawText(Range<Int>, element: PackedName)
    /// The content of a `<![CDATA[ … ]]>` section, to its `]]>` or the end: text, `&` included.
    case cdata(Range<Int>)
    case startTag(HTMLTag)
    case endTag(HTMLTag)
    /// The content of a `<!-- … -->` comment, to its `-->` or the end (`<!-->` and `<!--->` are
    /// empty comments).
    case comment(Range<Int>)
    /// What follows `<!`, `<?` or `</` up to the first `>`, in a declaration (`<!DOCTYPE html>`), a
    /// processing instruction (`<?xml …?>`) or a bogus end tag (`</ 3>`): never text.
    case declaration(Range<Int>)
}

/// A start or end tag.
package struct HTMLTag: Equatable, Sendable {
    /// The name, lower-cased.
    package var name: PackedName
    /// The name as written.
    package var nameRange: Range<Int>
    /// From after the name to the tag's `>`: its attributes (see `HTMLAttributeReader`), a
    /// closing `/` included.
    package var attributes: Range<Int>
    /// Whether the tag ends in `/>`.
    package var isSelfClosing: Bool
    /// The whole tag, `<` to `>`.
    package var range: Range<Int>
}

/// Reads HTML (UTF-8) as text, tags, comments and declarations, in one pass, as browsers do:
/// a tag ends at the first `>` outside its quoted attribute values (`title="a > b"`), a quote
/// in an unquoted value or a name (`alt=Bob's`) is a character, the content of `script`,
/// `style`, `textarea` and `title` is text up to the element's end tag (`HTMLElements.rawText`;
/// a self-closing `<script/>` has none), and `<![CDATA[` runs to `]]>`.
///
/// Two readings are kinder than a browser's: a tag that is never closed is text (a summary cut
/// off mid-tag shows what it has), and a quote not closed within 4 KB (`class="x>`) ends at the
/// first `>` after it (see `HTMLAttributeReader`).
///
/// The tokenizer allocates nothing: `memchr` finds the next `<` and the ends of comments and
/// values, so text and values are crossed at memory speed. Shared by HTML to text, the URL
/// resolver, feed discovery and the REPL's article renderer.
package struct HTMLTokenizer: IteratorProtocol {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let rawTextElements = HTMLElements.rawText
    private var position = 0
    /// A token read after a run of text, handed out next.
    private var pending: HTMLToken?
    /// The raw-text element whose content comes next: its name, and where its start tag spells it.
    private var rawTextElement: (name: PackedName, spelling: Range<Int>)?
    /// Where the last `>` of the text is (-1: none), once a tag has asked: no tag or declaration
    /// opening after it can close, so a text full of `<a` is still read in linear time.
    private var lastGreater: Int?

    /// A tokenizer of `bytes`; the tokens' ranges are offsets into it.
    package init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    package mutating func next() -> HTMLToken? { read(keepingText: true) }

    /// The next token that is not `.text`, the text before it crossed and not handed out: the
    /// tokens `next()` gives, less the text, for readers that want only the markup (the URL
    /// resolver), and with no token held back for after a run of text.
    package mutating func nextMarkup() -> HTMLToken? { read(keepingText: false) }

    /// The next token, or the next one that is not text. Inlined into both callers.
    @inline(__always)
    private mutating func read(keepingText: Bool) -> HTMLToken? {
        if let token = pending {
            pending = nil
            return token
        }
        if let element = rawTextElement {
            rawTextElement = nil
            let start = position
            position = rawTextEnd(of: element.spelling, from: start)
            if position > start { return .rawText(start..<position, element: element.name) }
        }
        let start = position
        guard start < bytes.count else { return nil }
        var search = start
        while let open = find(UInt8(ascii: "<"), in: search..<bytes.count) {
            guard let (token, end) = markup(at: open) else {
                search = open + 1
                continue
            }
            position = end
            if keepingText, open > start {
                pending = token
                return .text(start..<open)
            }
            return token
        }
        position = bytes.count
        return keepingText ? .text(start..<bytes.count) : nil
    }

    // MARK: Markup

    /// The token that the `<` at `open` starts and where it ends; `nil` when the `<` is text.
    private mutating func markup(at open: Int) -> (HTMLToken, Int)? {
        let count = bytes.count
        guard open + 1 < count else { return nil }
        let next = bytes[open + 1]
        if Self.isLetter(next) {
            guard let tag = tag(at: open, nameStart: open + 1) else { return nil }
            if !tag.isSelfClosing, rawTextElements.contains(tag.name) {
                rawTextElement = (tag.name, tag.nameRange)
            }
            return (.startTag(tag), tag.range.upperBound)
        }
        switch next {
        case UInt8(ascii: "/"):
            guard open + 2 < count else { return nil }
            if Self.isLetter(bytes[open + 2]) {
                return tag(at: open, nameStart: open + 2).map { (.endTag($0), $0.range.upperBound) }
            }
            return declaration(from: open + 2)
        case UInt8(ascii: "!"):
            if matches("--", at: open + 2) { return comment(from: open + 4) }
            if matches("[CDATA[", at: open + 2) {
                let (content, end) = section(from: open + 9, closedBy: UInt8(ascii: "]"))
                return (.cdata(content), end)
            }
            return declaration(from: open + 2)
        case UInt8(ascii: "?"):
            return declaration(from: open + 2)
        default:
            return nil
        }
    }

    /// The tag whose `<` is at `open` and whose name starts at `nameStart`; `nil` when it is
    /// never closed.
    private mutating func tag(at open: Int, nameStart: Int) -> HTMLTag? {
        guard closes(after: nameStart) else { return nil }
        var name = PackedName()
        var index = nameStart
        while index < bytes.count {
            let byte = bytes[index]
            if Self.isSpace(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">") { break }
            name.append(byte)
            index += 1
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ">") {
            // No attributes (`<p>`, `</p>`): the end the attribute reader would find at once.
            return HTMLTag(
                name: name, nameRange: nameStart..<index, attributes: index..<index, isSelfClosing: false,
                range: open..<(index + 1))
        }
        var attributes = HTMLAttributeReader(bytes, index..<bytes.count)
        while attributes.next() != nil {}
        let close = attributes.position
        guard close < bytes.count else { return nil }
        return HTMLTag(
            name: name, nameRange: nameStart..<index, attributes: index..<close,
            isSelfClosing: attributes.isSelfClosing, range: open..<(close + 1))
    }

    /// A comment whose content starts at `start` (just past `<!--`).
    private func comment(from start: Int) -> (HTMLToken, Int) {
        if matches(">", at: start) { return (.comment(start..<start), start + 1) }
        if matches("->", at: start) { return (.comment(start..<start), start + 2) }
        let (content, end) = section(from: start, closedBy: UInt8(ascii: "-"))
        return (.comment(content), end)
    }

    /// The content of a section from `start` to the first `>` that follows two `marker` bytes
    /// (`-->`, `]]>`), and where the section ends; a section never closed runs to the end.
    private func section(from start: Int, closedBy marker: UInt8) -> (Range<Int>, Int) {
        var search = start + 2
        while search < bytes.count, let close = find(UInt8(ascii: ">"), in: search..<bytes.count) {
            if bytes[close - 1] == marker, bytes[close - 2] == marker { return (start..<(close - 2), close + 1) }
            search = close + 1
        }
        return (start..<bytes.count, bytes.count)
    }

    /// A declaration whose content starts at `start`, to the first `>`; `nil` when there is none.
    private mutating func declaration(from start: Int) -> (HTMLToken, Int)? {
        guard closes(after: start), let close = find(UInt8(ascii: ">"), in: start..<bytes.count) else { return nil }
        return (.declaration(start..<close), close + 1)
    }

    /// Where the content of a raw-text element starting at `start` ends: at the `</` of its end
    /// tag (`</script` and then a space, `/` or `>`, in any case), else at the end of the text.
    private func rawTextEnd(of spelling: Range<Int>, from start: Int) -> Int {
        let count = bytes.count
        var search = start
        while let open = find(UInt8(ascii: "<"), in: search..<count) {
            let nameEnd = open + 2 + spelling.count
            if nameEnd < count, bytes[open + 1] == UInt8(ascii: "/"),
                Self.isSpace(bytes[nameEnd]) || bytes[nameEnd] == UInt8(ascii: "/")
                    || bytes[nameEnd] == UInt8(ascii: ">"),
                spelling.indices.allSatisfy({ bytes[open + 2 + $0 - spelling.lowerBound] | 0x20 == bytes[$0] | 0x20 })
            {
                return open
            }
            search = open + 1
        }
        return count
    }

    // MARK: Bytes

    /// Whether a `>` follows `start` anywhere, so that something opening there may close.
    private mutating func closes(after start: Int) -> Bool {
        if let lastGreater { return lastGreater >= start }
        var index = bytes.count - 1
        while index >= 0, bytes[index] != UInt8(ascii: ">") { index -= 1 }
        lastGreater = index
        return index >= start
    }

    /// Whether `text` (ASCII) is spelled at `index`.
    private func matches(_ text: StaticString, at index: Int) -> Bool {
        let length = text.utf8CodeUnitCount
        guard index + length <= bytes.count else { return false }
        let pointer = text.utf8Start
        for offset in 0..<length where bytes[index + offset] != pointer[offset] { return false }
        return true
    }

    private func find(_ byte: UInt8, in range: Range<Int>) -> Int? {
        Self.find(byte, in: bytes, range)
    }

    /// The first `byte` in `range` of `bytes`, found by `memchr`.
    @inline(__always)
    static func find(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        guard !range.isEmpty, let base = bytes.baseAddress,
            let found = memchr(base + range.lowerBound, Int32(byte), range.count)
        else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// HTML's white space: space, tab, line feed, form feed, carriage return.
    @inline(__always)
    package static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }

    /// An ASCII letter.
    @inline(__always)
    package static func isLetter(_ byte: UInt8) -> Bool {
        byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")
    }
}
