import Foundation

/// Recovers documents that claim UTF-8 (or say nothing, which means UTF-8) but are really
/// Windows-1252, the most common lie feeds tell about their encoding.
///
/// When the bytes are not valid UTF-8 and contain no valid multi-byte UTF-8 sequence at all,
/// they are read as Windows-1252 and re-encoded as UTF-8. A document with some valid UTF-8
/// and a few bad bytes keeps its UTF-8, with each bad sequence replaced by U+FFFD.
enum EncodingRepair {
    /// The document as UTF-8, and a warning when it had to be re-read.
    ///
    /// The order of authority is the BOM, then the XML declaration, then `httpCharset` (the
    /// `charset` of the response's `Content-Type`), then UTF-8.
    static func repair(_ data: Data, httpCharset: String? = nil) -> (Data, String?) {
        guard declaresUTF8OrNothing(data) else { return (data, nil) }
        if let converted = fromHTTPCharset(data, httpCharset: httpCharset) { return (converted, nil) }
        var invalid = 0
        var multibyte = 0
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            var index = 0
            let count = raw.count
            while index < count {
                // Eight ASCII bytes at a time.
                if index + 8 <= count,
                    raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
                {
                    index += 8
                    continue
                }
                let byte = raw[index]
                if byte < 0x80 {
                    index += 1
                    continue
                }
                let length = byte >= 0xF0 && byte <= 0xF4 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC2 && byte <= 0xDF ? 2 : 0
                var valid = length > 0 && index + length <= count
                if valid {
                    for offset in 1..<length where raw[index + offset] & 0xC0 != 0x80 { valid = false }
                }
                if valid {
                    multibyte += 1
                    index += length
                } else {
                    invalid += 1
                    index += 1
                }
            }
        }
        guard invalid > 0 else { return (data, nil) }
        guard multibyte == 0, let text = String(data: data, encoding: .windowsCP1252) else {
            // Real UTF-8 with a few bad bytes: each bad sequence becomes U+FFFD.
            return (Data(String(decoding: data, as: UTF8.self).utf8), nil)
        }
        return (Data(text.utf8), "the document is not the UTF-8 it claims; read it as Windows-1252")
    }

    /// The document converted to UTF-8 from the HTTP charset, when the document states no
    /// encoding of its own and the charset names another than UTF-8; otherwise `nil`.
    static func fromHTTPCharset(_ data: Data, httpCharset: String?) -> Data? {
        guard !hasDeclaredEncoding(data), let charset = httpCharset.flatMap(encoding(named:)), charset != .utf8,
            let text = String(data: data, encoding: charset)
        else { return nil }
        return Data(text.utf8)
    }

    /// A UTF-16 or UTF-32 document (known by its byte-order mark, or without one by the zero
    /// bytes around its first `<`, as XML 1.0 appendix F describes) as UTF-8, its BOM dropped
    /// and its XML declaration saying so; `nil` for any other document.
    static func wideToUTF8(_ data: Data) -> Data? {
        let head = Array(data.prefix(4))
        guard head.count >= 2 else { return nil }
        let encoding: String.Encoding
        var bom = 0
        switch head {
        case [0x00, 0x00, 0xFE, 0xFF]: (encoding, bom) = (.utf32BigEndian, 4)
        case [0xFF, 0xFE, 0x00, 0x00]: (encoding, bom) = (.utf32LittleEndian, 4)
        case [0x00, 0x00, 0x00, 0x3C]: encoding = .utf32BigEndian
        case [0x3C, 0x00, 0x00, 0x00]: encoding = .utf32LittleEndian
        case [0x00, 0x3C, 0x00, 0x3F]: encoding = .utf16BigEndian
        case [0x3C, 0x00, 0x3F, 0x00]: encoding = .utf16LittleEndian
        default:
            if head.starts(with: [0xFE, 0xFF]) {
                (encoding, bom) = (.utf16BigEndian, 2)
            } else if head.starts(with: [0xFF, 0xFE]) {
                (encoding, bom) = (.utf16LittleEndian, 2)
            } else {
                return nil
            }
        }
        let body = data.dropFirst(bom)
        // A document cut mid-character loses that character, not the whole text.
        let unit = encoding == .utf32BigEndian || encoding == .utf32LittleEndian ? 4 : 2
        let whole = body.prefix(body.count - body.count % unit)
        guard let text = String(data: whole, encoding: encoding) else { return nil }
        return replacingDeclaredEncoding(in: Data(text.utf8), with: "utf-8")
    }

    /// `data` with its XML declaration's `encoding` value replaced by `name` (unchanged when it
    /// declares none).
    static func replacingDeclaredEncoding(in data: Data, with name: String) -> Data {
        let prolog = Array(data.prefix(200))
        let lowered = prolog.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        guard lowered.starts(with: Array("<?xml".utf8)), let end = firstIndex(of: "?>", in: lowered[...]),
            let attribute = firstIndex(of: "encoding", in: lowered[..<end]),
            let open = lowered[(attribute + 8)..<end].firstIndex(where: { $0 == 0x22 || $0 == 0x27 }),
            let close = lowered[(open + 1)..<end].firstIndex(of: lowered[open])
        else { return data }
        var result = Data(prolog[...open])
        result.append(contentsOf: name.utf8)
        result.append(contentsOf: data.dropFirst(close))
        return result
    }

    /// The encodings an HTTP charset commonly names.
    static func encoding(named name: String) -> String.Encoding? {
        switch name.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "\"' ")) {
        case "utf-8", "utf8": .utf8
        case "iso-8859-1", "latin1", "iso8859-1", "l1": .isoLatin1
        case "windows-1252", "cp1252": .windowsCP1252
        case "us-ascii", "ascii": .ascii
        case "iso-8859-2", "latin2": .isoLatin2
        case "utf-16": .utf16
        default: nil
        }
    }

    /// Whether the document states its encoding itself, by a BOM or in its XML declaration.
    private static func hasDeclaredEncoding(_ data: Data) -> Bool {
        if data.starts(with: [0xEF, 0xBB, 0xBF]) || data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF]) {
            return true
        }
        return declaredEncoding(data) != nil
    }

    /// Whether the XML declaration names UTF-8, or no encoding (a UTF-16 BOM means neither).
    static func declaresUTF8OrNothing(_ data: Data) -> Bool {
        if data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF]) { return false }
        guard let value = declaredEncoding(data) else { return true }
        return value.starts(with: Array("utf-8".utf8)) || value.starts(with: Array("utf8".utf8))
    }

    /// The lower-cased value of the XML declaration's `encoding`, from where it starts.
    private static func declaredEncoding(_ data: Data) -> ArraySlice<UInt8>? {
        var prolog = Array(data.prefix(200)).map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        if prolog.starts(with: [0xEF, 0xBB, 0xBF]) { prolog.removeFirst(3) }
        guard prolog.starts(with: Array("<?xml".utf8)), let end = firstIndex(of: "?>", in: prolog[...]),
            let encoding = firstIndex(of: "encoding", in: prolog[..<end])
        else { return nil }
        return prolog[(encoding + 8)..<end].drop {
            $0 == 0x20 || $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "'")
        }
    }

    private static func firstIndex(of marker: String, in bytes: ArraySlice<UInt8>) -> Int? {
        let pattern = Array(marker.utf8)
        guard bytes.count >= pattern.count else { return nil }
        for index in bytes.startIndex...(bytes.endIndex - pattern.count)
        where bytes[index..<(index + pattern.count)].elementsEqual(pattern) {
            return index
        }
        return nil
    }
}
