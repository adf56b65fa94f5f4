import Foundation

/// A JSON value as the JSON Feed reader needs it: objects keep their members in order (a
/// handful each, looked up from the end, so a repeated key's last value wins, as
/// `JSONSerialization` does), numbers keep their text.
enum JSONNode {
    case object([(key: String, value: JSONNode)])
    case array([JSONNode])
    case string(String)
    case number(String)
    case bool(Bool)
    case null

    /// The member `key` of an object.
    subscript(key: String) -> JSONNode? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.key == key }?.value
    }

    /// The value when it is a string.
    var string: String? {
        if case .string(let text) = self { text } else { nil }
    }

    /// The elements when it is an array.
    var array: [JSONNode]? {
        if case .array(let elements) = self { elements } else { nil }
    }

    var isObject: Bool {
        if case .object = self { true } else { false }
    }
}

/// A strict JSON reader (RFC 8259) over the document's bytes, for the JSON Feed parser.
///
/// `JSONSerialization` builds Foundation objects that every read then bridges back to Swift
/// values; JSON Feeds are mostly long strings, so this reader copies each string once, with a
/// sixteen-bytes-at-a-time scan to its closing quote. Nesting is bounded, so a document of
/// ten thousand `[` is an error, not a stack overflow.
struct JSONScanner {
    /// Why the document is not JSON, with the byte offset.
    struct Failure: Error {
        let message: String
        let offset: Int
    }

    static let maximumDepth = 256

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0
    /// Whether a comma may end an object or an array (`[1, 2,]`), as JavaScript allows.
    private let allowsTrailingCommas: Bool
    /// How many such commas were read.
    private var trailingCommas = 0

    /// Parses one JSON document (whitespace around it allowed, nothing else).
    static func parse(_ data: Data) throws(Failure) -> JSONNode {
        try parse(data, allowingTrailingCommas: false).node
    }

    /// Parses one JSON document that may end objects and arrays with a comma (`{"a": 1,}`),
    /// which RFC 8259 does not allow but some feeds carry; also says how many it met.
    static func parse(_ data: Data, allowingTrailingCommas: Bool) throws(Failure) -> (
        node: JSONNode, trailingCommas: Int
    ) {
        let result: Result<(JSONNode, Int), Failure> = data.withUnsafeBytes { raw in
            var scanner = JSONScanner(
                bytes: raw.bindMemory(to: UInt8.self), allowsTrailingCommas: allowingTrailingCommas)
            do throws(Failure) {
                let value = try scanner.value()
                scanner.skipWhitespace()
                guard scanner.index == scanner.bytes.count else {
                    throw scanner.failure("unexpected text after the JSON value")
                }
                return .success((value, scanner.trailingCommas))
            } catch {
                return .failure(error)
            }
        }
        let (node, commas) = try result.get()
        return (node, commas)
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, allowsTrailingCommas: Bool) {
        self.bytes = bytes
        self.allowsTrailingCommas = allowsTrailingCommas
        // A UTF-8 byte-order mark is tolerated, as JSONSerialization does.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
    }

    private func failure(_ message: String) -> Failure { Failure(message: message, offset: index) }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private mutating func value() throws(Failure) -> JSONNode {
        skipWhitespace()
        guard index < bytes.count else { throw failure("the document ends where a value should be") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default:
            throw failure("unexpected character \"\(Unicode.Scalar(bytes[index]).escaped(asASCII: true))\"")
        }
    }

    private mutating func object() throws(Failure) -> JSONNode {
        try enter()
        defer { depth -= 1 }
        index += 1
        var members: [(key: String, value: JSONNode)] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw failure("an object member must start with a quoted name")
            }
            let key = try string()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw failure("expected \":\" after the member name \"\(key)\"")
            }
            index += 1
            members.append((key, try value()))
            skipWhitespace()
            guard index < bytes.count else { throw failure("the document ends inside an object") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                if closesAfterComma(UInt8(ascii: "}")) { return .object(members) }
            } else if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            } else {
                throw failure("expected \",\" or \"}\" in an object")
            }
        }
    }

    private mutating func array() throws(Failure) -> JSONNode {
        try enter()
        defer { depth -= 1 }
        index += 1
        var elements: [JSONNode] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            elements.append(try value())
            skipWhitespace()
            guard index < bytes.count else { throw failure("the document ends inside an array") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                if closesAfterComma(UInt8(ascii: "]")) { return .array(elements) }
            } else if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            } else {
                throw failure("expected \",\" or \"]\" in an array")
            }
        }
    }

    /// After a comma: whether `close` follows it, ending the object or array there, when
    /// trailing commas are allowed (counted, and consumed with the close).
    private mutating func closesAfterComma(_ close: UInt8) -> Bool {
        guard allowsTrailingCommas else { return false }
        skipWhitespace()
        guard index < bytes.count, bytes[index] == close else { return false }
        index += 1
        trailingCommas += 1
        return true
    }

    private mutating func enter() throws(Failure) {
        depth += 1
        guard depth <= Self.maximumDepth else {
            throw failure("the JSON nests deeper than \(Self.maximumDepth) levels")
        }
    }

    private mutating func literal(_ word: StaticString, _ node: JSONNode) throws(Failure) -> JSONNode {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count,
            (0..<count).allSatisfy({ bytes[index + $0] == word.utf8Start[$0] })
        else { throw failure("unexpected word (expected \(word))") }
        index += count
        return node
    }

    private mutating func number() throws(Failure) -> JSONNode {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
        guard index > integerStart else { throw failure("a number needs digits") }
        if index - integerStart > 1, bytes[integerStart] == 0x30 { throw failure("a number cannot start with 0") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let fraction = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
            guard index > fraction else { throw failure("a number needs digits after its \".\"") }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            let exponent = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
            guard index > exponent else { throw failure("a number needs digits in its exponent") }
        }
        return .number(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
    }

    /// A string, from its opening quote to past its closing one.
    private mutating func string() throws(Failure) -> String {
        index += 1
        let start = index
        index = Self.plainEnd(bytes, from: index)
        guard index < bytes.count else { throw failure("the document ends inside a string") }
        if bytes[index] == UInt8(ascii: "\"") {
            defer { index += 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        }
        // Escapes (or a control character, which is an error): build the text byte by byte.
        var text: [UInt8] = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try escape(into: &text)
            case 0..<0x20:
                throw failure("a control character inside a string must be escaped")
            default:
                let end = Self.plainEnd(bytes, from: index + 1)
                text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<end]))
                index = end
            }
        }
        throw failure("the document ends inside a string")
    }

    private mutating func escape(into text: inout [UInt8]) throws(Failure) {
        guard index + 1 < bytes.count else { throw failure("the document ends inside an escape") }
        let code = bytes[index + 1]
        index += 2
        switch code {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(code)
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "f"): text.append(0x0C)
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "r"): text.append(0x0D)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hex4()
            if (0xD800..<0xDC00).contains(scalar) {
                // A high surrogate takes the low one after it; alone, it is U+FFFD.
                if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                    let saved = index
                    index += 2
                    let low = try hex4()
                    if (0xDC00..<0xE000).contains(low) {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        index = saved
                        scalar = 0xFFFD
                    }
                } else {
                    scalar = 0xFFFD
                }
            } else if (0xDC00..<0xE000).contains(scalar) || scalar == 0 {
                // A lone low surrogate, or a NUL (which would cut the text short where it is
                // stored), reads as U+FFFD, as `&#0;` does in XML.
                scalar = 0xFFFD
            }
            text.append(contentsOf: String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8)
        default:
            index -= 1
            throw failure("\"\\\(Unicode.Scalar(code).escaped(asASCII: true))\" is not an escape")
        }
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count else { throw failure("the document ends inside a \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - 0x30
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - 0x61 + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - 0x41 + 10
            default: throw failure("a \\u escape needs four hexadecimal digits")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// Where the run of bytes needing no attention ends: the first quote, backslash or control
    /// character at or after `start`, found sixteen bytes at a time.
    @inline(__always)
    private static func plainEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return start }
        var position = start
        let quote = SIMD16<UInt8>(repeating: UInt8(ascii: "\""))
        let backslash = SIMD16<UInt8>(repeating: UInt8(ascii: "\\"))
        let space = SIMD16<UInt8>(repeating: 0x20)
        while position + 16 <= bytes.count {
            let block = UnsafeRawPointer(base + position).loadUnaligned(as: SIMD16<UInt8>.self)
            let special = (block .== quote) .| (block .== backslash) .| (block .< space)
            if any(special) {
                for lane in 0..<16 where special[lane] { return position + lane }
            }
            position += 16
        }
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { return position }
            position += 1
        }
        return position
    }
}
