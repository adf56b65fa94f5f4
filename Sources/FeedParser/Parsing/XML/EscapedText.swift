import Foundation

/// Reads a UTF-8 document's runs of escaped text itself, so that libxml2 does not:
/// `<description>&lt;p&gt;Hi&lt;/p&gt;</description>` reaches libxml2 as
/// `<description><?tidings?></description>`, and the text `<p>Hi</p>`, decoded here from the
/// document, reaches the builder when libxml2 reports that processing instruction (`Queue`).
///
/// Feeds escape their HTML: the shared corpus's 20 MB feed holds 543,000 references to `&lt;`,
/// `&gt;` and `&amp;`, and libxml2 spends on each a name lookup in its dictionary and a
/// callback of one byte; on text it has a byte loop of its own. Only what libxml2 would have
/// read without an error, and as the same characters, is taken: a run of character data inside
/// the root element, between two pieces of markup, that is UTF-8 of characters XML allows,
/// whose every `&` is one of the five predefined references, and which holds no `]` (no `]]>`,
/// which XML forbids in text) and no carriage return (which libxml2 reads as a line feed). The
/// instruction that stands for it is shorter than the run, so a document within
/// `SAXFeedReader.limits` stays within them. A CDATA section inside the root element whose
/// bytes are such text (`]` allowed) is taken the same way, its bytes its characters: libxml2
/// reads one with three byte loops. Comments, processing instructions and tags (their quoted
/// values) are passed over as they are; text without a reference is left to libxml2, whose own
/// loop over it is cheaper than the instruction. Nothing is taken after a DOCTYPE
/// with an internal subset, where entities are declared, or after an instruction of the
/// document's own named `tidings` (which the builder then ignores, as it ignores every other).
///
/// The rewritten document is never held whole: it goes to libxml2 in pieces
/// (`write(_:queue:into:)`), and the queue holds where the runs lie in the document.
/// A document so rewritten that libxml2 finds malformed was malformed to
/// begin with, since only runs that were well-formed text are taken; the reading as it is stops
/// at its first error either way (`XMLFeedParser`), and the document is read again from its own
/// bytes.
enum EscapedText {
    /// The target of the instruction that stands for a run taken.
    static let target: StaticString = "tidings"
    private static let marker: StaticString = "<?tidings?>"

    /// Whether an instruction's target (a C string) is `target`. A shorter name ends at a NUL,
    /// which differs from every byte of `target`, before anything past it is read.
    static func isTarget(_ name: UnsafePointer<UInt8>) -> Bool {
        let length = target.utf8CodeUnitCount
        for index in 0..<length where name[index] != target.utf8Start[index] { return false }
        return name[length] == 0
    }

    /// The runs taken, in document order, from the writer to the builder: where each lies in
    /// the document, which outlives the reading.
    final class Queue {
        private var runs: [(text: UnsafeBufferPointer<UInt8>, verbatim: Bool)] = []
        private var next = 0

        fileprivate func append(_ run: UnsafeBufferPointer<UInt8>, verbatim: Bool) {
            runs.append((run, verbatim))
        }

        /// The next run, as the document has it (`decode(_:into:)` reads it): a run of text, or
        /// a CDATA section's content (`verbatim`); `nil` when there is none.
        func takeNext() -> (text: UnsafeBufferPointer<UInt8>, verbatim: Bool)? {
            guard next < runs.count else { return nil }
            defer {
                next += 1
                if next == runs.count {
                    runs.removeAll(keepingCapacity: true)
                    next = 0
                }
            }
            return runs[next]
        }
    }

    /// Hands `raw` to `sink` with the runs it can take queued in `queue`, each replaced by the
    /// instruction: the stretches between them as they lie, uncopied (`SAXFeedReader` gathers
    /// them into libxml2's chunks), the whole document when there is no such run.
    static func write(_ raw: UnsafeRawBufferPointer, queue: Queue, into sink: (UnsafeRawBufferPointer) -> Void) {
        guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count > 0 else { return }
        let instruction = UnsafeRawBufferPointer(start: marker.utf8Start, count: marker.utf8CodeUnitCount)
        var runs = Runs(base: base, count: raw.count)
        var copied = 0
        while let run = runs.next() {
            guard take(base, run: run, into: queue) else { continue }
            let range = run.range
            if range.lowerBound > copied { sink(UnsafeRawBufferPointer(rebasing: raw[copied..<range.lowerBound])) }
            sink(instruction)
            copied = range.upperBound
        }
        if raw.count > copied { sink(UnsafeRawBufferPointer(rebasing: raw[copied...])) }
    }

    /// Queues `run` when libxml2 would read it as the same characters without an error (see
    /// `EscapedText`); `false` when it would not.
    static func take(_ base: UnsafePointer<UInt8>, run taken: Run, into queue: Queue) -> Bool {
        if taken.isSection {
            // A section's characters are its bytes; `]` is no end there but before `>`.
            let content = (taken.range.lowerBound + 9)..<(taken.range.upperBound - 3)
            guard isText(base + content.lowerBound, count: content.count, allowingBrackets: true) else { return false }
            queue.append(UnsafeBufferPointer(start: base + content.lowerBound, count: content.count), verbatim: true)
            return true
        }
        let run = taken.range
        guard isText(base + run.lowerBound, count: run.count) else { return false }
        var position = run.lowerBound
        while let found = memchr(base + position, Int32(UInt8(ascii: "&")), run.upperBound - position) {
            let reference = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            guard let (_, length) = predefined(base, at: reference, end: run.upperBound) else { return false }
            position = reference + length
        }
        queue.append(UnsafeBufferPointer(start: base + run.lowerBound, count: run.count), verbatim: false)
        return true
    }

    /// Appends the characters of `run`, a run `take(_:run:into:)` queued, to `text`.
    static func decode(_ run: (text: UnsafeBufferPointer<UInt8>, verbatim: Bool), into text: inout [UInt8]) {
        if run.verbatim {
            text.append(contentsOf: run.text)
            return
        }
        decode(run.text, into: &text)
    }

    /// Appends the characters of a run of text to `text`, its references decoded.
    static func decode(_ run: UnsafeBufferPointer<UInt8>, into text: inout [UInt8]) {
        guard let base = run.baseAddress else { return }
        let end = run.count
        var position = 0
        while let found = memchr(base + position, Int32(UInt8(ascii: "&")), end - position) {
            let reference = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            text.append(contentsOf: UnsafeBufferPointer(start: base + position, count: reference - position))
            guard let (byte, length) = predefined(base, at: reference, end: end) else { return }
            text.append(byte)
            position = reference + length
        }
        text.append(contentsOf: UnsafeBufferPointer(start: base + position, count: end - position))
    }

    /// Whether `count` bytes are UTF-8 of characters XML allows in text, without `]` or a
    /// carriage return. Eight ASCII bytes at a time.
    static func isText(_ start: UnsafePointer<UInt8>, count: Int, allowingBrackets: Bool = false) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var position = 0
        while position < count {
            if count - position >= 8 {
                let word = UnsafeRawPointer(start + position).loadUnaligned(as: UInt64.self)
                let bracket = word ^ (ones &* 0x5D)
                let control = (word &- ones &* 0x20) & ~word
                let closing = allowingBrackets ? 0 : (bracket &- ones) & ~bracket
                if (word | control | closing) & highs == 0 {
                    position += 8
                    continue
                }
            }
            let byte = start[position]
            if byte < 0x80 {
                guard byte >= 0x20 || byte == 0x09 || byte == 0x0A, allowingBrackets || byte != UInt8(ascii: "]") else {
                    return false
                }
                position += 1
                continue
            }
            guard let length = scalarLength(start + position, count: count - position) else { return false }
            position += length
        }
        return true
    }

    /// The length of the UTF-8 sequence at `start` when it encodes a character XML allows
    /// (libxml2's `IS_CHAR`: no surrogates, no U+FFFE or U+FFFF, nothing past U+10FFFF, no
    /// overlong form); `nil` otherwise.
    private static func scalarLength(_ start: UnsafePointer<UInt8>, count: Int) -> Int? {
        let lead = start[0]
        let length: Int
        var value: UInt32
        switch lead {
        case 0xC2...0xDF: (length, value) = (2, UInt32(lead & 0x1F))
        case 0xE0...0xEF: (length, value) = (3, UInt32(lead & 0x0F))
        case 0xF0...0xF4: (length, value) = (4, UInt32(lead & 0x07))
        default: return nil
        }
        guard count >= length else { return nil }
        for index in 1..<length {
            let byte = start[index]
            guard byte & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        switch length {
        case 3: guard value >= 0x800, !(0xD800...0xDFFF).contains(value), value < 0xFFFE else { return nil }
        case 4: guard value >= 0x10000, value <= 0x10FFFF else { return nil }
        default: break
        }
        return length
    }

    /// A run of character data, or a CDATA section (its markup included), that may be taken.
    struct Run {
        var range: Range<Int>
        var isSection: Bool
    }

    /// `<![CDATA[` and `]]>`: a section is longer than the instruction.
    private static let cdataMarkup = 12

    /// Inside the root element, in order: the runs of character data between pieces of markup
    /// that hold a reference and are longer than the instruction that would stand for them, and
    /// the CDATA sections.
    private struct Runs {
        let base: UnsafePointer<UInt8>
        let count: Int
        var at = 0
        var depth = 0
        var ended = false

        init(base: UnsafePointer<UInt8>, count: Int) {
            self.base = base
            self.count = count
        }

        /// A CDATA section found after the run just returned, returned next.
        var section: Run?

        mutating func next() -> Run? {
            if let section {
                self.section = nil
                return section
            }
            while !ended, at < count {
                guard let found = memchr(base + at, Int32(UInt8(ascii: "<")), count - at) else { break }
                let markup = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                let run = at..<markup
                let inRoot = depth > 0
                if let (end, change) = markupEnd(base, at: markup, count: count) {
                    at = end
                    depth += change
                    if depth < 0 { ended = true }
                    if inRoot, end - markup > cdataMarkup, base[markup + 1] == UInt8(ascii: "!"),
                        base[markup + 2] == UInt8(ascii: "[")
                    {
                        section = Run(range: markup..<end, isSection: true)
                    }
                } else {
                    ended = true
                }
                if inRoot, run.count > marker.utf8CodeUnitCount,
                    memchr(base + run.lowerBound, Int32(UInt8(ascii: "&")), run.count) != nil
                {
                    return Run(range: run, isSection: false)
                }
                if let section {
                    self.section = nil
                    return section
                }
            }
            ended = true
            return nil
        }
    }

    /// Where the markup that starts at `start` (a `<`) ends, just past its last byte, and how
    /// it changes the depth of elements; `nil` when it does not end, when it is a DOCTYPE with an
    /// internal subset or an instruction named `tidings` (nothing after it is taken).
    private static func markupEnd(_ base: UnsafePointer<UInt8>, at start: Int, count: Int) -> (Int, Int)? {
        guard start + 1 < count else { return nil }
        switch base[start + 1] {
        case UInt8(ascii: "?"):
            let name = target.utf8CodeUnitCount
            if start + 2 + name < count, memcmp(base + start + 2, target.utf8Start, name) == 0,
                !InternalEntities.isNameByte(base[start + 2 + name])
            {
                return nil
            }
            return find("?>", in: base, from: start + 2, count: count).map { ($0, 0) }
        case UInt8(ascii: "!"):
            if starts(base, at: start, count: count, with: "<!--") {
                return find("-->", in: base, from: start + 4, count: count).map { ($0, 0) }
            }
            if starts(base, at: start, count: count, with: "<![CDATA[") {
                return find("]]>", in: base, from: start + 9, count: count).map { ($0, 0) }
            }
            // A DOCTYPE (or another declaration): its end, unless it opens an internal subset.
            return tagEnd(base, from: start + 2, count: count, stoppingAtSubset: true).map { ($0, 0) }
        case UInt8(ascii: "/"):
            return tagEnd(base, from: start + 2, count: count, stoppingAtSubset: false).map { ($0, -1) }
        default:
            guard let end = tagEnd(base, from: start + 1, count: count, stoppingAtSubset: false) else { return nil }
            return (end, base[end - 2] == UInt8(ascii: "/") ? 0 : 1)
        }
    }

    /// Just past the `>` that ends a tag, skipping quoted values; `nil` at the end of the
    /// document, or at a `[` outside quotes when `stoppingAtSubset`.
    private static func tagEnd(
        _ base: UnsafePointer<UInt8>, from start: Int, count: Int, stoppingAtSubset: Bool
    ) -> Int? {
        var position = start
        while position < count {
            let byte = base[position]
            if byte == UInt8(ascii: ">") { return position + 1 }
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                guard let close = memchr(base + position + 1, Int32(byte), count - position - 1) else { return nil }
                position = base.distance(to: close.assumingMemoryBound(to: UInt8.self)) + 1
                continue
            }
            if stoppingAtSubset, byte == UInt8(ascii: "[") { return nil }
            position += 1
        }
        return nil
    }

    private static func starts(_ base: UnsafePointer<UInt8>, at start: Int, count: Int, with prefix: StaticString)
        -> Bool
    {
        let length = prefix.utf8CodeUnitCount
        return start + length <= count && memcmp(base + start, prefix.utf8Start, length) == 0
    }

    /// Just past the next `pattern` at or after `from`; `nil` when there is none.
    private static func find(_ pattern: StaticString, in base: UnsafePointer<UInt8>, from: Int, count: Int) -> Int? {
        let start = HTMLEntityPreprocessor.find(pattern, in: base, from: from, count: count)
        return start < count ? start + pattern.utf8CodeUnitCount : nil
    }

    /// The byte a predefined reference starting at `start` (its `&`) stands for, and its
    /// length; `nil` for any other.
    @inline(__always)
    private static func predefined(_ base: UnsafePointer<UInt8>, at start: Int, end: Int) -> (UInt8, Int)? {
        let left = end - start
        guard left >= 4 else { return nil }
        let second = base[start + 1]
        if base[start + 3] == UInt8(ascii: ";"), base[start + 2] == UInt8(ascii: "t") {
            if second == UInt8(ascii: "l") { return (UInt8(ascii: "<"), 4) }
            if second == UInt8(ascii: "g") { return (UInt8(ascii: ">"), 4) }
            return nil
        }
        guard left >= 5 else { return nil }
        if second == UInt8(ascii: "a"), base[start + 2] == UInt8(ascii: "m"), base[start + 3] == UInt8(ascii: "p"),
            base[start + 4] == UInt8(ascii: ";")
        {
            return (UInt8(ascii: "&"), 5)
        }
        guard left >= 6, base[start + 5] == UInt8(ascii: ";") else { return nil }
        if memcmp(base + start + 1, "quot", 4) == 0 { return (UInt8(ascii: "\""), 6) }
        if memcmp(base + start + 1, "apos", 4) == 0 { return (UInt8(ascii: "'"), 6) }
        return nil
    }
}
