import Foundation

/// Rewrites the HTML named entities feeds use but XML does not define (`&nbsp;`, `&eacute;`,
/// `&hellip;` …) as numeric references before the XML parser sees them; the parser would
/// otherwise drop them, and the text around them. An unknown name (`&bogus;`) becomes literal
/// text (`&amp;bogus;`) unless the document declares entities of its own; a bare `&` (`?a=1&b=2`)
/// becomes `&amp;`, and `&#X41;` the `&#x41;` XML accepts. CDATA sections are left alone. Documents without such references are returned as they are, uncopied.
///
/// The scan jumps from `&` to `&` with `memchr` and from CDATA section to CDATA section with
/// `memmem`, so a document full of `&lt;` costs little more than a copy.
enum HTMLEntityPreprocessor {
    static func process(_ data: Data) -> Data {
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Data in
            guard let base = raw.baseAddress else { return data }
            let bytes = raw.bindMemory(to: UInt8.self)
            let count = bytes.count
            // Entity declarations live in the DOCTYPE, at the start of the document.
            let head = min(count, 65_536)
            let declaresEntities = find("<!ENTITY", in: base, from: 0, count: head) < head
            var output: [UInt8]?
            var copiedUpTo = 0
            var index = 0
            var cdataStart = find("<![CDATA[", in: base, from: 0, count: count)
            while index < count {
                guard let ampersand = memchr(base + index, Int32(UInt8(ascii: "&")), cdataStart - index) else {
                    // No reference before the next CDATA section: skip past its end.
                    guard cdataStart < count else { break }
                    let close = find("]]>", in: base, from: cdataStart + 9, count: count)
                    index = min(count, close + 3)
                    cdataStart = find("<![CDATA[", in: base, from: index, count: count)
                    continue
                }
                let start = base.distance(to: UnsafeRawPointer(ampersand))
                // What replaces the bytes start..<replaced, if anything does.
                let replacement: String
                let replaced: Int
                if start + 1 < count, bytes[start + 1] == UInt8(ascii: "#") {
                    switch numericReference(bytes, at: start) {
                    case .valid(let end):
                        index = end
                        continue
                    case .upperCaseX:
                        // `&#X41;`: HTML allows the capital X, XML does not.
                        (replacement, replaced) = ("&#x", start + 3)
                    case .malformed:
                        (replacement, replaced) = ("&amp;", start + 1)
                    }
                } else {
                    var end = start + 1
                    while end < count, end - start <= 32, isNameByte(bytes[end]) { end += 1 }
                    if end < count, bytes[end] == UInt8(ascii: ";"), end > start + 1 {
                        let name = UnsafeBufferPointer(rebasing: bytes[(start + 1)..<end])
                        if isXMLEntity(name) {
                            index = end + 1
                            continue
                        }
                        let text = String(decoding: name, as: UTF8.self)
                        if let value = HTMLEntities.named[text]?.unicodeScalars.first?.value {
                            (replacement, replaced) = ("&#\(value);", end + 1)
                        } else if !declaresEntities {
                            (replacement, replaced) = ("&amp;" + text + ";", end + 1)
                        } else {
                            index = end + 1
                            continue
                        }
                    } else {
                        // A bare ampersand (`?a=1&b=2`, `AT&T`), which XML forbids and every feed
                        // reader keeps: written as the `&amp;` it stands for.
                        (replacement, replaced) = ("&amp;", start + 1)
                    }
                }
                index = replaced
                if output == nil {
                    var fresh: [UInt8] = []
                    fresh.reserveCapacity(count + count / 16)
                    output = fresh
                }
                output?.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copiedUpTo..<start]))
                output?.append(contentsOf: replacement.utf8)
                copiedUpTo = replaced
            }
            guard var result = output else { return data }
            result.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copiedUpTo..<count]))
            return Data(result)
        }
    }

    /// Where `pattern` next occurs at or after `from`; `count` when it does not. `memchr` finds
    /// each candidate by the pattern's second byte (`!` or `]`, rarer than `<`).
    private static func find(_ pattern: StaticString, in base: UnsafeRawPointer, from: Int, count: Int) -> Int {
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
        /// A reference XML accepts, ending before `end`.
        case valid(end: Int)
        /// `&#X…;`, well formed but for the capital X.
        case upperCaseX
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
        while position < bytes.count, position - start <= 12,
            isHex ? isHexDigit(bytes[position]) : (bytes[position] >= 0x30 && bytes[position] <= 0x39)
        {
            position += 1
        }
        guard position > digits, position < bytes.count, bytes[position] == UInt8(ascii: ";") else {
            return .malformed
        }
        return marker == UInt8(ascii: "X") ? .upperCaseX : .valid(end: position + 1)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x66)
    }

    /// `amp`, `lt`, `gt`, `quot`, `apos`: the five XML defines itself.
    private static func isXMLEntity(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        switch name.count {
        case 2: return (name[0] == UInt8(ascii: "l") || name[0] == UInt8(ascii: "g")) && name[1] == UInt8(ascii: "t")
        case 3: return name[0] == UInt8(ascii: "a") && name[1] == UInt8(ascii: "m") && name[2] == UInt8(ascii: "p")
        case 4:
            return
                (name[0] == UInt8(ascii: "q") && name[1] == UInt8(ascii: "u") && name[2] == UInt8(ascii: "o")
                && name[3] == UInt8(ascii: "t"))
                || (name[0] == UInt8(ascii: "a") && name[1] == UInt8(ascii: "p") && name[2] == UInt8(ascii: "o")
                    && name[3] == UInt8(ascii: "s"))
        default: return false
        }
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
    }
}
