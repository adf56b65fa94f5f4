package import CLibXML2
import Models

/// The limits a document read with `XMLPushParser` is held to; each reader states its own
/// values, and the parser applies them all the same way.
package struct XMLLimits: Sendable, Equatable {
    /// The most bytes the document may have (as handed to the parser).
    package var maximumBytes: Int
    /// The most elements that may be open at once.
    package var maximumDepth: Int
    /// The most elements the document may hold.
    package var maximumElements: Int
    /// Bytes of internal-entity replacement text the document may expand to, in total; `0`:
    /// only the five predefined entities, the document's own declarations never read.
    package var entityBudget: Int
    /// The most attributes one element may have: libxml2 2.9 compares each attribute of a tag
    /// with every earlier one, so that a tag's cost grows with their square (a million in 9 MB:
    /// ten minutes of CPU). Counted ahead of libxml2 (`tidings_attribute_guard_scan`).
    package var maximumAttributes: Int

    package init(
        maximumBytes: Int, maximumDepth: Int, maximumElements: Int, entityBudget: Int,
        maximumAttributes: Int = 10_000
    ) {
        self.maximumBytes = maximumBytes
        self.maximumDepth = maximumDepth
        self.maximumElements = maximumElements
        self.entityBudget = entityBudget
        self.maximumAttributes = maximumAttributes
    }
}

/// The limit a document went past; reading stopped there.
package enum XMLLimitExceeded: Error, Sendable, Equatable, CustomStringConvertible {
    case tooLarge(bytes: Int, limit: Int)
    case tooDeep(limit: Int)
    case tooManyElements(limit: Int)
    case entityBudget(limit: Int)
    case tooManyAttributes(limit: Int)
    /// The document declares UTF-7, which can spell markup in base64 (browsers refuse it too).
    case utf7

    package var description: String {
        switch self {
        case .tooManyAttributes(let limit): "an element of the XML has more than \(limit) attributes"
        case .utf7: "the XML declares the UTF-7 encoding"
        case .tooLarge(let bytes, let limit): "the XML is more than \(limit) bytes (\(bytes) read)"
        case .tooDeep(let limit): "the XML nests deeper than \(limit) elements"
        case .tooManyElements(let limit): "the XML holds more than \(limit) elements"
        case .entityBudget(let limit): "the XML's entities expand to more than \(limit) bytes"
        }
    }
}

/// An error libxml2 reported: its code, message (trimmed) and line.
package struct XMLParseError: Sendable, Equatable {
    package var code: Int32
    package var message: String
    package var line: Int

    package init(code: Int32, message: String, line: Int) {
        self.code = code
        self.message = message
        self.line = line
    }

    /// The error `error` reports, or `nil` below libxml2's error level (a warning).
    package init?(_ error: UnsafePointer<xmlError>) {
        guard error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return nil }
        code = Int32(error.pointee.code)
        message = error.pointee.message.map { String(cString: $0).trimmedWhitespace } ?? "unknown error"
        line = Int(error.pointee.line)
    }
}
