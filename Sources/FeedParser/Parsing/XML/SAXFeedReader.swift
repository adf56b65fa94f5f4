internal import CLibXML2
import Foundation
import Markup

/// Streams a document through libxml2's SAX2 push parser into an `XMLFeedBuilder`.
///
/// The document is pushed in chunks, so libxml2 holds a window of it, never a tree. Options:
/// recovery (a malformed item does not end the parse), no network; never `XML_PARSE_NOENT` or
/// `XML_PARSE_DTDLOAD`. Entities: the five predefined ones and the document's own internal
/// ones, within `entityBudget` bytes of expansion; external entities are never resolved (the
/// `getEntity` callback does not return them, and no external subset or resolver is set).
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
        /// The most of the document libxml2 held in its input buffer at once.
        var peakInputWindow = 0
        /// libxml2 met bytes that are not UTF-8 (or a character XML does not allow).
        var sawInvalidCharacter = false
        /// libxml2 still held the document well-formed at the end. Once it does not, libxml2
        /// 2.9 drops every later entity reference, `&amp;` and `&lt;` included (character
        /// references are still delivered); see `XMLFeedParser`.
        var wellFormed = true
    }

    /// Bytes of entity replacement text a document may expand to, in total.
    static let entityBudget = 1 << 20
    /// How much of the document libxml2 is given at a time.
    static let chunkSize = 256 * 1024

    private static let initialized: Void = xmlInitParser()

    /// Parses `data` (UTF-8, or announcing its own encoding) into a builder; `nil` if libxml2
    /// could not even start (out of memory).
    static func read(
        _ data: Data, documentURL: URL?, onItem: ((ParsedItem) -> Void)? = nil, chunkSize: Int = chunkSize
    ) -> Outcome? {
        read(documentURL: documentURL, onItem: onItem, chunkSize: chunkSize) { push in data.withUnsafeBytes { push($0) }
        }
    }

    /// Parses the document `feed` hands to its argument piece by piece, in order (pieces of any
    /// size, which need not outlive the call that hands them over). libxml2 gets the first four
    /// bytes, then chunks of `chunkSize`, wherever the pieces fall: what it reads does not
    /// depend on them. A chunk inside one piece is handed over where it lies; one that spans
    /// pieces is gathered first. A document rewritten in many places (`HTMLEntityPreprocessor
    /// .scan`) is so never held whole. Pieces handed over once the parser has stopped are dropped.
    static func read(
        documentURL: URL?, onItem: ((ParsedItem) -> Void)? = nil, chunkSize: Int = chunkSize,
        feed: ((UnsafeRawBufferPointer) -> Void) -> Void
    ) -> Outcome? {
        _ = initialized
        var pusher = Pusher(documentURL: documentURL, onItem: onItem, chunkSize: chunkSize)
        feed { pusher.push($0) }
        return pusher.finish()
    }

    /// Hands a document to libxml2's push parser; creates the parser on the first four bytes.
    private struct Pusher {
        let documentURL: URL?
        let onItem: ((ParsedItem) -> Void)?
        var handler = makeHandler()
        var context: xmlParserCtxtPtr?
        var state: UnsafeMutablePointer<State>?
        /// Could not start (no memory): what comes is dropped.
        var failed = false
        /// The chunk being gathered across pieces (the head before the parser starts).
        var staging: [UInt8] = []
        let chunkSize: Int

        init(documentURL: URL?, onItem: ((ParsedItem) -> Void)?, chunkSize: Int) {
            self.documentURL = documentURL
            self.onItem = onItem
            self.chunkSize = max(1, chunkSize)
        }

        var stopped: Bool {
            guard let context, let state else { return failed }
            return failed || context.pointee.instate == XML_PARSER_EOF || state.pointee.diagnostics.entityBudgetExceeded
        }

        mutating func push(_ piece: UnsafeRawBufferPointer) {
            var rest = piece[...]
            while !rest.isEmpty, !stopped {
                // libxml2 detects the encoding from the first four bytes it is given.
                let want = context == nil ? 4 : chunkSize
                if staging.isEmpty, rest.count >= want {
                    let chunk = UnsafeRawBufferPointer(rebasing: rest.prefix(want))
                    rest = rest.dropFirst(want)
                    parse(chunk)
                    continue
                }
                let taken = rest.prefix(want - staging.count)
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
            guard let start = bytes.baseAddress?.assumingMemoryBound(to: CChar.self) else { return }
            if let context {
                xmlParseChunk(context, start, Int32(bytes.count), 0)
                return
            }
            guard let context = xmlCreatePushParserCtxt(&handler, nil, start, Int32(bytes.count), nil) else {
                failed = true
                return
            }
            self.context = context
            let options = XML_PARSE_RECOVER.rawValue | XML_PARSE_NONET.rawValue
            xmlCtxtUseOptions(context, Int32(options))
            guard let names = InternedNames(dict: context.pointee.dict) else {
                failed = true
                return
            }
            var builder = XMLFeedBuilder(names: names, documentURL: documentURL)
            builder.onItem = onItem
            let state = UnsafeMutablePointer<State>.allocate(capacity: 1)
            state.initialize(to: State(context: context, builder: builder, diagnostics: Diagnostics()))
            self.state = state
            // Callbacks receive the state, not the parser context: libxml2 then never falls
            // back to its own entity lookup when `getEntity` declines.
            context.pointee.userData = UnsafeMutableRawPointer(state)
        }

        /// Ends the document and frees the parser; `nil` when it never started.
        mutating func finish() -> Outcome? {
            if !staging.isEmpty, !stopped { parseStaging() }
            defer {
                if let context {
                    if let document = context.pointee.myDoc {
                        xmlFreeDoc(document)
                        context.pointee.myDoc = nil
                    }
                    xmlFreeParserCtxt(context)
                }
            }
            guard let context, let state else { return nil }
            if !stopped { xmlParseChunk(context, nil, 0, 1) }
            state.pointee.diagnostics.wellFormed = context.pointee.wellFormed != 0
            let final = state.move()
            state.deallocate()
            return Outcome(builder: final.builder, diagnostics: final.diagnostics)
        }
    }

    /// What the callbacks reach through the parser context's `_private` pointer.
    fileprivate struct State {
        /// The document's parser context (not that of an entity's replacement text).
        let context: xmlParserCtxtPtr
        var builder: XMLFeedBuilder
        var diagnostics: Diagnostics
    }

    private static func makeHandler() -> xmlSAXHandler {
        var handler = xmlSAXHandler()
        handler.initialized = tidings_sax2_magic()
        handler.startElementNs = { state, local, prefix, uri, _, _, attributeCount, _, attributes in
            guard let state = saxState(state), let local else { return }
            state.pointee.builder.startElement(
                local: local, prefix: prefix, namespace: uri,
                attributes: SAXAttributes(pointer: attributes, count: Int(attributeCount)))
            if state.pointee.builder.wantsStop { xmlStopParser(state.pointee.context) }
        }
        handler.endElementNs = { state, local, _, _ in
            guard let state = saxState(state), let local else { return }
            state.pointee.builder.endElement(local: local)
            if let input = state.pointee.context.pointee.input, let base = input.pointee.base,
                let end = input.pointee.end
            {
                state.pointee.diagnostics.peakInputWindow = max(state.pointee.diagnostics.peakInputWindow, end - base)
            }
        }
        handler.characters = { state, bytes, length in
            guard let state = saxState(state), let bytes else { return }
            state.pointee.builder.characters(bytes, count: Int(length))
        }
        handler.cdataBlock = handler.characters
        handler.ignorableWhitespace = handler.characters
        handler.internalSubset = { state, name, externalID, systemID in
            // The internal subset's entity declarations need a document to live in.
            guard let context = saxState(state)?.pointee.context else { return }
            if context.pointee.myDoc == nil { xmlSAX2StartDocument(context) }
            xmlSAX2InternalSubset(context, name, externalID, systemID)
        }
        handler.entityDecl = { state, name, type, publicID, systemID, content in
            guard let context = saxState(state)?.pointee.context, context.pointee.myDoc != nil else { return }
            xmlSAX2EntityDecl(context, name, type, publicID, systemID, content)
        }
        handler.getEntity = { state, name in
            guard let state = saxState(state), let name else { return nil }
            return SAXFeedReader.entity(named: name, state: state)
        }
        handler.serror = { state, error in
            guard let state = saxState(state), let error else { return }
            guard error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
            if error.pointee.code == Int32(XML_ERR_TAG_NAME_MISMATCH.rawValue), let endTag = error.pointee.str2 {
                state.pointee.builder.endTagMismatch(endTag)
            }
            state.pointee.diagnostics.errorCount += 1
            if error.pointee.code == Int32(XML_ERR_INVALID_CHAR.rawValue) {
                state.pointee.diagnostics.sawInvalidCharacter = true
            }
            if state.pointee.diagnostics.firstError == nil {
                let message = error.pointee.message.map { String(cString: $0).trimmedWhitespace } ?? "unknown error"
                state.pointee.diagnostics.firstError = (Int32(error.pointee.code), message, Int32(error.pointee.line))
            }
        }
        return handler
    }

    /// The predefined entities, and the document's internal general entities while the
    /// expansion budget lasts; never an external entity.
    fileprivate static func entity(
        named name: UnsafePointer<xmlChar>, state: UnsafeMutablePointer<State>
    ) -> xmlEntityPtr? {
        if let predefined = xmlGetPredefinedEntity(name) { return predefined }
        guard !state.pointee.diagnostics.entityBudgetExceeded, let document = state.pointee.context.pointee.myDoc,
            let entity = xmlGetDocEntity(document, name), entity.pointee.etype == XML_INTERNAL_GENERAL_ENTITY
        else { return nil }
        state.pointee.diagnostics.entityBytes += max(1, Int(entity.pointee.length))
        guard state.pointee.diagnostics.entityBytes <= entityBudget else {
            // Declined from here on; the driver stops feeding the parser after this chunk.
            state.pointee.diagnostics.entityBudgetExceeded = true
            return nil
        }
        return entity
    }

}

/// The state behind a callback's user-data pointer.
private func saxState(_ pointer: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<SAXFeedReader.State>? {
    pointer?.assumingMemoryBound(to: SAXFeedReader.State.self)
}
