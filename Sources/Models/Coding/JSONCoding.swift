public import Foundation

/// The JSON coders Tidings uses at its edges: snake_case keys and RFC 3339 dates.
///
/// Each call returns a new coder, because `JSONDecoder`/`JSONEncoder` are classes whose
/// settings are mutable; keep one per owner rather than sharing one across actors.
public enum JSONCoding {
    /// A decoder for snake_case APIs (`date_published` → `datePublished`) with RFC 3339 dates.
    public static func decoder(keys: JSONDecoder.KeyDecodingStrategy = .convertFromSnakeCase) -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = keys
        decoder.dateDecodingStrategy = .custom(decodeDate)
        return decoder
    }

    /// An encoder writing snake_case keys, RFC 3339 UTC dates, sorted keys and unescaped slashes.
    public static func encoder(keys: JSONEncoder.KeyEncodingStrategy = .convertToSnakeCase) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = keys
        encoder.dateEncodingStrategy = .custom(encodeDate)
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    @Sendable private static func decodeDate(_ decoder: any Decoder) throws -> Date {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let date = RFC3339.date(from: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected an RFC 3339 date, found \"\(text)\"")
        }
        return date
    }

    @Sendable private static func encodeDate(_ date: Date, _ encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(RFC3339.string(from: date))
    }
}
