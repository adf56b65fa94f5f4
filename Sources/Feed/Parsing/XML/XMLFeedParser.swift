import Foundation
import Models

/// Reads RSS 0.9x/1.0/2.0 and Atom 0.3/1.0 in one streaming pass over libxml2's SAX2 events
/// (`SAXFeedReader`), building the feed as elements close (`XMLFeedBuilder`); no tree.
///
/// The document is first made UTF-8 where it lies about its encoding (`EncodingRepair`) and
/// HTML named entities are rewritten as numeric references (`HTMLEntityPreprocessor`). libxml2
/// runs in recovery mode: a well-formedness error inside an item costs at most that item's
/// damaged fields, and is reported as a warning. A document cut off before its root element
/// closes keeps the items read before the cut, with a warning. A document whose entities
/// expand past the budget is refused. External entities are never loaded.
enum XMLFeedParser {
    static func parse(_ data: Data, url: URL?, charset: String? = nil) throws(FeedParseError) -> ParsedFeed {
        let (utf8, encodingWarning) = EncodingRepair.repair(data, httpCharset: charset)
        guard let outcome = SAXFeedReader.read(HTMLEntityPreprocessor.process(utf8), documentURL: url) else {
            throw .malformed("the XML parser could not start (out of memory?)")
        }
        let builder = outcome.builder
        let diagnostics = outcome.diagnostics
        if diagnostics.entityBudgetExceeded || diagnostics.firstError.map({ Self.isEntityLoop($0.code) }) == true {
            throw .malformed("an entity expands without bound (a billion-laughs document?); refused")
        }
        guard let format = builder.format else {
            if builder.rootName?.lowercased() == "html" { throw .notAFeed("an HTML page") }
            if let root = builder.rootName { throw .notAFeed("an XML document whose root is <\(root)>") }
            throw .malformed(
                diagnostics.firstError.map { "the XML is not well formed (\($0.message))" } ?? "no root element")
        }
        var feed = builder.feed(format: format)
        if let encodingWarning { feed.warnings.append(encodingWarning) }
        guard let error = diagnostics.firstError else { return feed }
        if builder.rootClosed {
            feed.warnings.append(
                "the document is not well-formed XML (line \(error.line): \(error.message)); read it in recovery mode")
        } else {
            guard !feed.items.isEmpty || feed.title != nil else {
                throw .malformed("the XML is not well formed (line \(error.line): \(error.message))")
            }
            feed.warnings.append(
                "the document is damaged or cut off at line \(error.line) (\(error.message)); kept the \(feed.items.count) items read before it"
            )
        }
        return feed
    }

    /// libxml2's codes for runaway entity expansion.
    private static func isEntityLoop(_ code: Int32) -> Bool { code == 89 || code == 104 || code == 110 }
}

extension XMLFeedParser {
    /// One line for an `XMLParser` error (libxml2's codes; FoundationXML gives no message on
    /// Linux). OPML import, which still reads with `XMLParser`, reports through it.
    static func describe(_ error: any Error) -> String {
        let code = (error as NSError).code
        switch code {
        case 89, 104, 110: return "an entity expands without bound (a billion-laughs document?); refused"
        case 26, 27: return "the XML uses an undeclared entity"
        default: return "the XML is not well formed (libxml2 error \(code))"
        }
    }
}
