import Foundation
import Markup

/// Recovers documents whose bytes are not what they claim: the most common lie, Windows-1252
/// claiming UTF-8 (or saying nothing, which means UTF-8); a byte-order mark contradicted by the
/// XML declaration; stray NUL bytes.
///
/// When the bytes are not valid UTF-8 and the runs of invalid bytes outnumber the valid
/// multi-byte sequences, the document as a whole is evidently Windows-1252: it is read as such and re-encoded
/// as UTF-8 (a Windows-1252 text rarely contains a valid UTF-8 sequence, `É”` being one). A
/// document with more valid UTF-8 than bad bytes keeps its UTF-8, each bad sequence replaced by
/// U+FFFD. Either way a warning says which was done.
enum EncodingRepair {
    /// The document as UTF-8, and a warning when it had to be re-read.
    ///
    /// The order of authority is the BOM, then the XML declaration, then `httpCharset` (the
    /// `charset` of the response's `Content-Type`), then UTF-8.
    static func repair(_ data: Data, httpCharset: String? = nil) -> (Data, String?) {
        guard declaresUTF8OrNothing(data) else { return (data, nil) }
        if let converted = fromHTTPCharset(data, httpCharset: httpCharset) { return (converted, nil) }
        let (invalid, runs, multibyte) = utf8Census(data)
        guard invalid > 0 else { return (data, nil) }
        guard runs > multibyte else {
            // Real UTF-8 with a few bad bytes: each bad sequence becomes U+FFFD.
            return (
                Data(String(decoding: data, as: UTF8.self).utf8),
                "the document is not valid UTF-8 (\(invalid) stray bytes); replaced them with U+FFFD"
            )
        }
        return (Windows1252.decode(data), "the document is not the UTF-8 it claims; read it as Windows-1252")
    }

    /// How many bytes of `data` belong to no valid UTF-8 sequence, in how many runs, and how many
    /// valid multi-byte sequences it has (overlong forms, surrogates and code points past
    /// U+10FFFF are invalid). A Windows-1252 letter is a run of one; an encoded surrogate, a run
    /// of three.
    static func utf8Census(_ data: Data) -> (invalid: Int, runs: Int, multibyte: Int) {
        var invalid = 0
        var runs = 0
        var multibyte = 0
        var runEnd = -1  // just past the last invalid byte
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
                let length = sequenceLength(raw, at: index)
                if length > 0 {
                    multibyte += 1
                    index += length
                } else {
                    if index != runEnd { runs += 1 }
                    invalid += 1
                    index += 1
                    runEnd = index
                }
            }
        }
        return (invalid, runs, multibyte)
    }

    /// The length of the valid multi-byte UTF-8 sequence at `index`, or 0 (Unicode table 3-7).
    private static func sequenceLength(_ raw: UnsafeRawBufferPointer, at index: Int) -> Int {
        let lead = raw[index]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: (length, low) = (3, 0xA0)
        case 0xE1...0xEC, 0xEE, 0xEF: length = 3
        case 0xED: (length, high) = (3, 0x9F)
        case 0xF0: (length, low) = (4, 0x90)
        case 0xF1...0xF3: length = 4
        case 0xF4: (length, high) = (4, 0x8F)
        default: return 0
        }
        guard index + length <= raw.count, raw[index + 1] >= low, raw[index + 1] <= high else { return 0 }
        for offset in 2..<length where raw[index + offset] & 0xC0 != 0x80 { return 0 }
        return length
    }

    /// `data` without its NUL bytes, and how many there were; `nil` when it has none. XML
    /// forbids NUL anywhere and JSON outside escapes; a stray one is dropped, not fatal.
    static func droppingNULs(_ data: Data) -> (Data, String)? {
        let hasNUL = data.withUnsafeBytes { raw in raw.baseAddress.map { memchr($0, 0, raw.count) != nil } ?? false }
        guard hasNUL else { return nil }
        var output = data
        output.removeAll { $0 == 0 }
        let count = data.count - output.count
        return (output, "the document contains \(count) NUL byte\(count == 1 ? "" : "s"); dropped")
    }

    /// The document converted to UTF-8 from the HTTP charset, when the document states no
    /// encoding of its own and the charset names another than UTF-8; otherwise `nil`.
    static func fromHTTPCharset(_ data: Data, httpCharset: String?) -> Data? {
        guard !hasDeclaredEncoding(data), let charset = httpCharset.flatMap(encoding(named:)), charset != .utf8,
            let text = String(data: data, encoding: charset)
        else { return nil }
        return Data(text.utf8)
    }

    /// The document in the encoding its byte-order mark names, whatever its XML declaration
    /// says, with a warning when the declaration names another: UTF-16 and UTF-32 documents
    /// converted to UTF-8 (`wideToUTF8`), a UTF-8 one with its declaration corrected. libxml2
    /// 2.9 lets `encoding="ISO-8859-1"` win over a UTF-8 BOM, turning `Café` into `CafÃ©`.
    static func honouringByteOrderMark(_ data: Data) -> (Data, String?) {
        let head = Array(data.prefix(4))
        let bom: String
        let agreeing: [String]
        if head.starts(with: [0xEF, 0xBB, 0xBF]) {
            (bom, agreeing) = ("UTF-8", ["utf-8", "utf8"])
        } else if head.starts(with: [0x00, 0x00, 0xFE, 0xFF]) || head.starts(with: [0xFF, 0xFE, 0x00, 0x00]) {
            (bom, agreeing) = ("UTF-32", ["utf-32", "utf-32le", "utf-32be", "ucs-4", "iso-10646-ucs-4"])
        } else if head.starts(with: [0xFE, 0xFF]) || head.starts(with: [0xFF, 0xFE]) {
            (bom, agreeing) = ("UTF-16", ["utf-16", "utf-16le", "utf-16be", "ucs-2", "iso-10646-ucs-2", "unicode"])
        } else {
            return (wideToUTF8(data) ?? data, nil)
        }
        guard bom != "UTF-8" else {
            guard let declared = declaredName(data), !agreeing.contains(declared.lowercased()) else {
                return (data, nil)
            }
            return (replacingDeclaredEncoding(in: Data(data.dropFirst(3)), with: "utf-8"), contradiction(bom, declared))
        }
        guard let converted = decodingWide(data) else { return (data, nil) }
        let warning = declaredName(converted).flatMap {
            agreeing.contains($0.lowercased()) ? nil : contradiction(bom, $0)
        }
        return (replacingDeclaredEncoding(in: converted, with: "utf-8"), warning)
    }

    /// The XML declaration's `encoding` value as written (`ISO-8859-1`), after any UTF-8 BOM.
    private static func declaredName(_ data: Data) -> String? {
        var prolog = Array(data.prefix(200))
        if prolog.starts(with: [0xEF, 0xBB, 0xBF]) { prolog.removeFirst(3) }
        let lowered = prolog.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        guard lowered.starts(with: Array("<?xml".utf8)), let end = firstIndex(of: "?>", in: lowered[...]),
            let attribute = firstIndex(of: "encoding", in: lowered[..<end]),
            let open = lowered[(attribute + 8)..<end].firstIndex(where: { $0 == 0x22 || $0 == 0x27 }),
            let close = lowered[(open + 1)..<end].firstIndex(of: lowered[open])
        else { return nil }
        return String(decoding: prolog[(open + 1)..<close], as: UTF8.self)
    }

    private static func contradiction(_ bom: String, _ declared: String) -> String {
        "the byte-order mark says \(bom) but the XML declaration says \(declared); read it as \(bom)"
    }

    /// A UTF-16 or UTF-32 document (known by its byte-order mark, or without one by the zero
    /// bytes around its first `<`, as XML 1.0 appendix F describes) as UTF-8, its BOM dropped
    /// and its XML declaration saying so; `nil` for any other document.
    static func wideToUTF8(_ data: Data) -> Data? {
        decodingWide(data).map { replacingDeclaredEncoding(in: $0, with: "utf-8") }
    }

    /// A UTF-16 or UTF-32 document as UTF-8, its BOM dropped, its declaration as written.
    private static func decodingWide(_ data: Data) -> Data? {
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
        return Data(text.utf8)
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
