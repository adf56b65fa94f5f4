import Foundation
import Models

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Reads RSS 0.9x/1.0/2.0 and Atom 0.3/1.0 with `XMLParser`, one pass, no document tree.
///
/// The delegate keeps a stack of open elements and the text of the innermost one; feed and
/// item builders take the values they know as elements close. Links are resolved against the
/// nearest `xml:base`, else the feed's link, else the document's URL. `parse()` returning true
/// is not trusted on its own: `parserError` is checked too, since a truncated document can
/// report success. External entities are never loaded.
enum XMLFeedParser {
    static func parse(_ data: Data, url: URL?, charset: String? = nil) throws(FeedParseError) -> ParsedFeed {
        let (utf8, encodingWarning) = EncodingRepair.repair(data, httpCharset: charset)
        let parser = XMLParser(data: HTMLEntityPreprocessor.process(utf8))
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = false
        parser.shouldResolveExternalEntities = false
        let delegate = XMLFeedDelegate(documentURL: url)
        parser.delegate = delegate
        let succeeded = parser.parse()
        let error = parser.parserError
        guard let format = delegate.format else {
            if delegate.rootName?.lowercased() == "html" { throw .notAFeed("an HTML page") }
            if let root = delegate.rootName { throw .notAFeed("an XML document whose root is <\(root)>") }
            throw .malformed(
                error.map { "the XML is not well formed (\($0.localizedDescription))" } ?? "no root element")
        }
        var feed = delegate.feed(format: format)
        if let encodingWarning { feed.warnings.append(encodingWarning) }
        // FoundationXML on Linux can report an internal error after the root element of a large,
        // well-formed document has closed; once the root is closed, nothing was lost.
        if (!succeeded || error != nil) && !delegate.rootClosed {
            guard !feed.items.isEmpty || feed.title != nil else {
                throw .malformed(error.map(Self.describe) ?? "the XML is not well formed")
            }
            let line = parser.lineNumber
            let reason =
                error.map { (($0 as NSError).userInfo[NSLocalizedDescriptionKey] as? String) ?? "\($0)" }
                ?? "parsing stopped"
            feed.warnings.append(
                "the document is damaged or cut off at line \(line) (\(reason)); kept the \(feed.items.count) items read before it"
            )
        }
        return feed
    }
}

extension XMLFeedParser {
    /// One line for an XML error (libxml2's codes; FoundationXML gives no message on Linux).
    static func describe(_ error: any Error) -> String {
        let code = (error as NSError).code
        switch code {
        case 89, 104, 110: return "an entity expands without bound (a billion-laughs document?); refused"
        case 26, 27: return "the XML uses an undeclared entity"
        default: return "the XML is not well formed (libxml2 error \(code))"
        }
    }
}
