internal import CLibXML2
package import Foundation
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
    /// The limits `read` applies (`XMLPushParser`): no entity but the predefined five.
    package static let limits = XMLLimits(
        maximumBytes: maximumBytes, maximumDepth: maximumDepth, maximumElements: maximumElements, entityBudget: 0)

    package static func read(_ data: Data) throws(XMLTreeError) -> XMLTree.Element {
        guard data.count <= maximumBytes else { throw .tooLarge(bytes: data.count) }
        let outcome: Result<XMLTree.Element, XMLTreeError> = data.withUnsafeBytes { raw in
            guard raw.count > 0 else { return .failure(.malformed(line: 1, message: "the document is empty")) }
            guard let parser = XMLPushParser(handler: makeHandler(), mode: .strict, limits: limits) else {
                return .failure(.malformed(line: 0, message: XMLLibrary.startFailure))
            }
            let state = UnsafeMutablePointer<TreeState>.allocate(capacity: 1)
            state.initialize(to: TreeState())
            defer {
                state.deinitialize(count: 1)
                state.deallocate()
            }
            parser.owner = UnsafeMutableRawPointer(state)
            parser.push(raw, final: true)
            switch parser.exceeded {
            case .tooLarge(let bytes, _)?: return .failure(.tooLarge(bytes: bytes))
            case .tooDeep?: return .failure(.tooDeep)
            case .tooManyElements?: return .failure(.tooManyElements)
            case .tooManyAttributes?, .utf7?:
                return .failure(.malformed(line: parser.line, message: parser.exceeded.map { "\($0)" } ?? ""))
            case .entityBudget?, nil: break
            }
            if let error = parser.firstError { return .failure(.malformed(line: error.line, message: error.message)) }
            guard parser.wellFormed, let root = state.pointee.root else {
                return .failure(.malformed(line: parser.line, message: "no root element"))
            }
            return .success(root)
        }
        return try outcome.get()
    }

    fileprivate struct TreeState {
        var stack: [XMLTree.Element] = []
        var root: XMLTree.Element?
    }

    private static func makeHandler() -> xmlSAXHandler {
        var handler = xmlSAXHandler()
        handler.startElementNs = { pointer, local, _, uri, _, _, attributeCount, _, attributes in
            guard let state = treeState(XMLPushSession.admit(pointer)), let local else { return }
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
            guard let state = treeState(XMLPushSession.owner(pointer)), let element = state.pointee.stack.popLast()
            else { return }
            if state.pointee.stack.isEmpty {
                state.pointee.root = element
            } else {
                state.pointee.stack[state.pointee.stack.count - 1].children.append(element)
            }
        }
        handler.characters = { pointer, bytes, length in
            guard let state = treeState(XMLPushSession.owner(pointer)), let bytes, !state.pointee.stack.isEmpty
            else { return }
            let text = String(decoding: UnsafeBufferPointer(start: bytes, count: Int(length)), as: UTF8.self)
            state.pointee.stack[state.pointee.stack.count - 1].text += text
        }
        handler.cdataBlock = handler.characters
        // Entities (only the predefined five) and errors are the parser's.
        return handler
    }
}

private func treeState(_ pointer: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<XMLTree.TreeState>? {
    pointer?.assumingMemoryBound(to: XMLTree.TreeState.self)
}
