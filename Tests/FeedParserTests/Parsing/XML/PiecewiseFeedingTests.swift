import Foundation
import Testing

@testable import FeedParser

/// The entity rewriting hands the document to libxml2 piece by piece (`HTMLEntityPreprocessor
/// .scan` into `SAXFeedReader.read(documentURL:onItem:feed:)`), never whole; how the pieces
/// fall must not change what is read.
@Suite("Piecewise feeding")
struct PiecewiseFeedingTests {
    static func fixtures() throws -> [URL] {
        let root = try #require(Bundle.module.url(forResource: "Resources", withExtension: nil))
        return try FileManager.default.subpathsOfDirectory(atPath: root.path).sorted()
            .map { root.appendingPathComponent($0) }
            .filter { (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == false }
            .filter { ["xml", "rss", "atom", "rdf"].contains($0.pathExtension) }
    }

    /// What a reading produced, comparable.
    struct Reading: Equatable {
        var feed: ParsedFeed?
        var wellFormed: Bool
        var errors: Int
        var firstError: String?

        init(_ outcome: SAXFeedReader.Outcome?) {
            feed = outcome.flatMap { outcome in outcome.builder.format.map { outcome.builder.feed(format: $0) } }
            wellFormed = outcome?.diagnostics.wellFormed ?? false
            errors = outcome?.diagnostics.errorCount ?? -1
            firstError = outcome?.diagnostics.firstError.map { "\($0.code) \($0.line) \($0.message)" }
        }
    }

    /// The document rewritten whole, then parsed from one buffer.
    static func whole(_ data: Data, rewritingPredefined: Bool, chunk: Int) -> Reading {
        let rewritten = HTMLEntityPreprocessor.process(data, rewritingPredefined: rewritingPredefined).data
        return Reading(
            SAXFeedReader.read(rewritten, documentURL: URL(string: "http://example.org/f.xml"), chunkSize: chunk))
    }

    /// The document rewritten piece by piece into the parser, each piece cut again every `cut`
    /// bytes.
    static func piecewise(_ data: Data, rewritingPredefined: Bool, chunk: Int, cut: Int) -> Reading {
        Reading(
            SAXFeedReader.read(documentURL: URL(string: "http://example.org/f.xml"), chunkSize: chunk) { push in
                data.withUnsafeBytes { raw in
                    _ = HTMLEntityPreprocessor.scan(raw, rewritingPredefined: rewritingPredefined) { piece in
                        var offset = 0
                        while offset < piece.count {
                            let end = min(piece.count, offset + cut)
                            push(UnsafeRawBufferPointer(rebasing: piece[offset..<end]))
                            offset = end
                        }
                    }
                }
            })
    }

    @Test(
        "every fixture reads the same fed whole or in pieces of any size, with or without the predefined entities rewritten",
        arguments: [
            (SAXFeedReader.chunkSize, 1), (SAXFeedReader.chunkSize, 5), (SAXFeedReader.chunkSize, 1000),
            (SAXFeedReader.chunkSize, Int.max), (7, 1), (7, 3), (64, 5), (64, 1000), (4096, 1000),
        ])
    func everyFixture(chunk: Int, cut: Int) throws {
        let files = try Self.fixtures()
        #expect(files.count > 50)
        for file in files {
            let data = try Data(contentsOf: file)
            for rewriting in [false, true] {
                let expected = Self.whole(data, rewritingPredefined: rewriting, chunk: chunk)
                let read = Self.piecewise(data, rewritingPredefined: rewriting, chunk: chunk, cut: cut)
                #expect(read == expected, "\(file.lastPathComponent), chunk \(chunk), cut \(cut), \(rewriting)")
            }
        }
    }

    @Test("a document rewritten in many places reaches the parser in pieces no larger than its own stretches")
    func neverWhole() {
        var document = #"<?xml version="1.0"?><rss version="2.0"><channel><title>T</title>"#
        for index in 0..<2_000 { document += "<item><title>a&nbsp;b \(index)</title><guid>\(index)</guid></item>" }
        let data = Data((document + "</channel></rss>").utf8)
        var largest = 0
        var total = 0
        var pieces = 0
        _ = data.withUnsafeBytes { raw in
            HTMLEntityPreprocessor.scan(raw, rewritingPredefined: false) { piece in
                largest = max(largest, piece.count)
                total += piece.count
                pieces += 1
            }
        }
        #expect(pieces > 1)  // rewritten: not the document in one piece
        #expect(largest < 200)
        #expect(total == data.count + 2_000 * ("&#160;".count - "&nbsp;".count))
        let outcome = SAXFeedReader.read(documentURL: nil) { push in
            data.withUnsafeBytes { raw in _ = HTMLEntityPreprocessor.scan(raw, rewritingPredefined: false, into: push) }
        }
        #expect(outcome?.builder.items.count == 2_000)
        #expect(outcome?.builder.items.first?.title == "a\u{A0}b 0")
    }
}
