import Foundation
import Markup

/// Turns HTML into readable plain text: block elements become line breaks, scripts and styles
/// are dropped, entities are decoded, runs of spaces collapse, empty lines go.
///
/// One pass over the UTF-8 bytes (`memchr` to a tag's end, whole sentences copied at once):
/// this runs for every item of every feed, so it must not walk `Character`s.
package enum HTMLText {
    private static let blockElements: [TagName] = [
        "p", "div", "br", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "tr",
        "table", "section", "article", "header", "footer", "hr", "dd", "dt", "figure", "figcaption",
    ].map(TagName.init)
    private static let script = TagName("script")
    private static let style = TagName("style")

    /// The plain text of `html`.
    package static func plainText(_ html: String) -> String {
        var source = html
        return source.withUTF8 { bytes -> String in
            // Every byte written stands for at least one byte read (an entity is never shorter
            // than its UTF-8, a tag or a run of spaces becomes one separator), so the text fits
            // in the input's length and is written straight into the string's storage.
            String(unsafeUninitializedCapacity: bytes.count) { output in
                render(bytes, into: TextWriter(output))
            }
        }
    }

    private static func render(_ bytes: UnsafeBufferPointer<UInt8>, into writer: TextWriter) -> Int {
        var writer = writer
        let blockElements = self.blockElements
        let script = self.script
        let style = self.style
        var index = 0
        var skipping: TagName?
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "<"), index + 1 < bytes.count, startsTag(bytes[index + 1]) {
                if let end = commentEnd(bytes, at: index) {
                    // A comment, to its `-->` (or, unclosed, to the end): never text.
                    index = end
                    continue
                }
                guard let close = tagEnd(bytes, at: index) else {
                    if skipping == nil { writer.append(byte) }
                    index += 1
                    continue
                }
                var nameStart = index + 1
                let isClosing = nameStart < close && bytes[nameStart] == UInt8(ascii: "/")
                if isClosing { nameStart += 1 }
                var nameEnd = nameStart
                var name = TagName()
                while nameEnd < close, isAlphanumeric(bytes[nameEnd]) {
                    name.append(bytes[nameEnd])
                    nameEnd += 1
                }
                if let open = skipping {
                    if isClosing && name == open { skipping = nil }
                } else if !isClosing, name == script || name == style {
                    skipping = name
                } else if blockElements.contains(name) {
                    writer.newline()
                }
                index = close + 1
                continue
            }
            if skipping != nil {
                index += 1
                continue
            }
            if byte == UInt8(ascii: "&"), let (scalar, length) = HTMLEntities.entity(in: bytes, at: index) {
                writer.append(scalar)
                index += length
                continue
            }
            if byte > 0x20 {
                // A run of ordinary text, single spaces between words included, goes in one copy.
                var end = index + 1
                if let base = bytes.baseAddress { end = plainRunEnd(base, from: end, count: bytes.count) }
                while end < bytes.count {
                    let next = bytes[end]
                    if next > 0x20, next != UInt8(ascii: "<"), next != UInt8(ascii: "&") {
                        end += 1
                    } else if next == 0x20, end + 1 < bytes.count, bytes[end + 1] > 0x20,
                        bytes[end + 1] != UInt8(ascii: "<"), bytes[end + 1] != UInt8(ascii: "&")
                    {
                        end += 2
                    } else {
                        break
                    }
                }
                writer.append(run: UnsafeBufferPointer(rebasing: bytes[index..<end]))
                index = end
                continue
            }
            writer.append(byte)
            index += 1
        }
        return writer.count
    }

    /// Skips sixteen bytes at a time while they are ordinary text: no `<`, `&` or control
    /// character, and every space followed by ordinary text. Returns where the byte-wise scan
    /// must take over.
    @inline(__always)
    private static func plainRunEnd(_ base: UnsafePointer<UInt8>, from start: Int, count: Int) -> Int {
        var end = start
        let less = SIMD16<UInt8>(repeating: UInt8(ascii: "<"))
        let ampersand = SIMD16<UInt8>(repeating: UInt8(ascii: "&"))
        let space = SIMD16<UInt8>(repeating: 0x20)
        while end + 17 <= count {
            let block = UnsafeRawPointer(base + end).loadUnaligned(as: SIMD16<UInt8>.self)
            let next = UnsafeRawPointer(base + end + 1).loadUnaligned(as: SIMD16<UInt8>.self)
            let special = (block .== less) .| (block .== ampersand) .| (block .< space)
            let spaceBeforeSpecial = (block .== space) .& ((next .<= space) .| (next .== less) .| (next .== ampersand))
            if any(special .| spaceBeforeSpecial) { break }
            end += 16
        }
        return end
    }

    /// Where the comment that opens at `index` ends (just past its `-->`, or the end of the
    /// text when it is never closed); `nil` when no comment opens there.
    private static func commentEnd(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        guard index + 3 < bytes.count, bytes[index + 1] == UInt8(ascii: "!"), bytes[index + 2] == UInt8(ascii: "-"),
            bytes[index + 3] == UInt8(ascii: "-")
        else { return nil }
        var position = index + 4
        while position + 2 < bytes.count {
            if bytes[position] == UInt8(ascii: "-"), bytes[position + 1] == UInt8(ascii: "-"),
                bytes[position + 2] == UInt8(ascii: ">")
            {
                return position + 3
            }
            position += 1
        }
        return bytes.count
    }

    /// The index of the `>` closing the tag that opens at `index`, skipping any `>` inside a
    /// quoted attribute value (`alt="a > b"`); `nil` when the tag is never closed. A quote not
    /// closed within 4 KB is unbalanced, and the first `>` after it ends the tag after all (the
    /// bound keeps a document of such tags linear).
    private static func tagEnd(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        var position = index + 1
        while let special = nextTagSpecial(base, from: position, count: bytes.count) {
            let byte = base[special]
            if byte == UInt8(ascii: ">") { return special }
            let limit = min(bytes.count, special + 4096)
            guard let found = memchr(base + special + 1, Int32(byte), limit - special - 1) else {
                let close = memchr(base + special + 1, Int32(UInt8(ascii: ">")), bytes.count - special - 1)
                return close.map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) }
            }
            position = base.distance(to: found.assumingMemoryBound(to: UInt8.self)) + 1
        }
        return nil
    }

    /// The first `>`, `"` or `'` at or after `start`, sixteen bytes at a time.
    @inline(__always)
    private static func nextTagSpecial(_ base: UnsafePointer<UInt8>, from start: Int, count: Int) -> Int? {
        var position = start
        let greater = SIMD16<UInt8>(repeating: UInt8(ascii: ">"))
        let double = SIMD16<UInt8>(repeating: UInt8(ascii: "\""))
        let single = SIMD16<UInt8>(repeating: UInt8(ascii: "'"))
        while position + 16 <= count {
            let block = UnsafeRawPointer(base + position).loadUnaligned(as: SIMD16<UInt8>.self)
            let found = (block .== greater) .| (block .== double) .| (block .== single)
            if any(found) {
                for lane in 0..<16 where found[lane] { return position + lane }
            }
            position += 16
        }
        while position < count {
            let byte = base[position]
            if byte == UInt8(ascii: ">") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") { return position }
            position += 1
        }
        return nil
    }

    /// Whether `<` followed by `byte` opens a tag (`<p`, `</`, `<!--`, `<?`); `5 < 6` does not.
    private static func startsTag(_ byte: UInt8) -> Bool {
        let lower = byte | 0x20
        return (lower >= 0x61 && lower <= 0x7A) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "!")
            || byte == UInt8(ascii: "?")
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
    }
}

/// A tag name (see `PackedName`).
private typealias TagName = PackedName

/// Writes text bytes into a buffer, collapsing spaces and dropping empty lines as it goes.
/// Writes that would not fit are dropped (they cannot happen; see `HTMLText.plainText`).
private struct TextWriter {
    private let output: UnsafeMutableBufferPointer<UInt8>
    private(set) var count = 0
    private var pendingSpace = false
    private var pendingNewline = false

    init(_ output: UnsafeMutableBufferPointer<UInt8>) { self.output = output }

    mutating func append(_ byte: UInt8) {
        switch byte {
        case 0x20, 0x09, 0x0D:
            pendingSpace = true
        case 0x0A:
            newline()
        default:
            flush()
            write(byte)
        }
    }

    mutating func append(run: UnsafeBufferPointer<UInt8>) {
        flush()
        guard count + run.count <= output.count, let source = run.baseAddress, let target = output.baseAddress else {
            return
        }
        (target + count).update(from: source, count: run.count)
        count += run.count
    }

    mutating func append(_ scalar: Unicode.Scalar) {
        if scalar == "\u{A0}" || scalar == " " {
            pendingSpace = true
            return
        }
        flush()
        for byte in scalar.utf8 { write(byte) }
    }

    mutating func newline() {
        pendingSpace = false
        if count > 0 { pendingNewline = true }
    }

    private mutating func write(_ byte: UInt8) {
        guard count < output.count else { return }
        output[count] = byte
        count += 1
    }

    private mutating func flush() {
        if pendingNewline {
            write(0x0A)
        } else if pendingSpace, count > 0 {
            write(0x20)
        }
        pendingNewline = false
        pendingSpace = false
    }
}
