internal import CLibXML2
import Foundation
import Markup
import Models

/// Builds a `ParsedFeed` from the SAX2 events of one RSS or Atom document.
///
/// It keeps a stack of open elements (what each is, where its text starts in the shared text
/// buffer, whether it opened an `xml:base`) and one byte buffer of character data, reused for
/// the whole document: no string is made for an element unless its value is kept. Feed and
/// item fields are taken as elements close. Child elements of a text construct (HTML inside an
/// RSS title or description, Atom XHTML content) are written back into the text as markup.
/// Links are resolved against the nearest `xml:base`, else (inside an item) the feed's link,
/// else the document's URL.
struct XMLFeedBuilder {
    /// The format the root element announced; `nil` when the root is not a feed's.
    private(set) var format: FeedFormat?
    /// The root element's local name.
    private(set) var rootName: String?
    /// Whether the root element has been closed: the document was read to its end.
    private(set) var rootClosed = false
    /// Set when the builder has seen enough (the root is not a feed): the driver stops parsing.
    private(set) var wantsStop = false
    /// The most character data the builder held at once, in bytes.
    private(set) var peakTextBuffer = 0

    var names: InternedNames
    let documentURL: URL?

    private var stack: [Frame] = []
    private var bases: [URL] = []
    private var text: [UInt8] = []

    var channel = FieldSet()
    var item: FieldSet?
    /// The items read so far, each made as its element closes; empty when they are streamed.
    var items: [ParsedItem] = []
    /// Where each item goes as its element closes, when the document is streamed (`nil`: it is
    /// kept in `items`).
    var onItem: ((ParsedItem) -> Void)?
    /// How many items went to `onItem`.
    var deliveredCount = 0
    /// The feed's authors as given to the first Atom entry without its own that was streamed.
    var streamedFeedAuthors: [Author]?
    /// Zone names dates gave that no table knows, read as UTC; each becomes a warning.
    var unknownZones: [String] = []
    /// The channel's `ttl` (minutes), and its `sy:updatePeriod` and `sy:updateFrequency`.
    var ttl: Int?
    var updatePeriod: String?
    var updateFrequency: Int?
    var author: Author?
    var authorOwnerIsItem = false
    var isPermaLinkGUID = true
    /// Depth inside an element whose children are ignored (Atom `source`, RSS `textInput`).
    private var ignoredDepth = 0

    /// libxml2's open elements, innermost last: `true` for one the builder has already closed
    /// (recovering from a mismatched end tag), whose end event is then ignored. The others
    /// match `stack`, in order.
    private var parserStack: [Bool] = []
    /// The end tag libxml2 reported as mismatched, until its end event arrives.
    private var pendingEndTag: [UInt8]?

    /// One open element.
    private struct Frame {
        var local: UnsafePointer<xmlChar>
        var element: FeedElement
        var textStart: Int
        var pushedBase = false
        /// An Atom text construct of type html or xhtml.
        var isMarkup = false
        /// A child of a text construct, written back as markup.
        var isSerialized = false
        /// Inside Atom XHTML: character data is escaped, as it becomes HTML.
        var escapesText = false
        /// An Atom 0.3 text construct in base64 mode.
        var isBase64 = false
        /// A text field whose child elements only add their text to it (`<guid><b>x</b></guid>`
        /// is `x`), or such a child.
        var absorbsChildren = false
        /// A child of such a field: its text stays when it closes.
        var isAbsorbed = false
    }

    init(names: InternedNames, documentURL: URL?) {
        self.names = names
        self.documentURL = documentURL
        text.reserveCapacity(16_384)
        stack.reserveCapacity(16)
        parserStack.reserveCapacity(16)
    }

    /// The base links are resolved against: the nearest `xml:base`, else the feed's link for
    /// an item's links, else the document's URL.
    var base: URL? { bases.last ?? (item != nil ? channel.link ?? documentURL : documentURL) }

    /// The nearest `xml:base`, if any.
    var xmlBase: URL? { bases.last }

    /// The parent of the element being handled.
    var parent: FeedElement? { stack.last?.element }

    // MARK: Events

    mutating func startElement(
        local: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?, namespace: UnsafePointer<xmlChar>?,
        attributes: SAXAttributes
    ) {
        if let top = stack.last, top.isSerialized || (top.element.keepsChildMarkup && ignoredDepth == 0) {
            writeStartTag(local: local, prefix: prefix, attributes: attributes)
            parserStack.append(false)
            stack.append(
                Frame(
                    local: local, element: .other, textStart: text.count, isSerialized: true,
                    escapesText: top.escapesText))
            return
        }
        if let top = stack.last, top.absorbsChildren {
            parserStack.append(false)
            stack.append(
                Frame(
                    local: local, element: .other, textStart: text.count, absorbsChildren: true, isAbsorbed: true))
            return
        }
        var element = names.element(local: local, namespace: namespace)
        if stack.isEmpty {
            let version = attributes.value(names.version)
            if element == .other { element = names.rootElement(local: local, namespace: namespace, version: version) }
            rootName = String(cString: local)
            format = Self.format(root: element, version: version)
            if format == nil { wantsStop = true }
        }
        if stack.isEmpty || element == .channel, channel.xmlLanguage == nil {
            // The root's or the channel's xml:lang: the feed's language when no element gives one.
            channel.xmlLanguage =
                attributes.value(names.lang, namespace: names.xmlNamespace)?.trimmedWhitespace.nonEmpty
        }
        var frame = Frame(local: local, element: element, textStart: text.count)
        frame.absorbsChildren = element.isTextField && !element.keepsChildMarkup
        if let value = attributes.value(names.base, namespace: names.xmlNamespace),
            let url = URL(string: value.trimmedWhitespace, relativeTo: bases.last ?? documentURL)?.absoluteURL
        {
            bases.append(url)
            frame.pushedBase = true
        }
        if ignoredDepth > 0 || element == .atomSource || element == .textInput {
            ignoredDepth += 1
        } else if element != .other {
            if element.isAtomText {
                // Atom 1.0's text, html and xhtml; Atom 0.3's media types, and its mode
                // (xml, escaped or base64).
                let type = attributes.value(names.type)?.trimmedWhitespace.lowercased()
                let mode = attributes.value(names.mode)?.trimmedWhitespace.lowercased()
                let isXHTML = type == "xhtml" || type == "application/xhtml+xml"
                frame.isMarkup = isXHTML || type == "html" || type == "text/html"
                frame.escapesText = isXHTML
                // Base64: Atom 0.3's mode says so (or its media type is binary); in Atom 1.0
                // only `content` with a media type that is neither text nor XML is base64
                // (RFC 4287, 4.1.3.3): a text construct of a type it does not know is text.
                frame.isBase64 =
                    mode == "base64"
                    || ((format == .atom03 || element == .atomContent) && Self.isBinary(type))
            }
            start(element, attributes: attributes)
        }
        parserStack.append(false)
        stack.append(frame)
    }

    mutating func endElement(local: UnsafePointer<xmlChar>) {
        if parserStack.popLast() != true { closeElement() }
        // libxml2 answers `</title>` inside `<title><b>` by closing `b` and leaving `title`
        // open, which would swallow the rest of the item (and the items after it) into the
        // title. The builder closes up to the element the end tag named, and ignores libxml2's
        // late end events for what it closed.
        guard let target = pendingEndTag else { return }
        pendingEndTag = nil
        guard let index = stack.lastIndex(where: { Self.name($0.local, equals: target) }) else { return }
        var count = stack.count - index
        for _ in 0..<count { closeElement() }
        for position in parserStack.indices.reversed() where count > 0 && !parserStack[position] {
            parserStack[position] = true
            count -= 1
        }
    }

    /// Notes the end tag libxml2 reported as mismatched, before it delivers the end event.
    mutating func endTagMismatch(_ name: UnsafePointer<CChar>) {
        var bytes = Array(UnsafeBufferPointer(start: name, count: strlen(name))).map { UInt8(bitPattern: $0) }
        if let colon = bytes.lastIndex(of: UInt8(ascii: ":")) { bytes.removeSubrange(...colon) }
        pendingEndTag = bytes
    }

    private static func name(_ local: UnsafePointer<xmlChar>, equals bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            strlen(UnsafeRawPointer(local).assumingMemoryBound(to: CChar.self)) == buffer.count
                && buffer.baseAddress.map { memcmp(local, $0, buffer.count) == 0 } ?? true
        }
    }

    private mutating func closeElement() {
        guard let frame = stack.popLast() else { return }
        if frame.isSerialized {
            writeEndTag(local: frame.local)
            return
        }
        if frame.isAbsorbed { return }
        if stack.isEmpty { rootClosed = true }
        if ignoredDepth > 0 {
            ignoredDepth -= 1
        } else if frame.element != .other {
            var value = string(from: frame.textStart, unwrappingDiv: frame.escapesText)
            if frame.isBase64 {
                value =
                    Data(base64Encoded: value, options: .ignoreUnknownCharacters).map {
                        String(decoding: $0, as: UTF8.self)
                    } ?? value
            }
            end(frame.element, value: value, isMarkup: frame.isMarkup)
        }
        text.removeSubrange(frame.textStart...)
        if frame.pushedBase { bases.removeLast() }
    }

    @inline(__always)
    mutating func characters(_ bytes: UnsafePointer<xmlChar>, count: Int) {
        guard let top = stack.last, !top.element.isContainer else { return }
        let buffer = UnsafeBufferPointer(start: bytes, count: count)
        if top.escapesText {
            MarkupEscaping.escape(buffer, into: &text)
        } else if count == 1 {
            // A predefined entity (`&lt;` in escaped HTML): one byte, appended as one.
            text.append(bytes.pointee)
        } else {
            text.append(contentsOf: buffer)
        }
        if text.count > peakTextBuffer { peakTextBuffer = text.count }
    }

    /// A run of escaped text or a CDATA section's content that `EscapedText` took from libxml2,
    /// as its characters would have come.
    mutating func escapedText(_ run: (text: UnsafeBufferPointer<UInt8>, verbatim: Bool)) {
        guard let top = stack.last, !top.element.isContainer else { return }
        if top.escapesText {
            var decoded: [UInt8] = []
            EscapedText.decode(run, into: &decoded)
            decoded.withUnsafeBufferPointer { MarkupEscaping.escape($0, into: &text) }
        } else {
            EscapedText.decode(run, into: &text)
        }
        if text.count > peakTextBuffer { peakTextBuffer = text.count }
    }

    // MARK: Text

    /// The text collected since `start`, trimmed; XHTML content without its wrapping `<div>`.
    private func string(from start: Int, unwrappingDiv: Bool) -> String {
        var lower = start
        var upper = text.count
        while lower < upper, Self.isSpace(text[lower]) { lower += 1 }
        while upper > lower, Self.isSpace(text[upper - 1]) { upper -= 1 }
        let value = text.withUnsafeBufferPointer { String(decoding: $0[lower..<upper], as: UTF8.self) }
        return unwrappingDiv ? Self.unwrapDiv(value) : value
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D }

    /// XHTML content as HTML: the markup inside the wrapping `<div>` the spec requires.
    static func unwrapDiv(_ html: String) -> String {
        guard html.hasPrefix("<div"), html.hasSuffix("</div>"), let open = html.firstIndex(of: ">") else { return html }
        return String(html[html.index(after: open)..<html.index(html.endIndex, offsetBy: -6)]).trimmedWhitespace
    }

    private mutating func writeStartTag(
        local: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?, attributes: SAXAttributes
    ) {
        text.append(UInt8(ascii: "<"))
        append(cString: local)
        attributes.visit { prefix, name, value in
            text.append(UInt8(ascii: " "))
            if let prefix {
                append(cString: prefix)
                text.append(UInt8(ascii: ":"))
            }
            append(cString: name)
            text.append(contentsOf: [UInt8(ascii: "="), UInt8(ascii: "\"")])
            value.withUnsafeBufferPointer { MarkupEscaping.escape($0, into: &text) }
            text.append(UInt8(ascii: "\""))
        }
        text.append(UInt8(ascii: ">"))
    }

    private mutating func writeEndTag(local: UnsafePointer<xmlChar>) {
        guard !MarkupEscaping.isVoidElement(local) else { return }
        text.append(contentsOf: [UInt8(ascii: "<"), UInt8(ascii: "/")])
        append(cString: local)
        text.append(UInt8(ascii: ">"))
    }

    private mutating func append(cString: UnsafePointer<xmlChar>) {
        var pointer = cString
        while pointer.pointee != 0 {
            text.append(pointer.pointee)
            pointer += 1
        }
    }

    /// Whether a `type` is a media type that is neither text nor XML: Atom 1.0 content of
    /// such a type, and any Atom 0.3 text construct, is base64 (RFC 4287, 4.1.3.3).
    private static func isBinary(_ type: String?) -> Bool {
        guard let type, type.contains("/") else { return false }
        return !type.hasPrefix("text/") && !type.hasSuffix("+xml") && !type.hasSuffix("/xml")
    }

    /// Whether the element being handled is a direct child of an item or of the feed, not of
    /// an extension element inside one (an `<image><title>` in an Atom entry).
    var isFieldOfParent: Bool {
        switch parent {
        case .entry, .item, .feed, .feed03, .channel: true
        default: false
        }
    }

    /// The format a root element announces.
    private static func format(root: FeedElement, version: String?) -> FeedFormat? {
        switch root {
        case .rss: (version ?? "2.0").hasPrefix("0.9") ? .rss09x : .rss20
        case .rdf: .rss10
        case .feed: .atom10
        case .feed03: .atom03
        default: nil
        }
    }
}
