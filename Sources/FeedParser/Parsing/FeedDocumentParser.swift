public import Foundation

/// The one entry point for reading a feed: detects the format from the content (never the
/// file name) and hands the document to the RSS/Atom or the JSON Feed reader.
public enum FeedDocumentParser {
    /// Parses a feed document.
    ///
    /// - Parameters:
    ///   - data: the document as fetched.
    ///   - url: where it came from, to resolve relative links.
    ///   - charset: the `charset` of the response's `Content-Type`, used when the document
    ///     states no encoding of its own (BOM or XML declaration).
    /// - Throws: `FeedParseError.notAFeed` for an empty file, binary data, an HTML page or
    ///   other XML/JSON; `.malformed` when nothing can be recovered. A recoverable problem
    ///   still returns the feed, with a warning.
    public static func parse(data: Data, url: URL?, charset: String? = nil) throws(FeedParseError) -> ParsedFeed {
        // UTF-16 and UTF-32 documents are read as the UTF-8 they convert to; a byte-order mark
        // wins over the declaration.
        let (data, warning) = EncodingRepair.honouringByteOrderMark(data)
        var feed = try parseText(data, url: url, charset: charset)
        if let warning { feed.warnings.insert(warning, at: 0) }
        return feed
    }

    /// Parses a feed document, handing each item to `each` as it is read instead of keeping
    /// it: the feed returned has no items, and memory does not grow with them. A `.restart`
    /// means the items sent so far are to be forgotten: the document is read again (a damaged
    /// one, repaired; or an Atom feed whose `<author>` comes after entries that take it), and
    /// all its items follow. RSS and Atom are streamed; a JSON Feed is read whole first.
    ///
    /// The items, warnings and errors are those of `parse(data:url:charset:)`.
    public static func parse(
        data: Data, url: URL?, charset: String? = nil, each: (ParsedItemEvent) -> Void
    ) throws(FeedParseError) -> ParsedFeed {
        let (data, warning) = EncodingRepair.honouringByteOrderMark(data)
        var feed = try withoutActuallyEscaping(each) { each throws(FeedParseError) in
            try parseText(data, url: url, charset: charset, each: each)
        }
        if let warning { feed.warnings.insert(warning, at: 0) }
        return feed
    }

    /// Refuses what the start of a document shows is no feed (empty, binary, an HTML page,
    /// neither XML nor JSON), as `parse` would, without parsing the rest.
    public static func checkKind(of data: Data) throws(FeedParseError) {
        let (data, _) = EncodingRepair.honouringByteOrderMark(data.prefix(4096))
        var head = data.prefix(1024)
        if try hasStrayNULs(head) { head = head.filter { $0 != 0 } }
        _ = try kind(head)
    }

    private enum Kind { case json, xml }

    /// The first byte that is not white space or a UTF-8 byte-order mark.
    private static func firstByte(_ head: Data) throws(FeedParseError) -> UInt8 {
        guard let first = head.drop(while: { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }).first else {
            throw .notAFeed("the document is empty")
        }
        return first
    }

    /// Whether the document's first kilobyte holds NULs a text document may lose (a few, in a
    /// document that starts as XML or JSON); refused as binary data when it holds others.
    private static func hasStrayNULs(_ head: Data) throws(FeedParseError) -> Bool {
        let first = try firstByte(head)
        let startsWithUTF16BOM = head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0xFE, 0xFF])
        guard head.contains(0), !startsWithUTF16BOM else { return false }
        let nuls = head.count(where: { $0 == 0 })
        guard first == UInt8(ascii: "<") || first == UInt8(ascii: "{"), nuls * 4 < head.count else {
            throw .notAFeed("binary data")
        }
        return true
    }

    /// What the first kilobyte says the document is: JSON, or XML that is not an HTML page.
    private static func kind(_ head: Data) throws(FeedParseError) -> Kind {
        switch try firstByte(head) {
        case UInt8(ascii: "{"):
            return .json
        case UInt8(ascii: "<"), 0xFF, 0xFE:
            let lowered = head.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
            let feedMarkers = ["<rss", "<feed", "<rdf:rdf", "<rdf "]
            let feedAt = feedMarkers.compactMap { position(of: $0, in: lowered) }.min()
            // An `<html>` root before any feed element is a web page; an HTML doctype only when
            // no feed element follows it (feeds written by XHTML templates carry one).
            let htmlAt = position(of: "<html", in: lowered)
            let isPage =
                htmlAt.map { html in feedAt.map { html < $0 } ?? true }
                ?? (position(of: "<!doctype html", in: lowered) != nil && feedAt == nil)
            if isPage { throw .notAFeed("an HTML page") }
            return .xml
        default:
            throw .notAFeed("the document is neither XML nor JSON")
        }
    }

    private static func parseText(
        _ data: Data, url: URL?, charset: String?, each: ((ParsedItemEvent) -> Void)? = nil
    ) throws(FeedParseError) -> ParsedFeed {
        var data = data
        var nulWarning: String?
        if try hasStrayNULs(data.prefix(1024)) {
            // A few stray NULs in a text document are dropped (with a warning).
            guard let (cleaned, warning) = EncodingRepair.droppingNULs(data) else { throw .notAFeed("binary data") }
            (data, nulWarning) = (cleaned, warning)
        }
        var feed: ParsedFeed
        switch try kind(data.prefix(1024)) {
        case .json:
            feed = try parseJSON(data, url: url)
            if let each {
                for item in feed.items { each(.item(item)) }
                feed.items = []
            }
        case .xml:
            feed = try XMLFeedParser.parse(data, url: url, charset: charset, each: each)
        }
        if let nulWarning { feed.warnings.insert(nulWarning, at: 0) }
        return feed
    }

    /// A JSON Feed; one that fails to parse for a stray NUL past the first kilobyte is read
    /// again without it.
    private static func parseJSON(_ data: Data, url: URL?) throws(FeedParseError) -> ParsedFeed {
        do {
            return try JSONFeedParser.parse(data, url: url)
        } catch {
            guard case .malformed = error, let (cleaned, warning) = EncodingRepair.droppingNULs(data) else {
                throw error
            }
            var feed = try JSONFeedParser.parse(cleaned, url: url)
            feed.warnings.insert(warning, at: 0)
            return feed
        }
    }

    /// Where `marker` (ASCII) first occurs in `bytes`.
    private static func position(of marker: String, in bytes: [UInt8]) -> Int? {
        let pattern = Array(marker.utf8)
        guard let first = pattern.first, bytes.count >= pattern.count else { return nil }
        for index in 0...(bytes.count - pattern.count) where bytes[index] == first {
            if bytes[index..<(index + pattern.count)].elementsEqual(pattern) { return index }
        }
        return nil
    }
}
