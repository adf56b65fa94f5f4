import Foundation
import Markup

/// Rewrites the HTML named entities feeds use but XML does not define (`&nbsp;`, `&eacute;`,
/// `&hellip;` …) as numeric references before the XML parser sees them; the parser would
/// otherwise drop them, and the text around them. An unknown name (`&bogus;`) becomes literal
/// text (`&amp;bogus;`) unless the document declares entities of its own; a bare `&` (`?a=1&b=2`)
/// becomes `&amp;`, and `&#X41;` the `&#x41;` XML accepts. CDATA sections are left alone.
/// Documents without such references are returned as they are, uncopied.
///
/// Asked to (`rewritingPredefined`), it also rewrites the five entities XML predefines (`&amp;`
/// `&lt;` `&gt;` `&quot;` `&apos;`) as the character references they stand for (`&#38;` …),
/// everywhere but in CDATA and the internal subset (where `&#38;` in an entity value would mean
/// something else), and a `<` that opens no tag (`a < b`) as `&#60;`. libxml2 2.9 in recovery
/// mode stops delivering entity references once the document has stopped being well-formed,
/// but always delivers character references, and its push parser stops at a stray `<`: a
/// damaged document is read again so rewritten, and keeps its text (`XMLFeedParser`).
///
/// The scan jumps from `&` to `&` with `memchr` and from CDATA section to CDATA section with
/// `memmem`, so a document full of `&lt;` costs little more than a copy.
enum HTMLEntityPreprocessor {
    /// The document to hand to the XML parser.
    struct Output {
        /// The document, rewritten where needed (the input itself when nothing was).
        var data: Data
        /// Whether the document uses any of the five predefined entities outside CDATA.
        var hasPredefinedReferences: Bool
    }

    struct ScanResult {
        /// Whether the document uses any of the five predefined entities, or an entity of its
        /// own, outside CDATA: references libxml2 drops after the document's first error.
        var hasPredefinedReferences = false
        /// Writing the document's own entities in went over `SAXFeedReader.entityBudget`: the
        /// document expands without bound, and is refused.
        var entityBudgetExceeded = false
    }

    static func process(_ data: Data, rewritingPredefined: Bool = false) -> Output {
        var output: [UInt8]?
        let result = data.withUnsafeBytes { raw in
            scan(raw, rewritingPredefined: rewritingPredefined) { piece in
                // The document in one piece: nothing was rewritten, and it is returned as it is.
                if piece.baseAddress == raw.baseAddress, piece.count == raw.count { return }
                if output == nil { output = fresh(capacity: raw.count + raw.count / 16) }
                output?.append(contentsOf: piece)
            }
        }
        return Output(data: output.map { Data($0) } ?? data, hasPredefinedReferences: result.hasPredefinedReferences)
    }

    /// Hands the document to `sink` as the XML parser is to read it, in order: stretches of
    /// `raw` as they are, and the rewritten references between them. A document without such
    /// references is one piece, `raw` itself; the rewritten document is never held whole, so a
    /// parser fed from `sink` needs no memory for it (`SAXFeedReader.read(documentURL:onItem:feed:)`).
    /// Rewriting the predefined entities, it also writes in the document's own entities
    /// (`InternalEntities`), within `SAXFeedReader.entityBudget` bytes in all.
    static func scan(
        _ raw: UnsafeRawBufferPointer, rewritingPredefined: Bool, into sink: (UnsafeRawBufferPointer) -> Void
    ) -> ScanResult {
        var result = ScanResult()
        guard let base = raw.baseAddress else { return result }
        var hasPredefinedReferences = false
        let bytes = raw.bindMemory(to: UInt8.self)
        let count = bytes.count
        // Entity declarations live in the DOCTYPE, at the start of the document.
        let head = min(count, 65_536)
        let declaresEntities = find("<!ENTITY", in: base, from: 0, count: head) < head
        let entities =
            declaresEntities
            ? InternalEntities(declaredIn: UnsafeBufferPointer(rebasing: bytes[0..<head])) : InternalEntities()
        var writtenIn = 0
        let subsetEnd = rewritingPredefined ? internalSubsetEnd(base, count: head) : 0
        var copiedUpTo = 0
        var index = 0
        var cdataStart = find("<![CDATA[", in: base, from: 0, count: count)
        while index < count {
            let found =
                rewritingPredefined
                ? nextAmpersandOrLessThan(bytes, from: index, to: cdataStart)
                : memchr(base + index, Int32(UInt8(ascii: "&")), cdataStart - index).map {
                    base.distance(to: UnsafeRawPointer($0))
                }
            guard let start = found else {
                // No reference before the next CDATA section: skip past its end.
                guard cdataStart < count else { break }
                let close = find("]]>", in: base, from: cdataStart + 9, count: count)
                index = min(count, close + 3)
                cdataStart = find("<![CDATA[", in: base, from: index, count: count)
                continue
            }
            // What replaces the bytes start..<replaced, if anything does.
            var replacement: String
            let replaced: Int
            if bytes[start] == UInt8(ascii: "<") {
                // A `<` that opens no tag (`a < b`, `<3`): XML forbids it, and libxml2's push
                // parser stops at it, losing the rest of the feed. Written as the text it is.
                guard start + 1 < count, start >= subsetEnd, !opensMarkup(bytes[start + 1]) else {
                    index = start + 1
                    continue
                }
                (replacement, replaced) = ("&#60;", start + 1)
            } else if start + 1 < count, bytes[start + 1] == UInt8(ascii: "#") {
                switch numericReference(bytes, at: start) {
                case .valid(let end):
                    index = end
                    continue
                case .rewritten(let value, let end):
                    // `&#X41;` (HTML allows the capital X, XML does not), `&#150;` (a
                    // Windows-1252 dash to HTML5, a C1 control to XML), `&#0;` (forbidden).
                    (replacement, replaced) = ("&#\(value);", end)
                case .malformed:
                    (replacement, replaced) = ("&amp;", start + 1)
                }
            } else {
                var end = start + 1
                while end < count, end - start <= 32, isNameByte(bytes[end]) { end += 1 }
                if end < count, bytes[end] == UInt8(ascii: ";"), end > start + 1 {
                    let name = UnsafeBufferPointer(rebasing: bytes[(start + 1)..<end])
                    if let character = predefinedCharacter(name) {
                        hasPredefinedReferences = true
                        guard rewritingPredefined, start >= subsetEnd else {
                            index = end + 1
                            continue
                        }
                        (replacement, replaced) = ("&#\(character);", end + 1)
                    } else if let (first, second) = HTMLEntities.value(named: name) {
                        let reference = "&#\(first.value);"
                        (replacement, replaced) = (second.map { reference + "&#\($0.value);" } ?? reference, end + 1)
                    } else {
                        let text = String(decoding: name, as: UTF8.self)
                        if !declaresEntities {
                            (replacement, replaced) = ("&amp;" + text + ";", end + 1)
                        } else {
                            // The document's own entity (or one it does not declare, which
                            // libxml2 reports): dropped after an error, so written in when
                            // rewriting, while the budget lasts.
                            hasPredefinedReferences = true
                            guard rewritingPredefined, start >= subsetEnd, !result.entityBudgetExceeded,
                                let value = entities.replacement(for: text)
                            else {
                                index = end + 1
                                continue
                            }
                            writtenIn += value.utf8.count
                            guard writtenIn <= SAXFeedReader.entityBudget else {
                                result.entityBudgetExceeded = true
                                index = end + 1
                                continue
                            }
                            (replacement, replaced) = (value, end + 1)
                        }
                    }
                } else {
                    // A bare ampersand (`?a=1&b=2`, `AT&T`), which XML forbids and every feed
                    // reader keeps: written as the `&amp;` it stands for.
                    (replacement, replaced) = ("&amp;", start + 1)
                }
            }
            index = replaced
            if start > copiedUpTo { sink(UnsafeRawBufferPointer(rebasing: raw[copiedUpTo..<start])) }
            replacement.withUTF8 { sink(UnsafeRawBufferPointer($0)) }
            copiedUpTo = replaced
        }
        if count > copiedUpTo { sink(UnsafeRawBufferPointer(rebasing: raw[copiedUpTo..<count])) }
        result.hasPredefinedReferences = hasPredefinedReferences
        return result
    }

    /// The first `&` or `<` in `from..<limit`, sixteen bytes at a time.
    private static func nextAmpersandOrLessThan(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, to limit: Int) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        var position = from
        let ampersand = SIMD16<UInt8>(repeating: UInt8(ascii: "&"))
        let less = SIMD16<UInt8>(repeating: UInt8(ascii: "<"))
        while position + 16 <= limit {
            let block = UnsafeRawPointer(base + position).loadUnaligned(as: SIMD16<UInt8>.self)
            let found = (block .== ampersand) .| (block .== less)
            if any(found) {
                for lane in 0..<16 where found[lane] { return position + lane }
            }
            position += 16
        }
        while position < limit {
            if base[position] == UInt8(ascii: "&") || base[position] == UInt8(ascii: "<") { return position }
            position += 1
        }
        return nil
    }

    /// Whether `<` followed by `byte` can open markup: a name (ASCII letter, `_`, `:` or any
    /// non-ASCII byte), an end tag, a comment, CDATA, a declaration or a processing instruction.
    private static func opensMarkup(_ byte: UInt8) -> Bool {
        let lower = byte | 0x20
        return (lower >= 0x61 && lower <= 0x7A) || byte >= 0x80 || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "!")
            || byte == UInt8(ascii: "?")
    }

    private static func fresh(capacity: Int) -> [UInt8] {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(capacity)
        return buffer
    }

    /// Where the DOCTYPE's internal subset ends (just past its `]>`), looked for within the
    /// first `count` bytes; 0 when there is none.
    private static func internalSubsetEnd(_ base: UnsafeRawPointer, count: Int) -> Int {
        let doctype = find("<!DOCTYPE", in: base, from: 0, count: count)
        guard doctype < count else { return 0 }
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        var position = doctype + 9
        while position < count, bytes[position] != UInt8(ascii: "["), bytes[position] != UInt8(ascii: ">") {
            position += 1
        }
        guard position < count, bytes[position] == UInt8(ascii: "[") else { return 0 }
        // The subset ends at the first `]` followed (after any spaces) by `>`.
        while position < count {
            if bytes[position] == UInt8(ascii: "]") {
                var next = position + 1
                while next < count,
                    bytes[next] == 0x20 || bytes[next] == 0x0A || bytes[next] == 0x09 || bytes[next] == 0x0D
                {
                    next += 1
                }
                if next < count, bytes[next] == UInt8(ascii: ">") { return next + 1 }
            }
            position += 1
        }
        return count
    }

    /// Where `pattern` next occurs at or after `from`; `count` when it does not. `memchr` finds
    /// each candidate by the pattern's second byte (`!` or `]`, rarer than `<`).
    static func find(_ pattern: StaticString, in base: UnsafeRawPointer, from: Int, count: Int) -> Int {
        let length = pattern.utf8CodeUnitCount
        let anchor = pattern.utf8Start[1]
        var position = from + 1
        while position < count {
            guard let found = memchr(base + position, Int32(anchor), count - position) else { return count }
            let start = base.distance(to: UnsafeRawPointer(found)) - 1
            if start + length <= count, memcmp(base + start, pattern.utf8Start, length) == 0 { return start }
            position = start + 2
        }
        return count
    }

    private enum NumericReference {
        /// A reference XML accepts and reads as HTML5 does, ending before `end`.
        case valid(end: Int)
        /// A reference to be written `&#value;`, ending before `end`: one with a capital X, one
        /// to a code point HTML5 reads otherwise (128–159) or XML forbids.
        case rewritten(value: UInt32, end: Int)
        /// `&#` not followed by digits and `;`.
        case malformed
    }

    /// The numeric reference that starts at `start` (`&#…`).
    private static func numericReference(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> NumericReference {
        var position = start + 2
        let marker = position < bytes.count ? bytes[position] : 0
        let isHex = marker == UInt8(ascii: "x") || marker == UInt8(ascii: "X")
        if isHex { position += 1 }
        let digits = position
        var value: UInt32 = 0
        while position < bytes.count, position - start <= 32 {
            let byte = bytes[position]
            let digit: UInt32
            if byte >= 0x30 && byte <= 0x39 {
                digit = UInt32(byte - 0x30)
            } else if isHex, byte | 0x20 >= 0x61, byte | 0x20 <= 0x66 {
                digit = UInt32(byte | 0x20) - 0x61 + 10
            } else {
                break
            }
            // Saturates past the last code point: any larger value is just as forbidden.
            value = min(value * (isHex ? 16 : 10) + digit, 0x11_0000)
            position += 1
        }
        guard position > digits, position < bytes.count, bytes[position] == UInt8(ascii: ";") else {
            return .malformed
        }
        let read = HTMLEntities.codePoint(referencedBy: value)
        guard read != value || marker == UInt8(ascii: "X") else { return .valid(end: position + 1) }
        return .rewritten(value: read, end: position + 1)
    }

    /// The code point of `amp`, `lt`, `gt`, `quot` or `apos`, the five XML defines itself.
    private static func predefinedCharacter(_ name: UnsafeBufferPointer<UInt8>) -> UInt8? {
        switch name.count {
        case 2 where name[1] == UInt8(ascii: "t"):
            if name[0] == UInt8(ascii: "l") { return UInt8(ascii: "<") }
            if name[0] == UInt8(ascii: "g") { return UInt8(ascii: ">") }
        case 3:
            if name[0] == UInt8(ascii: "a"), name[1] == UInt8(ascii: "m"), name[2] == UInt8(ascii: "p") {
                return UInt8(ascii: "&")
            }
        case 4:
            if name[0] == UInt8(ascii: "q"), name[1] == UInt8(ascii: "u"), name[2] == UInt8(ascii: "o"),
                name[3] == UInt8(ascii: "t")
            {
                return UInt8(ascii: "\"")
            }
            if name[0] == UInt8(ascii: "a"), name[1] == UInt8(ascii: "p"), name[2] == UInt8(ascii: "o"),
                name[3] == UInt8(ascii: "s")
            {
                return UInt8(ascii: "'")
            }
        default: break
        }
        return nil
    }

    /// A byte of an entity's name (`my-entity`, `co.name` and non-ASCII names included).
    private static func isNameByte(_ byte: UInt8) -> Bool { InternalEntities.isNameByte(byte) }
}
