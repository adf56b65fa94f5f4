import Markup

/// Turns HTML into readable plain text: block elements (`HTMLElements.block`) and `<br>` become
/// line breaks, scripts and styles are dropped, entities are decoded, runs of spaces collapse,
/// empty lines go.
///
/// One pass over the UTF-8 bytes with `HTMLTokenizer` (`memchr` from tag to tag), text written
/// straight into the string's storage, whole sentences copied at once: this runs for every item
/// of every feed, so it must not walk `Character`s.
public enum HTMLText {
    /// The plain text of `html`.
    public static func plainText(_ html: String) -> String {
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
        let blockElements = HTMLElements.block
        let (script, style, br) = (HTMLElements.script, HTMLElements.style, HTMLElements.br)
        var tokenizer = HTMLTokenizer(bytes)
        while let token = tokenizer.next() {
            switch token {
            case .text(let range):
                write(UnsafeBufferPointer(rebasing: bytes[range]), into: &writer, decodingEntities: true)
            case .rawText(let range, let element):
                // A script or style is never text; a title or textarea is, its tags and all.
                guard element != script, element != style else { continue }
                write(UnsafeBufferPointer(rebasing: bytes[range]), into: &writer, decodingEntities: true)
            case .cdata(let range):
                write(UnsafeBufferPointer(rebasing: bytes[range]), into: &writer, decodingEntities: false)
            case .startTag(let tag), .endTag(let tag):
                if tag.name == br || blockElements.contains(tag.name) { writer.newline() }
            case .comment, .declaration:
                continue
            }
        }
        return writer.count
    }

    /// Writes a run of text, its spaces collapsed and, when `decodingEntities`, its entities
    /// decoded.
    private static func write(
        _ bytes: UnsafeBufferPointer<UInt8>, into writer: inout TextWriter, decodingEntities: Bool
    ) {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if decodingEntities, byte == UInt8(ascii: "&"),
                let (scalar, second, length) = HTMLEntities.entity(in: bytes, at: index)
            {
                writer.append(scalar)
                if let second { writer.append(second) }
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
}

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
