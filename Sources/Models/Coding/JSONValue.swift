import Foundation

/// Any JSON value, for documents whose keys are not all known in advance (remote config).
public enum JSONValue: Sendable, Hashable, Codable, CustomStringConvertible {
    case null
    case bool(Bool)
    /// A number without a fraction.
    case integer(Int)
    /// A number with a fraction or an exponent.
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Decodes whatever JSON value comes next.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Encodes the value as it was.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The value at a dotted path (`features.fullTextSearch`) inside nested objects. A member
    /// whose own name holds the rest of the path (`"a..b"`, `".x"`, which no dotted path can
    /// spell segment by segment) is found by that name.
    public subscript(path path: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        if let exact = members[path] { return exact }
        guard let dot = path.firstIndex(of: ".") else { return nil }
        return members[String(path[..<dot])]?[path: String(path[path.index(after: dot)...])]
    }

    /// The string, when this is one.
    public var stringValue: String? { if case .string(let value) = self { value } else { nil } }
    /// The number as an `Int`, when this is a whole number.
    public var intValue: Int? {
        switch self {
        case .integer(let value): value
        case .double(let value) where value.rounded() == value && abs(value) < 1e15: Int(value)
        default: nil
        }
    }
    /// The Boolean, when this is one.
    public var boolValue: Bool? { if case .bool(let value) = self { value } else { nil } }
    /// The members, when this is an object.
    public var objectValue: [String: JSONValue]? { if case .object(let value) = self { value } else { nil } }

    /// Compact JSON text (`true`, `30`, `"1.0.0"`, `{"a":1}`), keys sorted. Control and
    /// invisible format characters (C0, C1, bidirectional controls, ...) are written as `\u`
    /// escapes, so the text is safe to show on a terminal as it is.
    public var description: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "null" }
        return Self.escapingInvisibles(String(decoding: data, as: UTF8.self))
    }

    /// `json` with every scalar that `isControlOrInvisibleFormat` names written as a `\u`
    /// escape (they can only stand inside strings, where an escape means the same).
    static func escapingInvisibles(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: \.isControlOrInvisibleFormat) else { return json }
        var output = ""
        output.reserveCapacity(json.utf8.count + 16)
        for scalar in json.unicodeScalars {
            guard scalar.isControlOrInvisibleFormat else {
                output.unicodeScalars.append(scalar)
                continue
            }
            for unit in String(scalar).utf16 {
                let hex = String(unit, radix: 16, uppercase: false)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        return output
    }
}
