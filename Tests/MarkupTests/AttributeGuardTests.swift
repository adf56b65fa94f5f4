import CLibXML2
import Foundation
import Testing

@testable import Markup

/// The attribute count run ahead of libxml2 (`XMLLimits.maximumAttributes`): a start tag with
/// more attributes than the limit stops the document before libxml2 reads it, however the tag
/// is hidden (values holding `>` or `<`, stray quotes, markup-like text in comments, CDATA
/// sections and instructions, pieces cut anywhere, UTF-16, UTF-32, ISO-2022), and UTF-7 is
/// refused; nothing else is touched.
@Suite("XML attribute guard")
struct AttributeGuardTests {
    static let limits = XMLLimits(
        maximumBytes: 1 << 22, maximumDepth: 64, maximumElements: 10_000, entityBudget: 0, maximumAttributes: 100)

    /// What a reading came to: the limit it stopped at, the elements libxml2 called back for,
    /// and the most attributes one of them had (what the guard keeps libxml2 from reading).
    struct Reading {
        var exceeded: XMLLimitExceeded?
        var elements = 0
        var mostAttributes = 0
    }

    /// Pushes `bytes` in pieces of `chunk` bytes, the first `head` given as the head (readers
    /// give four, from which libxml2 tells the encoding).
    static func read(_ bytes: [UInt8], chunk: Int = .max, head: Int = 4) throws -> Reading {
        var handler = xmlSAXHandler()
        handler.startElementNs = { pointer, _, _, _, _, _, attributes, _, _ in
            guard let reading = XMLPushSession.admit(pointer)?.assumingMemoryBound(to: Reading.self) else { return }
            reading.pointee.elements += 1
            reading.pointee.mostAttributes = max(reading.pointee.mostAttributes, Int(attributes))
        }
        let first = Array(bytes.prefix(head))
        let parser = try #require(
            first.withUnsafeBytes { XMLPushParser(handler: handler, mode: .recovering, limits: limits, head: $0) })
        let reading = UnsafeMutablePointer<Reading>.allocate(capacity: 1)
        reading.initialize(to: Reading())
        defer { reading.deallocate() }
        parser.owner = UnsafeMutableRawPointer(reading)
        var start = first.count
        while start < bytes.count {
            let end = min(bytes.count, start + min(chunk, bytes.count - start))
            bytes[start..<end].withUnsafeBytes { parser.push($0) }
            start = end
        }
        parser.finish()
        reading.pointee.exceeded = parser.exceeded
        return reading.pointee
    }

    static func read(_ text: String, chunk: Int = .max) throws -> Reading {
        try read(Array(text.utf8), chunk: chunk)
    }

    /// A start tag of `count` attributes, each value `value`.
    static func tag(_ count: Int, value: String = "1") -> String {
        "<x " + (0..<count).map { "a\($0)=\"\(value)\"" }.joined(separator: " ") + "/>"
    }

    static let tooMany = XMLLimitExceeded.tooManyAttributes(limit: 100)

    @Test(
        "a tag of the limit's attributes is read; one more stops the document, in pieces of any size",
        arguments: [1, 3, 7, 64, Int.max])
    func limit(chunk: Int) throws {
        let fits = try Self.read("<r>" + Self.tag(100) + Self.tag(100) + "</r>", chunk: chunk)
        #expect(fits.exceeded == nil && fits.elements == 3)
        #expect(try Self.read("<r>" + Self.tag(101) + "</r>", chunk: chunk).exceeded == Self.tooMany)
        // Fewer than four bytes first: kept, and scanned with the next ones.
        for head in [0, 1, 2] {
            let read = try Self.read(Array(("<x " + Self.tag(101).dropFirst(3)).utf8), chunk: chunk, head: head)
            #expect(read.exceeded == Self.tooMany, "head \(head)")
        }
    }

    @Test("values holding > or <, quotes outside values and a stray < do not hide a tag's attributes")
    func hidden() throws {
        for prefix in ["", "1 < 'x ", "<!-x> ", "<y b=\"<\" c='", "<? x ?> <!-- > --> <![CDATA[ > ]]> "] {
            for value in [">", "'", "a>b", "\"", "&gt;"] where value != "\"" {
                let document = "<r>" + prefix + Self.tag(101, value: value) + "</r>"
                #expect(try Self.read(document).exceeded == Self.tooMany, "\(prefix) \(value)")
                // In pieces, libxml2 may stop at the broken markup before the tag comes: either
                // way it never reads the tag.
                let pieces = try Self.read(document, chunk: 5)
                #expect(pieces.mostAttributes <= 100, "\(prefix) \(value)")
                #expect(pieces.exceeded == Self.tooMany || prefix == "<!-x> ", "\(prefix) \(value)")
            }
        }
    }

    @Test("markup-like text in comments, CDATA sections and instructions is not counted")
    func notTags() throws {
        let fake = Self.tag(500)
        for wrapped in ["<!-- \(fake) -->", "<![CDATA[\(fake)]]>", "<?pi \(fake) ?>", "<!-- \(fake) --->"] {
            let read = try Self.read("<r>\(wrapped)<y a=\"1\"/></r>", chunk: 9)
            #expect(read.exceeded == nil, "\(wrapped.prefix(12))")
            #expect(read.elements == 2 || wrapped.hasSuffix("--->"), "\(wrapped.prefix(12))")
        }
    }

    @Test(
        "UTF-16 and UTF-32, with or without a byte-order mark, are read by code unit: units holding < or > bytes hide nothing"
    )
    func wideEncodings() throws {
        // U+223C and U+3E3E: in UTF-16 their bytes include `<`, `"` and `>`.
        let document = "<?xml version=\"1.0\"?><r>" + Self.tag(101, value: "\u{223C}\u{3E3E}") + "</r>"
        let forms: [(String, [UInt8])] = [
            ("UTF-16LE", [0xFF, 0xFE] + utf16(document, bigEndian: false)),
            ("UTF-16LE bare", utf16(document, bigEndian: false)),
            ("UTF-16BE", [0xFE, 0xFF] + utf16(document, bigEndian: true)),
            ("UTF-16BE bare", utf16(document, bigEndian: true)),
            ("UTF-32LE", utf32(document)),
        ]
        for (name, bytes) in forms {
            #expect(try Self.read(bytes).exceeded == Self.tooMany, "\(name)")
            // libxml2 cannot take UTF-32 in pieces of three bytes, and stops; never at the tag.
            let pieces = try Self.read(bytes, chunk: 3)
            #expect(pieces.mostAttributes <= 100, "\(name) in pieces")
            #expect(pieces.exceeded == Self.tooMany || name == "UTF-32LE", "\(name) in pieces")
        }
        let small = "<?xml version=\"1.0\"?><r>" + Self.tag(100, value: "\u{223C}") + "</r>"
        #expect(try Self.read([0xFF, 0xFE] + utf16(small, bigEndian: false)).exceeded == nil)
    }

    @Test("in an ISO-2022 document, the bytes of a double-byte set hide nothing; UTF-7 is refused")
    func shiftedAndUTF7() throws {
        // ESC $ B, two bytes of JIS X 0208 that spell `<"` and `>"`, ESC ( B.
        let kanji = "\u{1B}$B<\">\"\u{1B}(B"
        let jis = "<?xml version=\"1.0\" encoding=\"ISO-2022-JP\"?><r>" + Self.tag(101, value: kanji) + "</r>"
        #expect(try Self.read(jis).exceeded == Self.tooMany)
        #expect(try Self.read(jis, chunk: 2).exceeded == Self.tooMany)
        let seven = "<?xml version=\"1.0\" encoding=\"UTF-7\"?><r><x a+AD0AIg-1+ACI-/></r>"
        #expect(try Self.read(seven).exceeded == .utf7)
        #expect(try Self.read(seven, chunk: 1).exceeded == .utf7)
        #expect(try Self.read(Array(seven.utf8), chunk: 1, head: 1).exceeded == .utf7)
        #expect(try Self.read("<?xml version='1.0' encoding='utf-8'?><r a='1'/>").exceeded == nil)
    }

    private func utf16(_ text: String, bigEndian: Bool) -> [UInt8] {
        text.utf16.flatMap { unit in
            bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
    }

    private func utf32(_ text: String) -> [UInt8] {
        text.unicodeScalars.flatMap { scalar in (0..<4).map { UInt8((scalar.value >> (8 * $0)) & 0xFF) } }
    }
}
