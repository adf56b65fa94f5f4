import Foundation
import Markup
import Models

/// Reads RSS 0.9x/1.0/2.0 and Atom 0.3/1.0 in one streaming pass over libxml2's SAX2 events
/// (`SAXFeedReader`), building the feed as elements close (`XMLFeedBuilder`); no tree.
///
/// A document that lies about its encoding is made UTF-8 (`EncodingRepair`) and read again;
/// HTML named entities are rewritten as numeric references (`HTMLEntityPreprocessor`). libxml2
/// runs in recovery mode: a well-formedness error inside an item costs at most that item's
/// damaged fields, and is reported as a warning. A document cut off before its root element
/// closes keeps the items read before the cut, with a warning. A document whose entities
/// expand past the budget is refused. External entities are never loaded.
///
/// After its first well-formedness error libxml2 2.9 drops every later entity reference, the
/// predefined `&amp;` and `&lt;` included, so a document that is not well-formed and uses them
/// is read a second time with them written as character references, which libxml2 always
/// delivers, and references to the document's own internal entities written as their values
/// (`InternalEntities`, within the same budget): its text reads as it would have without the error. Well-formed documents are
/// read once, uncopied.
///
/// Given `each`, items are streamed to it as their elements close and the feed comes back
/// without them, so memory does not grow with the document's items. A reading that is
/// replaced by another (the second reading above, or a feed whose `<author>` follows entries
/// that needed it) first sends `.restart`.
enum XMLFeedParser {
    ///
    /// A document is first read as it is, HTML5's named references answered by libxml2's own
    /// entity lookup (`SAXFeedReader`'s `readsHTMLEntities`), and a UTF-8 one's runs of escaped
    /// text and CDATA sections read without libxml2 (`EscapedText`): a well-formed one is so
    /// read once, without the rewriting's pass over it. That reading
    /// stops at the first error, at an entity reference that is neither XML's nor HTML5's, or at
    /// a reference to a C1 control, and the document is read as described above instead.
    /// `readingAsItIsFirst` is for tests, which compare the two readings.
    static func parse(
        _ data: Data, url: URL?, charset: String? = nil, each: ((ParsedItemEvent) -> Void)? = nil,
        readingAsItIsFirst: Bool = true
    ) throws(FeedParseError) -> ParsedFeed {
        let onItem = each.map { each in { (item: ParsedItem) in each(.item(item)) } }
        // What the reading in `outcome` read, to read it again whole.
        var read = (data: data, rewritingPredefined: false)
        /// A reading that replaces the one streamed so far.
        func reread(_ data: Data, rewritingPredefined: Bool) throws(FeedParseError) -> SAXFeedReader.Outcome {
            each?(.restart)
            read = (data, rewritingPredefined)
            guard
                let outcome = prepared(data, rewritingPredefined: rewritingPredefined, url: url, onItem: onItem).outcome
            else { throw .malformed(XMLLibrary.startFailure) }
            return outcome
        }
        // Documents are read as they claim to be first; only when libxml2 meets bytes that are
        // not the UTF-8 they claim is the document repaired (EncodingRepair) and read again,
        // so valid documents are never scanned twice.
        let claimsUTF8 = EncodingRepair.declaresUTF8OrNothing(data)
        let converted = claimsUTF8 ? EncodingRepair.fromHTTPCharset(data, httpCharset: charset) : nil
        let input = converted ?? data
        read = (input, false)
        let first =
            (readingAsItIsFirst ? asItIs(input, url: url, isUTF8: claimsUTF8, each: each) : nil)
            ?? prepared(input, rewritingPredefined: false, url: url, onItem: onItem)
        guard var outcome = first.outcome else {
            throw .malformed(XMLLibrary.startFailure)
        }
        if let exceeded = outcome.diagnostics.limitExceeded { throw Self.refusal(exceeded) }
        var repairs: [String] = []
        if !outcome.diagnostics.wellFormed {
            // A document that is not well-formed: its bytes repaired (stray NULs dropped, bytes
            // that are not the UTF-8 they claim re-read), its predefined entities rewritten.
            var repaired = input
            var warnings: [String] = []
            if let (cleaned, warning) = EncodingRepair.droppingNULs(repaired) {
                repaired = cleaned
                warnings.append(warning)
            }
            if claimsUTF8, converted == nil, outcome.diagnostics.sawInvalidCharacter {
                let (reencoded, warning) = EncodingRepair.repair(repaired)
                repaired = reencoded
                if let warning { warnings.append(warning) }
            }
            if repaired != input || first.hasPredefinedReferences {
                outcome = try reread(repaired, rewritingPredefined: true)
                repairs = warnings
            }
        }
        var encodingWarning: String?
        if outcome.builder.format == nil, outcome.diagnostics.firstError?.code == Self.unsupportedEncoding {
            // An encoding libxml2 does not know (`encoding="bogus"`): read the bytes as UTF-8,
            // repaired like any document that is not the UTF-8 it claims.
            let (repaired, _) = EncodingRepair.repair(
                EncodingRepair.replacingDeclaredEncoding(in: input, with: "utf-8"))
            outcome = try reread(repaired, rewritingPredefined: true)
            encodingWarning = "the document declares an encoding this reader does not know; read it as UTF-8"
        }
        if let each, outcome.builder.streamedFeedAuthorsChanged {
            // Entries streamed before the feed's authors were read: read the document whole.
            each(.restart)
            guard let whole = prepared(read.data, rewritingPredefined: read.rewritingPredefined, url: url).outcome
            else {
                throw .malformed(XMLLibrary.startFailure)
            }
            outcome = whole
            for item in whole.builder.feed(format: whole.builder.format ?? .rss20).items { each(.item(item)) }
        }
        let builder = outcome.builder
        let diagnostics = outcome.diagnostics
        if let exceeded = diagnostics.limitExceeded { throw Self.refusal(exceeded) }
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
        if each != nil { feed.items = [] }  // a whole reading's, already sent
        feed.warnings += repairs
        if let encodingWarning { feed.warnings.append(encodingWarning) }
        guard let error = diagnostics.firstError else { return feed }
        if builder.rootClosed {
            feed.warnings.append(
                "the document is not well-formed XML (line \(error.line): \(error.message)); read it in recovery mode")
        } else {
            guard builder.itemCount > 0 || feed.title != nil else {
                throw .malformed("the XML is not well formed (line \(error.line): \(error.message))")
            }
            feed.warnings.append(
                "the document is damaged or cut off at line \(error.line) (\(error.message)); kept the \(builder.itemCount) items read before it"
            )
        }
        return feed
    }

    /// Reads `data` as rewritten by `HTMLEntityPreprocessor`, streamed from the rewriting into
    /// the parser: the rewritten document is never held whole (a 200 MB feed full of `&nbsp;`
    /// needs no second 200 MB).
    private static func prepared(
        _ data: Data, rewritingPredefined: Bool, url: URL?, onItem: ((ParsedItem) -> Void)? = nil
    ) -> (outcome: SAXFeedReader.Outcome?, hasPredefinedReferences: Bool) {
        var scan = HTMLEntityPreprocessor.ScanResult()
        var outcome = SAXFeedReader.read(documentURL: url, onItem: onItem) { push in
            data.withUnsafeBytes { raw in
                scan = HTMLEntityPreprocessor.scan(raw, rewritingPredefined: rewritingPredefined, into: push)
            }
        }
        // The document's own entities, written in, went over the budget libxml2's expansion has.
        if scan.entityBudgetExceeded { outcome?.diagnostics.entityBudgetExceeded = true }
        return (outcome, scan.hasPredefinedReferences)
    }

    /// `data` read as it is (see `parse`), or `nil` when that reading was abandoned; items it
    /// streamed before then are taken back with `.restart`.
    private static func asItIs(
        _ data: Data, url: URL?, isUTF8: Bool, each: ((ParsedItemEvent) -> Void)?
    ) -> (outcome: SAXFeedReader.Outcome?, hasPredefinedReferences: Bool)? {
        var streamed = false
        let onItem = each.map { each in
            { (item: ParsedItem) in
                streamed = true
                each(.item(item))
            }
        }
        // UTF-8 (not UTF-16 or UTF-32 without a byte order mark): escaped text read here.
        let queue = isUTF8 && !data.prefix(4).contains(0) ? EscapedText.Queue() : nil
        // The runs queued lie in the document: the whole reading, to its end, runs while it is there.
        let read = data.withUnsafeBytes { raw in
            SAXFeedReader.read(documentURL: url, onItem: onItem, readsHTMLEntities: true, escapedText: queue) { push in
                if let queue {
                    EscapedText.write(raw, queue: queue, into: push)
                } else {
                    push(raw)
                }
            }
        }
        guard let outcome = read,
            outcome.diagnostics.limitExceeded != nil
                || (!outcome.diagnostics.abandoned && outcome.diagnostics.wellFormed
                    && outcome.diagnostics.firstError == nil)
        else {
            if streamed { each?(.restart) }
            return nil
        }
        // Well-formed: `hasPredefinedReferences` is asked only of a document that is not.
        return (outcome, false)
    }

    /// A document past one of `SAXFeedReader.limits`.
    private static func refusal(_ exceeded: XMLLimitExceeded) -> FeedParseError {
        .malformed("\(exceeded); refused")
    }

    /// libxml2's code for an encoding it cannot convert from (`XML_ERR_UNSUPPORTED_ENCODING`).
    private static let unsupportedEncoding: Int32 = 32

    /// libxml2's codes for runaway entity expansion.
    private static func isEntityLoop(_ code: Int32) -> Bool { code == 89 || code == 104 || code == 110 }
}
