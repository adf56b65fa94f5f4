package import CLibXML2
internal import CLibXML2Loader
import Foundation
import Models

/// What every callback reaches through libxml2's user-data pointer: the parser's own counts and
/// the reader's state (`owner`). The callbacks never receive the parser context itself, so
/// libxml2 never falls back to its own entity lookup when `getEntity` declines.
package struct XMLPushSession {
    package let context: xmlParserCtxtPtr
    package let limits: XMLLimits
    /// The reader's state, which its callbacks cast back to its type.
    package var owner: UnsafeMutableRawPointer?
    package var elements = 0
    package var entityBytes = 0
    package var exceeded: XMLLimitExceeded?
    package var firstError: XMLParseError?
    package var errorCount = 0
    /// The reader's own look at each error (at libxml2's error level or above), after it is counted.
    let onError: XMLPushParser.ErrorHook?
    /// `getEntity` answers HTML5's named references itself, and declines every other entity
    /// but the predefined five, stopping the parser (see `XMLPushParser.init`).
    let readsHTMLEntities: Bool
    /// A reference `getEntity` declined while `readsHTMLEntities`.
    package var declinedEntity = false
    /// The HTML entities handed out, made on first use, freed with the parser.
    var htmlEntities: [String: UnsafeMutablePointer<xmlEntity>] = [:]

    /// Counts an element opening; `false` (and the parser stopped) past the depth or element
    /// limit, or once any limit was passed.
    @inlinable
    package mutating func admitElement() -> Bool {
        guard exceeded == nil else { return false }
        elements &+= 1
        // libxml2 pushes an element's name after its start callback: `nameNr` is its ancestors.
        if elements > limits.maximumElements {
            exceed(.tooManyElements(limit: limits.maximumElements))
            return false
        }
        if Int(context.pointee.nameNr) >= limits.maximumDepth {
            exceed(.tooDeep(limit: limits.maximumDepth))
            return false
        }
        return true
    }

    @usableFromInline
    package mutating func exceed(_ limit: XMLLimitExceeded) {
        if exceeded == nil { exceeded = limit }
        if case .entityBudget = limit { return }  // declined from here on; feeding stops after this chunk
        xmlStopParser(context)
    }
}

/// What the callbacks call. (Across modules these are calls, not inlined; a reader's hottest
/// callbacks, the feed reader's text and end tags, read `owner` in place instead, a stored
/// property of the session, so they make no call into Markup.)
extension XMLPushSession {
    /// The session behind a callback's user-data pointer.
    @inlinable
    package static func session(_ pointer: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<XMLPushSession>? {
        pointer?.assumingMemoryBound(to: XMLPushSession.self)
    }

    /// The reader's state behind a callback's user-data pointer.
    @inlinable
    package static func owner(_ pointer: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
        session(pointer)?.pointee.owner
    }

    /// For `startElementNs`: the reader's state, or `nil` (the parser stopped) when the
    /// element goes past the depth or element limit.
    @inlinable
    package static func admit(_ pointer: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
        guard let session = session(pointer), session.pointee.admitElement() else { return nil }
        return session.pointee.owner
    }
}

/// libxml2's SAX2 push parser, as every reader of XML here sets it up: no network ever, never
/// `XML_PARSE_NOENT`, `DTDLOAD`, `DTDATTR` or `XINCLUDE`; recovery only when the reader asks
/// for it. It owns the parser context (created, fed in chunks, stopped, freed) and applies one
/// set of `XMLLimits`: bytes fed, depth and element count (through `admit`, which each
/// reader's `startElementNs` calls first), and the entity budget (its own `getEntity`: the five
/// predefined entities, and the document's internal general entities while the budget lasts;
/// never an external one). It records the first error and counts them.
///
/// The reader keeps its callbacks as C function pointers; they receive the session pointer
/// and reach the reader's state through its `owner` (`XMLPushSession.owner(_:)`, or `admit(_:)`
/// in `startElementNs`): no allocation and no trampoline per callback.
package final class XMLPushParser {
    /// Whether a well-formedness error ends the reading (`strict`) or libxml2 reads on (`recovering`).
    package enum Mode: Sendable { case recovering, strict }

    /// The reader's look at an error, given its state (`owner`).
    package typealias ErrorHook = @convention(c) (UnsafeMutableRawPointer, xmlErrorPtr) -> Void

    package let context: xmlParserCtxtPtr
    private let session: UnsafeMutablePointer<XMLPushSession>
    private var fed = 0
    /// The attribute count run ahead of libxml2 over every byte it is given.
    private var guardState = tidings_attribute_guard()

    private static let initialized: Void = xmlInitParser()

    /// A parser calling `handler`'s element and text callbacks (its entity and error callbacks
    /// are the parser's own), given `head` (the document's first bytes, from which libxml2 sees
    /// its encoding; they count towards the size limit); `nil` when libxml2 gives none (not
    /// installed, out of memory: `XMLLibrary.startFailure`).
    ///
    /// With `readsHTMLEntities`, HTML5's named references (`&eacute;`) are read as the text
    /// they stand for, as libxml2 reads the predefined five, and any other entity reference (the
    /// document's own ones included) is declined: the parser stops, and `declinedEntity` says
    /// so. A reader tries a document so first and reads it otherwise when that fails. A
    /// reference in an attribute value to a name that stands for more than one byte is declined
    /// too, since libxml2 copies one byte of a predefined entity there.
    package init?(
        handler callbacks: xmlSAXHandler, mode: Mode, limits: XMLLimits, head: UnsafeRawBufferPointer? = nil,
        readsHTMLEntities: Bool = false, onError: ErrorHook? = nil
    ) {
        _ = Self.initialized
        var handler = callbacks
        handler.initialized = tidings_sax2_magic()
        Self.installEntityAndErrorCallbacks(&handler, entities: limits.entityBudget > 0)
        let start = head.flatMap { $0.count > 0 ? $0.baseAddress?.assumingMemoryBound(to: CChar.self) : nil }
        let length = head.map { Int32(clamping: $0.count) } ?? 0
        guard let context = xmlCreatePushParserCtxt(&handler, nil, start, start == nil ? 0 : length, nil) else {
            return nil
        }
        self.context = context
        var options = XML_PARSE_NONET.rawValue
        if mode == .recovering { options |= XML_PARSE_RECOVER.rawValue }
        xmlCtxtUseOptions(context, Int32(options))
        session = .allocate(capacity: 1)
        session.initialize(
            to: XMLPushSession(
                context: context, limits: limits, onError: onError, readsHTMLEntities: readsHTMLEntities))
        context.pointee.userData = UnsafeMutableRawPointer(session)
        if start != nil { fed = Int(length) }
        // The first bytes were given to libxml2 with the context; it reads them with the next
        // piece, which is checked first. (Too few to hold a tag's worth of attributes alone.)
        if let head, head.count > 0 { _ = admitted(head) }
    }

    /// Runs the attribute count over `bytes`; `false` (and the parser stopped, the limit named)
    /// when they go past it or the document declares UTF-7.
    private func admitted(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return true }
        let limit = session.pointee.limits.maximumAttributes
        switch Int(tidings_attribute_guard_scan(&guardState, base, bytes.count, limit)) {
        case Int(TIDINGS_GUARD_OK): return true
        case Int(TIDINGS_GUARD_UTF7): session.pointee.exceed(.utf7)
        case Int(TIDINGS_GUARD_NO_MEMORY): session.pointee.exceed(.tooLarge(bytes: fed, limit: fed))
        default: session.pointee.exceed(.tooManyAttributes(limit: limit))
        }
        return false
    }

    deinit {
        if let document = context.pointee.myDoc {
            xmlFreeDoc(document)
            context.pointee.myDoc = nil
        }
        xmlFreeParserCtxt(context)
        for entity in session.pointee.htmlEntities.values {
            free(UnsafeMutableRawPointer(mutating: entity.pointee.name))
            free(entity.pointee.content)
            entity.deallocate()
        }
        session.deinitialize(count: 1)
        session.deallocate()
    }

    /// The reader's state, which its callbacks receive (through the session) from here on.
    package var owner: UnsafeMutableRawPointer? {
        get { session.pointee.owner }
        set { session.pointee.owner = newValue }
    }

    /// libxml2 stopped (the end, a fatal error in strict mode, `stop()`), or a limit was passed.
    package var stopped: Bool { context.pointee.instate == XML_PARSER_EOF || session.pointee.exceeded != nil }
    /// The limit the document went past, if it did.
    package var exceeded: XMLLimitExceeded? { session.pointee.exceeded }
    /// The first error libxml2 reported, and how many it did.
    package var firstError: XMLParseError? { session.pointee.firstError }
    package var errorCount: Int { session.pointee.errorCount }
    /// An entity reference declined while reading HTML entities (see `init`).
    package var declinedEntity: Bool { session.pointee.declinedEntity }
    /// Bytes of internal-entity replacement text handed out.
    package var entityBytes: Int { session.pointee.entityBytes }
    /// libxml2 still holds the document well-formed.
    package var wellFormed: Bool { context.pointee.wellFormed != 0 }
    /// The line libxml2 has read to.
    package var line: Int { Int(xmlSAX2GetLineNumber(context)) }

    /// How much of a document libxml2 is given at a time: a reader may hand over more at once
    /// (a whole document), which is fed in pieces of this size, so libxml2 holds a window of
    /// it and never trips over its own 10 MB lookup limit.
    package static let chunkSize = 256 * 1024

    /// Hands `bytes` to libxml2 in chunks of at most `chunkSize` (`final`: they end the
    /// document); dropped once stopped, and refused past the size limit.
    package func push(_ bytes: UnsafeRawBufferPointer, final: Bool = false) {
        guard !stopped else { return }
        fed += bytes.count
        guard fed <= session.pointee.limits.maximumBytes else {
            session.pointee.exceed(.tooLarge(bytes: fed, limit: session.pointee.limits.maximumBytes))
            return
        }
        var rest = bytes[...]
        repeat {
            let piece = rest.prefix(Self.chunkSize)
            rest = rest.dropFirst(piece.count)
            guard admitted(UnsafeRawBufferPointer(rebasing: piece)) else { return }
            let start = UnsafeRawBufferPointer(rebasing: piece).baseAddress?.assumingMemoryBound(to: CChar.self)
            noteHalt(xmlParseChunk(context, start, Int32(piece.count), final && rest.isEmpty ? 1 : 0))
        } while !rest.isEmpty && !stopped
    }

    /// Ends the document, unless the parser has stopped.
    package func finish() {
        guard !stopped else { return }
        noteHalt(xmlParseChunk(context, nil, 0, 1))
    }

    /// libxml2 halts without a word to the document's error handler when it cannot convert the
    /// document's bytes from the encoding it detected or was told (`xmlParseChunk` returns an
    /// error, and the message goes to libxml2's generic handler): the reading would end as if
    /// the document ended there, well-formed. Counted here as the error it is.
    private func noteHalt(_ code: Int32) {
        guard code != 0, code != Int32(XML_ERR_USER_STOP.rawValue), context.pointee.instate == XML_PARSER_EOF,
            context.pointee.wellFormed != 0, session.pointee.exceeded == nil
        else { return }
        context.pointee.wellFormed = 0
        session.pointee.errorCount += 1
        if session.pointee.firstError == nil {
            session.pointee.firstError = XMLParseError(
                code: Int32(XML_ERR_INVALID_ENCODING.rawValue),
                message: "the document's bytes cannot be converted from its encoding", line: line)
        }
    }

    /// Stops the parser: no callback comes after the current one.
    package func stop() { xmlStopParser(context) }

    private static func installEntityAndErrorCallbacks(_ handler: inout xmlSAXHandler, entities: Bool) {
        if entities {
            handler.internalSubset = { pointer, name, externalID, systemID in
                // The internal subset's entity declarations need a document to live in.
                guard let context = XMLPushSession.session(pointer)?.pointee.context else { return }
                if context.pointee.myDoc == nil { xmlSAX2StartDocument(context) }
                xmlSAX2InternalSubset(context, name, externalID, systemID)
            }
            handler.entityDecl = { pointer, name, type, publicID, systemID, content in
                guard let context = XMLPushSession.session(pointer)?.pointee.context, context.pointee.myDoc != nil
                else { return }
                xmlSAX2EntityDecl(context, name, type, publicID, systemID, content)
            }
        } else {
            // A document's own declarations are never read, so a reference to one is an error.
            handler.internalSubset = nil
            handler.entityDecl = nil
        }
        handler.externalSubset = nil
        handler.resolveEntity = nil
        handler.getParameterEntity = nil
        handler.getEntity = { pointer, name in
            guard let session = XMLPushSession.session(pointer), let name else { return nil }
            return XMLPushParser.entity(named: name, session: session)
        }
        handler.serror = { pointer, error in
            guard let session = XMLPushSession.session(pointer), let error, let reported = XMLParseError(error)
            else { return }
            session.pointee.errorCount += 1
            if session.pointee.firstError == nil { session.pointee.firstError = reported }
            if let hook = session.pointee.onError, let owner = session.pointee.owner { hook(owner, error) }
        }
    }

    /// The predefined entities, and the document's internal general entities while the
    /// expansion budget lasts; never an external entity. Reading HTML entities: the predefined
    /// ones and HTML5's, and no other.
    private static func entity(
        named name: UnsafePointer<xmlChar>, session: UnsafeMutablePointer<XMLPushSession>
    ) -> xmlEntityPtr? {
        if let predefined = xmlGetPredefinedEntity(name) { return predefined }
        guard session.pointee.readsHTMLEntities else { return documentEntity(named: name, session: session) }
        if let entity = htmlEntity(named: name, session: session) { return entity }
        session.pointee.declinedEntity = true
        xmlStopParser(session.pointee.context)
        return nil
    }

    /// HTML5's entity `name`, as libxml2 reads a predefined one (its text, never parsed); `nil`
    /// for a name HTML5 does not have, or one of more than one byte in an attribute value.
    private static func htmlEntity(
        named name: UnsafePointer<xmlChar>, session: UnsafeMutablePointer<XMLPushSession>
    ) -> xmlEntityPtr? {
        let key = String(cString: name)
        guard let entity = session.pointee.htmlEntities[key] ?? makeHTMLEntity(named: key, session: session) else {
            return nil
        }
        return session.pointee.context.pointee.instate == XML_PARSER_ATTRIBUTE_VALUE && entity.pointee.length > 1
            ? nil : entity
    }

    /// A predefined entity standing for HTML5's `name`, kept in the session; `nil` when HTML5
    /// has no such name (or there is no memory).
    private static func makeHTMLEntity(
        named name: String, session: UnsafeMutablePointer<XMLPushSession>
    ) -> UnsafeMutablePointer<xmlEntity>? {
        guard let text = HTMLEntities.value(named: name) else { return nil }
        let utf8 = Array(text.utf8)
        guard let content = malloc(utf8.count + 1)?.assumingMemoryBound(to: xmlChar.self) else { return nil }
        guard let copiedName = strdup(name) else {
            free(content)
            return nil
        }
        content.initialize(from: utf8, count: utf8.count)
        content[utf8.count] = 0
        let entity = UnsafeMutablePointer<xmlEntity>.allocate(capacity: 1)
        entity.initialize(to: xmlEntity())
        entity.pointee.type = XML_ENTITY_DECL
        entity.pointee.name = UnsafePointer(UnsafeMutableRawPointer(copiedName).assumingMemoryBound(to: xmlChar.self))
        entity.pointee.content = content
        entity.pointee.length = Int32(utf8.count)
        entity.pointee.etype = XML_INTERNAL_PREDEFINED_ENTITY
        session.pointee.htmlEntities[name] = entity
        return entity
    }

    /// The document's own internal general entity `name`, while the expansion budget lasts.
    private static func documentEntity(
        named name: UnsafePointer<xmlChar>, session: UnsafeMutablePointer<XMLPushSession>
    ) -> xmlEntityPtr? {
        guard session.pointee.limits.entityBudget > 0, session.pointee.exceeded == nil,
            let document = session.pointee.context.pointee.myDoc,
            let entity = xmlGetDocEntity(document, name), entity.pointee.etype == XML_INTERNAL_GENERAL_ENTITY
        else { return nil }
        session.pointee.entityBytes += max(1, Int(entity.pointee.length))
        guard session.pointee.entityBytes <= session.pointee.limits.entityBudget else {
            session.pointee.exceed(.entityBudget(limit: session.pointee.limits.entityBudget))
            return nil
        }
        return entity
    }
}
