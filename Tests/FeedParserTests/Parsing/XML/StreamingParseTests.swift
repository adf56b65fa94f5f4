import Foundation
import Testing

@testable import FeedParser

/// `FeedDocumentParser.parse(data:url:charset:each:)` hands items over as they are read; what it hands
/// over, once restarts are applied, must be what the whole parse returns.
@Suite("Streaming parse")
struct StreamingParseTests {
    /// The items a streaming parse handed over, restarts applied, and how many restarts.
    struct Streamed {
        var feed: ParsedFeed
        var items: [ParsedItem] = []
        var restarts = 0
        var handedOver = 0
    }

    static func stream(_ data: Data, url: URL? = nil, charset: String? = nil) throws(FeedParseError) -> Streamed {
        var items: [ParsedItem] = []
        var restarts = 0
        var handedOver = 0
        let feed = try FeedDocumentParser.parse(data: data, url: url, charset: charset) { event in
            switch event {
            case .item(let item):
                items.append(item)
                handedOver += 1
            case .restart:
                items.removeAll()
                restarts += 1
            }
        }
        return Streamed(feed: feed, items: items, restarts: restarts, handedOver: handedOver)
    }

    /// Every fixture document: the same items, feed fields, warnings and errors both ways.
    @Test("every fixture streams to what the whole parse returns")
    func everyFixture() throws {
        let root = try #require(Bundle.module.url(forResource: "Resources", withExtension: nil))
        let files = try FileManager.default.subpathsOfDirectory(atPath: root.path).sorted()
            .map { root.appendingPathComponent($0) }.filter { !$0.hasDirectoryPath && !$0.path.hasSuffix("/") }
            .filter { (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == false }
        #expect(files.count > 70)
        var compared = 0
        for file in files {
            let data = try Data(contentsOf: file)
            let url = URL(string: "http://example.org/feeds/feed.xml")
            let whole: Result<ParsedFeed, FeedParseError> = Result { () throws(FeedParseError) in
                try FeedDocumentParser.parse(data: data, url: url, charset: nil)
            }
            let streamed: Result<Streamed, FeedParseError> = Result { () throws(FeedParseError) in
                try Self.stream(data, url: url)
            }
            switch (whole, streamed) {
            case (.success(let whole), .success(let streamed)):
                #expect(streamed.feed.items.isEmpty, "\(file.lastPathComponent)")
                #expect(streamed.items == whole.items, "\(file.lastPathComponent)")
                var rest = whole
                rest.items = []
                #expect(streamed.feed == rest, "\(file.lastPathComponent)")
                compared += 1
            case (.failure(let whole), .failure(let streamed)):
                #expect(streamed.localizedDescription == whole.localizedDescription, "\(file.lastPathComponent)")
            default:
                Issue.record("\(file.lastPathComponent): whole \(whole), streamed \(streamed)")
            }
        }
        #expect(compared > 60)
    }

    @Test("a well-formed feed is read once: each item handed over as it closes, none kept")
    func wellFormedOnce() throws {
        let data = BoundedMemoryTests.largeFeed(megabytes: 2)
        var count = 0
        let feed = try FeedDocumentParser.parse(data: data, url: nil) { event in
            guard case .item(let item) = event else {
                Issue.record("a restart for a well-formed feed")
                return
            }
            count += 1
            #expect(item.uniqueID == "g\(count - 1)")
        }
        #expect(count == 2_000)
        #expect(feed.items.isEmpty)
        #expect(feed.title == "Large")
    }

    @Test("an Atom feed whose author follows its entries: read again whole, the entries get the author")
    func atomAuthorAfterEntries() throws {
        let data = Data(
            """
            <?xml version="1.0" encoding="utf-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom"><title>Late</title><id>urn:f</id>
            <entry><id>urn:1</id><title>One</title></entry>
            <entry><id>urn:2</id><title>Two</title><author><name>Own</name></author></entry>
            <author><name>Feed Author</name></author>
            </feed>
            """.utf8)
        let whole = try FeedDocumentParser.parse(data: data, url: nil)
        #expect(whole.items.map { $0.authors.map(\.name) } == [["Feed Author"], ["Own"]])
        let streamed = try Self.stream(data)
        #expect(streamed.restarts == 1)
        #expect(streamed.items == whole.items)
        #expect(streamed.handedOver == 4)
    }

    @Test("an Atom feed whose author comes first streams once, the author given to each entry without one")
    func atomAuthorFirst() throws {
        let data = Data(
            """
            <feed xmlns="http://www.w3.org/2005/Atom"><title>Early</title><author><name>Feed Author</name></author>
            <entry><id>urn:1</id><title>One</title></entry>
            <entry><id>urn:2</id><title>Two</title><author><name>Own</name></author></entry>
            </feed>
            """.utf8)
        let streamed = try Self.stream(data)
        #expect(streamed.restarts == 0)
        #expect(streamed.items.map { $0.authors.map(\.name) } == [["Feed Author"], ["Own"]])
        #expect(streamed.items == (try FeedDocumentParser.parse(data: data, url: nil)).items)
    }

    @Test("a damaged document is read again: a restart, then the repaired reading's items")
    func damagedDocument() throws {
        // A stray control byte breaks well-formedness; the `&amp;` after it needs the second reading.
        let data = Data(
            "<rss version=\"2.0\"><channel><title>T</title><item><title>A \u{1}</title><guid>a</guid></item><item><title>B &amp; C</title><guid>b</guid></item></channel></rss>"
                .utf8)
        let whole = try FeedDocumentParser.parse(data: data, url: nil)
        let streamed = try Self.stream(data)
        #expect(streamed.restarts == 1)
        #expect(streamed.items == whole.items)
        #expect(streamed.items.map(\.title) == whole.items.map(\.title))
        #expect(whole.items.last?.title == "B & C")
        #expect(streamed.feed.warnings == whole.warnings)
    }

    @Test("a cut-off document: the items before the cut, with the warning that counts them")
    func cutOff() throws {
        let data = Data(
            "<rss version=\"2.0\"><channel><title>T</title><item><guid>a</guid><title>A</title></item><item><guid>b</guid><title>B</title></item><item><guid>c</guid><ti"
                .utf8)
        let whole = try FeedDocumentParser.parse(data: data, url: nil)
        let streamed = try Self.stream(data)
        #expect(streamed.items == whole.items)
        #expect(streamed.feed.warnings == whole.warnings)
        #expect(whole.warnings.contains { $0.contains("kept the 2 items") })
    }
}
