@testable import FeedParser
import Foundation

/// libFuzzer entry point for the RSS/Atom reader: `FeedDocumentParser.parse(data:url:charset:)` on any
/// bytes (a document starting with `{` goes to the JSON Feed reader, as in the app).
///
/// The HTTP charset is chosen from the input's length, so every seed is read as it is and some
/// also through the `Content-Type` charset path. Invariants: the parse never crashes, reading
/// the same bytes twice gives the same feed, reading a document as it is first gives what the
/// reading through the entity rewriting alone gives, and every item has a non-empty unique id.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzXML(_ start: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let data = Data(bytes: start, count: count)
    let charsets: [String?] = [nil, nil, nil, nil, "iso-8859-1", "windows-1252", "utf-16", "latin2"]
    let charset = charsets[count % charsets.count]
    let url = URL(string: "https://example.com/blog/feed.xml")
    let first = Result { () throws(FeedParseError) in try FeedDocumentParser.parse(data: data, url: url, charset: charset) }
    let second = Result { () throws(FeedParseError) in try FeedDocumentParser.parse(data: data, url: url, charset: charset) }
    guard first == second else { fatalError("two reads of the same bytes differ:\n\(first)\n\(second)") }
    // The reading as it is first (`XMLFeedParser.parse`) agrees with the reading through the
    // entity rewriting alone.
    if count > 0, start.pointee != UInt8(ascii: "{") {
        let asItIs = Result { () throws(FeedParseError) in try XMLFeedParser.parse(data, url: url, charset: charset) }
        let rewritten = Result { () throws(FeedParseError) in
            try XMLFeedParser.parse(data, url: url, charset: charset, readingAsItIsFirst: false)
        }
        guard asItIs == rewritten else {
            fatalError("read as it is and through the rewriting differ:\n\(asItIs)\n\(rewritten)")
        }
    }
    if case .success(let feed) = first, let item = feed.items.first(where: { $0.uniqueID.isEmpty }) {
        fatalError("an item without a unique id: \(item)")
    }
    return 0
}
