internal import CLibXML2
public import Foundation
import Models

extension XMLTree {
    /// An element of a small XML document read whole (a WebDAV multistatus): its namespace and
    /// local name, its attributes by local name, its own character data, its child elements.
    package struct Element: Sendable, Equatable {
        /// The namespace URI (`DAV:`), empty for none.
        package var namespace: String
        /// The local name (`href`).
        package var name: String
        /// The character data directly inside, CDATA included, as written (not trimmed).
        package var attributes: [String: String] = [:]
        package var text = ""
        package var children: [Element] = []

        /// The first child named `name` in `namespace`.
        package func child(_ namespace: String, _ name: String) -> Element? {
            children.first { $0.namespace == namespace && $0.name == name }
        }

        /// Every child named `name` in `namespace`, in order.
        package func children(_ namespace: String, _ name: String) -> [Element] {
            children.filter { $0.namespace == namespace && $0.name == name }
        }

        /// The text of the first child named `name` in `namespace`, trimmed.
        package func childText(_ namespace: String, _ name: String) -> String? {
            child(namespace, name).map { $0.text.trimmedWhitespace }
        }
    }
}

/// Why an XML document could not be read.
package enum XMLTreeError: Error, Sendable, Equatable, CustomStringConvertible {
    case tooLarge(bytes: Int)
    case malformed(line: Int, message: String)
    case tooDeep
    case tooManyElements

    package var description: String {
        switch self {
        case .tooLarge(let bytes): "the XML is \(bytes) bytes, more than \(XMLTree.maximumBytes)"
        case .malformed(let line, let message): "the XML is not well formed (line \(line): \(message))"
        case .tooDeep: "the XML nests deeper than \(XMLTree.maximumDepth) elements"
        case .tooManyElements: "the XML holds more than \(XMLTree.maximumElements) elements"
        }
    }
}

/// Reads a whole XML document into `XMLTree.Element`s with libxml2's SAX2 parser, strictly: the
/// first well-formedness error ends the reading. No DTD is loaded, no entity but the five
/// predefined ones is expanded (a document that declares its own, as a billion-laughs or XXE
/// attack does, fails on the first reference to one), nothing is fetched from the network.
/// Size, depth and element count are bounded.
package enum XMLTree {
    package static let maximumBytes = 64 << 20
    package static let maximumDepth = 64
    package static let maximumElements = 1_000_000

    private static let initialized: Void = xmlInitParser()

    package static func read(_ data: Data) throws(XMLTreeError) -> XMLTree.Element {
        guard data.count <= maximumBytes else { throw .tooLarge(bytes: data.count) }
        _ = initialized
        var handler = makeHandler()
        let outcome: Result<XMLTree.Element, XMLTreeError> = data.withUnsafeBytes { raw in
            guard let start = raw.baseAddress?.assumingMemoryBound(to: CChar.self), raw.count > 0 else {
                return .failure(.malformed(line: 1, message: "the document is empty"))
            }
            guard let context = xmlCreatePushParserCtxt(&handler, nil, nil, 0, nil) else {
                return .failure(.malformed(line: 0, message: XMLLibrary.startFailure))
            }
            defer {
                if let document = context.pointee.myDoc {
                    xmlFreeDoc(document)
                    context.pointee.myDoc = nil
                }
                xmlFreeParserCtxt(context)
            }
            xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue))
            let state = UnsafeMutablePointer<TreeState>.allocate(capacity: 1)
            state.initialize(to: TreeState(context: context))
            defer {
                state.deinitialize(count: 1)
                state.deallocate()
            }
            context.pointee.userData = UnsafeMutableRawPointer(state)
            xmlParseChunk(context, start, Int32(raw.count), 1)
            if let failure = state.pointee.failure { return .failure(failure) }
            if let error = state.pointee.firstError { return .failure(error) }
            guard context.pointee.wellFormed != 0, let root = state.pointee.root else {
                return .failure(.malformed(line: Int(xmlSAX2GetLineNumber(context)), message: "no root element"))
            }
            return .success(root)
        }
        return try outcome.get()
    }

    fileprivate struct TreeState {
        let context: xmlParserCtxtPtr
        var stack: [XMLTree.Element] = []
        var root: XMLTree.Element?
        var elements = 0
        var failure: XMLTreeError?
        var firstError: XMLTreeError?

        mutating func fail(_ error: XMLTreeError) {
            if failure == nil { failure = error }
            xmlStopParser(context)
        }
    }

    private static func makeHandler() -> xmlSAXHandler {
        var handler = xmlSAXHandler()
        handler.initialized = tidings_sax2_magic()
        handler.startElementNs = { pointer, local, _, uri, _, _, attributeCount, _, attributes in
            guard let state = treeState(pointer), let local, state.pointee.failure == nil else { return }
            state.pointee.elements += 1
            guard state.pointee.elements <= XMLTree.maximumElements else { return state.pointee.fail(.tooManyElements) }
            guard state.pointee.stack.count < XMLTree.maximumDepth else { return state.pointee.fail(.tooDeep) }
            var element = XMLTree.Element(
                namespace: uri.map { String(cString: $0) } ?? "", name: String(cString: local))
            // Five pointers per attribute: local name, prefix, URI, value start, value end.
            if let attributes {
                for index in 0..<Int(attributeCount) {
                    guard let name = attributes[index * 5], let start = attributes[index * 5 + 3],
                        let end = attributes[index * 5 + 4]
                    else { continue }
                    element.attributes[String(cString: name)] = String(
                        decoding: UnsafeBufferPointer(start: start, count: end - start), as: UTF8.self)
                }
            }
            state.pointee.stack.append(element)
        }
        handler.endElementNs = { pointer, _, _, _ in
            guard let state = treeState(pointer), state.pointee.failure == nil,
                let element = state.pointee.stack.popLast()
            else { return }
            if state.pointee.stack.isEmpty {
                state.pointee.root = element
            } else {
                state.pointee.stack[state.pointee.stack.count - 1].children.append(element)
            }
        }
        handler.characters = { pointer, bytes, length in
            guard let state = treeState(pointer), let bytes, state.pointee.failure == nil,
                !state.pointee.stack.isEmpty
            else { return }
            let text = String(decoding: UnsafeBufferPointer(start: bytes, count: Int(length)), as: UTF8.self)
            state.pointee.stack[state.pointee.stack.count - 1].text += text
        }
        handler.cdataBlock = handler.characters
        // Only the predefined entities; a document's own declarations are never read (no
        // internalSubset or entityDecl handler), so a reference to one is an error.
        handler.getEntity = { _, name in name.flatMap { xmlGetPredefinedEntity($0) } }
        handler.serror = { pointer, error in
            guard let state = treeState(pointer), let error, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue,
                state.pointee.firstError == nil
            else { return }
            let message = error.pointee.message.map { String(cString: $0).trimmedWhitespace } ?? "unknown error"
            state.pointee.firstError = .malformed(line: Int(error.pointee.line), message: message)
        }
        return handler
    }
}

private func treeState(_ pointer: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<XMLTree.TreeState>? {
    pointer?.assumingMemoryBound(to: XMLTree.TreeState.self)
}
