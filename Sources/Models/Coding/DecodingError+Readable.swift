import Foundation

/// How the keys of a JSON document were spelled before a key strategy converted them, so an
/// error message can name them as the user sees them in the document.
public enum WireKeyStyle: Sendable {
    /// The keys are reported as decoded (no strategy, or explicit `CodingKeys`).
    case asDecoded
    /// The document uses snake_case (`.convertFromSnakeCase`).
    case snakeCase
    /// The document uses UPPER_SNAKE_CASE (`.convertFromUpperSnakeCase`).
    case upperSnakeCase

    func spell(_ key: String) -> String {
        switch self {
        case .asDecoded: key
        case .snakeCase: UpperSnakeCase.upperSnake(fromCamelCase: key).lowercased()
        case .upperSnakeCase: UpperSnakeCase.upperSnake(fromCamelCase: key)
        }
    }
}

extension DecodingError {
    /// One line a person can act on, led by the coding path as decoded:
    /// `items[3].datePublished: expected String, found number`.
    public var readableDescription: String { readableDescription(keys: .asDecoded) }

    /// One line a person can act on, led by the coding path spelled as in the document:
    /// `items[3].date_published: expected String, found number`.
    public func readableDescription(keys style: WireKeyStyle) -> String {
        let line = { (path: [any CodingKey], message: String) in
            Self.pathDescription(path, keys: style) + ": " + message
        }
        switch self {
        case .typeMismatch(let type, let context):
            return line(context.codingPath, "expected \(Self.name(of: type))\(Self.found(in: context))")
        case .valueNotFound(let type, let context):
            return line(context.codingPath, "expected \(Self.name(of: type)), found null")
        case .keyNotFound(let key, let context):
            return line(context.codingPath, "missing key \"\(style.spell(key.stringValue))\"")
        case .dataCorrupted(let context):
            let detail = Self.trimmed(context.debugDescription)
            if context.codingPath.isEmpty {
                let cause = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
                return "not valid JSON: " + Self.trimmed(cause ?? detail)
            }
            return line(context.codingPath, detail)
        @unknown default:
            return String(describing: self)
        }
    }

    /// Renders a coding path as `items[3].date_published`; the root is `(root)`.
    public static func pathDescription(_ path: [any CodingKey], keys style: WireKeyStyle = .asDecoded) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue, key.stringValue == String(index) || key.stringValue.hasPrefix("Index ") {
                text += "[\(index)]"
            } else {
                text += (text.isEmpty ? "" : ".") + style.spell(key.stringValue)
            }
        }
        return text.isEmpty ? "(root)" : text
    }

    /// `String`, `Int`, `Array<…>` → `array`, `Dictionary<…>` → `object`.
    private static func name(of type: Any.Type) -> String {
        let name = String(describing: type)
        if name.hasPrefix("Array<") { return "array" }
        if name.hasPrefix("Dictionary<") { return "object" }
        return name
    }

    /// `, found number` from Foundation's "… but found number instead." wording, when present.
    private static func found(in context: Context) -> String {
        let text = context.debugDescription
        guard let range = text.range(of: "found ") else { return "" }
        var kind = text[range.upperBound...]
        if let end = kind.range(of: " instead") { kind = kind[..<end.lowerBound] }
        for article in ["a ", "an "] where kind.hasPrefix(article) { kind = kind.dropFirst(article.count) }
        return ", found " + Self.trimmed(String(kind))
    }

    private static func trimmed(_ text: String) -> String {
        var result = text.trimmingCharacters(in: .whitespacesAndNewlines)
        while result.hasSuffix(".") { result.removeLast() }
        guard let first = result.first else { return result }
        return first.lowercased() + result.dropFirst()
    }
}
