public import Foundation

/// A coding key made from a converted string (or an array index).
struct ConvertedKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }
}

/// Conversions between camelCase property names and UPPER_SNAKE_CASE wire keys.
public enum UpperSnakeCase {
    /// `FULL_NAME` → `fullName`, `_ID` → `_id`. A key with lowercase letters is left as it is.
    /// Leading and trailing underscores are kept, as Foundation's snake_case strategy does.
    public static func camelCase(fromUpperSnake key: String) -> String {
        guard key.contains("_") || key.uppercased() == key, !key.contains(where: \.isLowercase) else { return key }
        let leading = key.prefix { $0 == "_" }
        let trailing = key.reversed().prefix { $0 == "_" }
        guard leading.count < key.count else { return key }
        let core = key.dropFirst(leading.count).dropLast(trailing.count)
        let words = core.split(separator: "_").map { $0.lowercased() }
        guard let first = words.first else { return key }
        return String(leading) + first + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
            + String(trailing)
    }

    /// `fullName` → `FULL_NAME`, `articleURL` → `ARTICLE_URL`, `urlString` → `URL_STRING`.
    public static func upperSnake(fromCamelCase key: String) -> String {
        var output = ""
        let characters = Array(key)
        for (index, character) in characters.enumerated() {
            if character.isUppercase, index > 0 {
                let previous = characters[index - 1]
                let nextIsLower = index + 1 < characters.count && characters[index + 1].isLowercase
                if previous.isLowercase || previous.isNumber || (previous.isUppercase && nextIsLower) {
                    output.append("_")
                }
            }
            output.append(contentsOf: character.uppercased())
        }
        return output
    }
}

extension JSONDecoder.KeyDecodingStrategy {
    /// Reads UPPER_SNAKE_CASE keys (`FULL_NAME`) into camelCase properties (`fullName`), at any
    /// depth. Only the last element of the coding path is the key being converted; the rest is
    /// where it sits.
    public static var convertFromUpperSnakeCase: JSONDecoder.KeyDecodingStrategy {
        .custom { path in
            guard let key = path.last else { return ConvertedKey(stringValue: "") }
            if let index = key.intValue { return ConvertedKey(intValue: index) }
            return ConvertedKey(stringValue: UpperSnakeCase.camelCase(fromUpperSnake: key.stringValue))
        }
    }
}

extension JSONEncoder.KeyEncodingStrategy {
    /// Writes camelCase properties (`fullName`) as UPPER_SNAKE_CASE keys (`FULL_NAME`), at any
    /// depth, converting the last element of the coding path.
    public static var convertToUpperSnakeCase: JSONEncoder.KeyEncodingStrategy {
        .custom { path in
            guard let key = path.last else { return ConvertedKey(stringValue: "") }
            if let index = key.intValue { return ConvertedKey(intValue: index) }
            return ConvertedKey(stringValue: UpperSnakeCase.upperSnake(fromCamelCase: key.stringValue))
        }
    }
}
