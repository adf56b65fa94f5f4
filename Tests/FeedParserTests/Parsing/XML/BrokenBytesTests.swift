import Foundation
import Models
import Testing

@testable import FeedParser

/// Issue 13: a stray byte, an encoding that lies and a BOM that contradicts the declaration are
/// recoverable problems, each repaired and reported as a warning.
@Suite("Broken bytes are repaired and reported")
struct BrokenBytesTests {
    @Test("a stray NUL, in the first kilobyte or later, is dropped with a warning; the feed is kept")
    func nulBytes() throws {
        let feed = try parseFixture("rss/nul-bytes.xml")
        #expect(feed.title == "Stray NUL")
        #expect(feed.items.count == 41)
        #expect(feed.items.last?.title == "After & the NUL")
        #expect(feed.items.last?.contentHTML == "Tom & Jerry")
        #expect(feed.warnings.contains { $0.contains("NUL") })
    }

    @Test("a JSON Feed with a stray NUL is kept, the NUL dropped, with a warning")
    func nulInJSONFeed() throws {
        let feed = try parseFixture("jsonfeed/nul-byte.json")
        #expect(feed.title == "Stray NUL")
        #expect(feed.items.map(\.title) == ["Tom & Jerry"])
        #expect(feed.warnings.contains { $0.contains("NUL") })
    }

    @Test("binary data is still refused")
    func binary() {
        #expect(throws: FeedParseError.notAFeed("binary data")) { try parseFixture("other/binary.bin") }
        let wide = Data((0..<64).flatMap { _ in [UInt8(ascii: "<"), 0, 0, 0, 0, 0] })
        #expect(throws: FeedParseError.notAFeed("binary data")) { try FeedDocumentParser.parse(data: wide, url: nil) }
    }

    @Test("a document in Windows-1252 throughout is re-read as such, even with one pair that looks like UTF-8")
    func evidentlyWindows1252() throws {
        let feed = try parseFixture("rss/encoding-windows-1252-with-valid-utf8-pair.xml")
        #expect(feed.title == "Café “CAFÉ” naïve")
        #expect(feed.items.map(\.title) == ["Résumé – déjà vu"])
        #expect(feed.warnings == ["the document is not the UTF-8 it claims; read it as Windows-1252"])
    }

    @Test("UTF-8 with a few stray bytes keeps its UTF-8, the bytes become U+FFFD, and a warning says so")
    func strayBytesWarned() throws {
        let feed = try parseFixture("rss/encoding-utf8-with-stray-bytes.xml")
        #expect(feed.title == "Grüße aus Köln, déjà vu")
        #expect(feed.items.map(\.title) == ["Bad \u{FFFD}quote\u{FFFD} bytes"])
        #expect(feed.warnings.count == 1)
        #expect(feed.warnings.first?.contains("U+FFFD") == true)
    }

    @Test("a UTF-8 byte-order mark wins over encoding=\"ISO-8859-1\", with a warning")
    func utf8BOMWins() throws {
        let feed = try parseFixture("rss/encoding-utf8-bom-declares-latin1.xml")
        #expect(feed.title == "Café")
        #expect(feed.items.map(\.title) == ["Grüße ✓"])
        #expect(feed.warnings.contains { $0.contains("byte-order mark") })
    }

    @Test(
        "a UTF-16 byte-order mark wins over the declaration, with a warning",
        arguments: [
            "rss/encoding-utf16le-bom-declares-latin1.xml", "rss/encoding-utf16be-bom-declares-utf8.xml",
        ])
    func utf16BOMWins(path: String) throws {
        let feed = try parseFixture(path)
        #expect(feed.title == "Café")
        #expect(feed.items.map(\.title) == ["Grüße ✓"])
        #expect(feed.warnings.contains { $0.contains("byte-order mark") })
    }

    @Test("a BOM that agrees with the declaration is no problem")
    func agreeingBOM() throws {
        #expect(try parseFixture("rss/encoding-utf8-bom.xml").warnings.isEmpty)
        #expect(try parseFixture("rss/encoding-utf16-bom.xml").warnings.isEmpty)
    }
}
