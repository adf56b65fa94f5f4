internal import CLibXML2
import Foundation
import Markup

/// Streams a document through libxml2's SAX2 push parser into an `XMLFeedBuilder`.
///
/// The document is pushed in chunks, so libxml2 holds a window of it, never a tree. The parser
/// is `XMLPushParser`, recovering (a malformed item does not end the parse), within `limits`:
/// entities are the five predefined ones and the document's own internal ones, within
/// `entityBudget` bytes of expansion; external entities are never resolved.
enum SAXFeedReader {
    /// What one parse produced.
    struct Outcome {
        var builder: XMLFeedBuilder
        var diagnostics: Diagnostics
    }

    /// The errors libxml2 reported.
    struct Diagnostics {
        /// The first error: libxml2's code, its message and the line.
        var firstError: (code: Int32, message: String, line: Int32)?
        var errorCount = 0
        /// Entity expansion went over its budget (a billion-laughs or quadratic-blowup document).
        var entityBudgetExceeded = false
        /// Bytes of entity replacement text handed out so far.
        var entityBytes = 0
        /// The document went past one of `limits` other than the entity budget; reading stopped.
        var limitExceeded: XMLLimitExceeded?
        /// The most of the document libxml2 held in its input buffer at once.
        var peakInputWindow = 0
        /// libxml2 met bytes that are not UTF-8 (or a character XML does not allow).
        var sawInvalidCharacter = false
        /// libxml2 still held the document well-formed at the end. Once it does not, libxml2
        /// 2.9 drops every later entity reference, `&amp;` and `&lt;` included (character
        /// references are still delivered); see `XMLFeedParser`.
        var wellFormed = true
        /// Read as it is (`readsHTMLEntities`), the document met what only `HTMLEntityPreprocessor`
        /// reads right: an error, an entity that is neither XML's nor HTML5's, or a reference
        /// to a C1 control (`&#150;`, which HTML reads as Windows-1252). Reading stopped there.
        var abandoned = false
    }

    /// Bytes of entity replacement text a document may expand to, in total.
    static let entityBudget = 1 << 20
    /// What a feed may be: 1 GiB, 256 elements deep (libxml2's own depth limit without
    /// `XML_PARSE_HUGE`), 50 million elements, `entityBudget` bytes of entity expansion.
    static let limits = XMLLimits(
        maximumBytes: 1 << 30, maximumDepth: 256, maximumElements: 50_000_000, entityBudget: entityBudget)
    /// How much of the document libxml2 is given at a time.
    static let chunkSize = 256 * 1024

    /// Parses `data` (UTF-8, or announcing its own encoding) into a builder; `nil` if libxml2
    /// could not even start (out of memory).
    ///
    /// With `readsHTMLEntities`, the document is read as it is, HTML5's named references
    /// answered by the parser itself, and reading stops at anything the entity rewriting would
    /// have changed or an error (`Diagnostics.abandoned`): a well-formed document is so read
    /// once, without the rewriting's pass over it.
    static func read(
        _ data: Data, documentURL: URL?, onItem: ((ParsedItem) -> Void)? = nil, chunkSize: Int = chunkSize,
        readsHTMLEntities: Bool = false
    ) -> Outcome? {
        read(documentURL: documentURL, onItem: onItem, chunkSize: chunkSize, readsHTMLEntities: readsHTMLEntities) {
            push in data.withUnsafeBytes { push($0) }
        }
    }

    /// Parses the document `feed` hands to its argument piece by piece, in order (pieces of any
    /// size, which need not outlive the call that hands them over). libxml2 gets the first four
    /// bytes, then chunks of `chunkSize`, wherever the pieces fall: what it reads does not
    /// depend on them. A chunk inside one piece is handed over where it lies; one that spans
    /// pieces is gathered first. A document rewritten in many places (`HTMLEntityPreprocessor
    /// .scan`) is so never held whole. Pieces handed over once the parser has stopped are dropped.
    /// Given `escapedText`, each instruction `<?tidings?>` stands for the next run of text it
    /// holds (`EscapedText`).
    static func read(
        documentURL: URL?, onItem: ((ParsedItem) -> Void)? = nil, chunkSize: Int = chunkSize,
        readsHTMLEntities: Bool = false, escapedText: EscapedText.Queue? = nil,
        feed: ((UnsafeRawBufferPointer) -> Void) -> Void
    ) -> Outcome? {
        var pusher = Pusher(
            documentURL: documentURL, onItem: onItem, chunkSize: chunkSize, readsHTMLEntities: readsHTMLEntities,
            escapedText: escapedText)
        feed { pusher.push($0) }
        return pusher.finish()
    }

    /// Hands a document to libxml2's push parser; creates the parser on the first four bytes.
    private struct Pusher {
        let documentURL: URL?
        let onItem: ((ParsedItem) -> Void)?
        var parser: XMLPushParser?
        var state: UnsafeMutablePointer<State>?
        /// Could not start (no memory): what comes is dropped.
        var failed = false
        /// The chunk being gathered across pieces (the head before the parser starts).
        var staging: [UInt8] = []
        let chunkSize: Int
        let readsHTMLEntities: Bool
        let escapedText: EscapedText.Queue?

        init(
            documentURL: URL?, onItem: ((ParsedItem) -> Void)?, chunkSize: Int, readsHTMLEntities: Bool,
            escapedText: EscapedText.Queue?
        ) {
            self.escapedText = escapedText
            self.documentURL = documentURL
            self.onItem = onItem
            self.chunkSize = max(1, chunkSize)
            self.readsHTMLEntities = readsHTMLEntities
        }

        var stopped: Bool {
            guard let parser, state != nil else { return failed }
            return failed || parser.stopped
        }

        mutating func push(_ piece: UnsafeRawBufferPointer) {
            var rest = piece[...]
            while !rest.isEmpty, !stopped {
                // libxml2 detects the encoding from the first four bytes it is given.
                let want = parser == nil ? 4 : chunkSize
                if staging.isEmpty, rest.count >= want {
                    let chunk = UnsafeRawBufferPointer(rebasing: rest.prefix(want))
                    rest = rest.dropFirst(want)
                    parse(chunk)
                    continue
                }
                let taken = rest.prefix(want - staging.count)
                // A chunk's room at once: gathered from many pieces, the chunk would otherwise
                // grow by copies into fresh memory.
                if staging.capacity < want { staging.reserveCapacity(want) }
                staging.append(contentsOf: taken)
                rest = rest.dropFirst(taken.count)
                if staging.count == want { parseStaging() }
            }
        }

        private mutating func parseStaging() {
            var chunk = staging
            staging = []
            chunk.withUnsafeBytes { parse($0) }
            chunk.removeAll(keepingCapacity: true)
            staging = chunk
        }

        /// Starts the parser on `bytes`, or hands them to it.
        private mutating func parse(_ bytes: UnsafeRawBufferPointer) {
            guard bytes.baseAddress != nil else { return }
            if let parser {
                parser.push(bytes)
                return
            }
            guard
                let parser = XMLPushParser(
                    handler: makeHandler(), mode: .recovering, limits: limits, head: bytes,
                    readsHTMLEntities: readsHTMLEntities,
                    onError: { owner, error in SAXFeedReader.noteError(error, state: owner) })
            else {
                failed = true
                return
            }
            self.parser = parser
            guard let names = InternedNames(dict: parser.context.pointee.dict) else {
                failed = true
                return
            }
            var builder = XMLFeedBuilder(names: names, documentURL: documentURL)
            builder.onItem = onItem
            let state = UnsafeMutablePointer<State>.allocate(capacity: 1)
            state.initialize(
                to: State(
                    context: parser.context, builder: builder, diagnostics: Diagnostics(),
                    readsHTMLEntities: readsHTMLEntities, escapedText: escapedText))
            self.state = state
            parser.owner = UnsafeMutableRawPointer(state)
        }

        /// Ends the document and frees the parser; `nil` when it never started.
        mutating func finish() -> Outcome? {
            if !staging.isEmpty, !stopped { parseStaging() }
            defer { parser = nil }
            guard let parser, let state else { return nil }
            if !failed { parser.finish() }
            state.pointee.diagnostics.wellFormed = parser.wellFormed
            if parser.declinedEntity { state.pointee.diagnostics.abandoned = true }
            state.pointee.diagnostics.errorCount = parser.errorCount
            state.pointee.diagnostics.firstError = parser.firstError.map { ($0.code, $0.message, Int32($0.line)) }
            state.pointee.diagnostics.entityBytes = parser.entityBytes
            switch parser.exceeded {
            case .entityBudget?: state.pointee.diagnostics.entityBudgetExceeded = true
            case let exceeded?: state.pointee.diagnostics.limitExceeded = exceeded
            case nil: break
            }
            let final = state.move()
            state.deallocate()
            return Outcome(builder: final.builder, diagnostics: final.diagnostics)
        }
    }

    /// The reader's state, which the callbacks reach through the parser's session.
    fileprivate struct State {
        /// The document's parser context (not that of an entity's replacement text).
        let context: xmlParserCtxtPtr
        var builder: XMLFeedBuilder
        var diagnostics: Diagnostics
        /// Reading the document as it is: stop at what only the entity rewriting reads right.
        let readsHTMLEntities: Bool
        /// The runs of text `EscapedText` took, for the instructions that stand for them.
        let escapedText: EscapedText.Queue?

        /// Stops the reading as it is (see `Diagnostics.abandoned`).
        mutating func abandon() {
            diagnostics.abandoned = true
            xmlStopParser(context)
        }
    }

    private static func makeHandler() -> xmlSAXHandler {
        var handler = xmlSAXHandler()
        handler.startElementNs = { pointer, local, prefix, uri, _, _, attributeCount, _, attributes in
            guard XMLPushSession.admit(pointer) != nil, let state = saxState(pointer), let local else { return }
            let attributes = SAXAttributes(pointer: attributes, count: Int(attributeCount))
            if state.pointee.readsHTMLEntities, attributes.holdsC1Control {
                state.pointee.abandon()
                return
            }
            state.pointee.builder.startElement(local: local, prefix: prefix, namespace: uri, attributes: attributes)
            if state.pointee.builder.wantsStop { xmlStopParser(state.pointee.context) }
        }
        handler.endElementNs = { pointer, local, _, _ in
            guard let state = saxState(pointer), let local else { return }
            state.pointee.builder.endElement(local: local)
            if let input = state.pointee.context.pointee.input, let base = input.pointee.base,
                let end = input.pointee.end
            {
                state.pointee.diagnostics.peakInputWindow = max(state.pointee.diagnostics.peakInputWindow, end - base)
            }
        }
        handler.characters = { pointer, bytes, length in
            guard let state = saxState(pointer), let bytes else { return }
            // A character reference arrives alone: `&#150;` as the two bytes of U+0096.
            if length == 2, bytes[0] == 0xC2, bytes[1] < 0xA0, state.pointee.readsHTMLEntities {
                state.pointee.abandon()
                return
            }
            state.pointee.builder.characters(bytes, count: Int(length))
        }
        handler.cdataBlock = handler.characters
        handler.processingInstruction = { pointer, target, _ in
            guard let state = saxState(pointer), let queue = state.pointee.escapedText, let target,
                EscapedText.isTarget(target)
            else { return }
            // The document's own instruction of that name, after the runs taken, finds none.
            if let run = queue.takeNext() { state.pointee.builder.escapedText(run) }
        }
        handler.ignorableWhitespace = handler.characters
        // Entities (internal ones within the budget) and errors are the parser's; see `noteError`.
        return handler
    }

    /// What the reader notes of an error besides the parser's count and first error.
    fileprivate static func noteError(_ error: xmlErrorPtr, state pointer: UnsafeMutableRawPointer) {
        let state = pointer.assumingMemoryBound(to: State.self)
        if state.pointee.readsHTMLEntities {
            state.pointee.abandon()
            return
        }
        if error.pointee.code == Int32(XML_ERR_TAG_NAME_MISMATCH.rawValue), let endTag = error.pointee.str2 {
            state.pointee.builder.endTagMismatch(endTag)
        }
        if error.pointee.code == Int32(XML_ERR_INVALID_CHAR.rawValue) {
            state.pointee.diagnostics.sawInvalidCharacter = true
        }
    }
}

/// The state behind a callback's user-data pointer (the parser's session): its `owner`, read in
/// place, a stored property, so a callback makes no call into Markup for it.
private func saxState(_ pointer: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<SAXFeedReader.State>? {
    pointer?.assumingMemoryBound(to: XMLPushSession.self).pointee.owner?.assumingMemoryBound(
        to: SAXFeedReader.State.self)
}
