import Foundation

/// Rewrites the HTML named entities feeds use but XML does not define (`&nbsp;`, `&eacute;`,
/// `&hellip;` …) as numeric references before the XML parser sees them; the parser would
/// otherwise drop them, and the text around them. An unknown name (`&bogus;`) becomes literal
/// text (`&amp;bogus;`) unless the document declares entities of its own. CDATA sections are
/// left alone. Documents without such references are returned as they are, uncopied.
enum HTMLEntityPreprocessor {
    private static let xmlEntities: Set<String> = ["amp", "lt", "gt", "quot", "apos"]

    static func process(_ data: Data) -> Data {
        // Entity declarations live in the DOCTYPE, at the start of the document.
        let declaresEntities = data.prefix(65_536).range(of: Data("<!ENTITY".utf8)) != nil
        return data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Data in
            let bytes = raw.bindMemory(to: UInt8.self)
            var output: [UInt8]?
            var copiedUpTo = 0
            var index = 0
            let count = bytes.count
            while index < count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "<"), index + 8 < count, matches(bytes, at: index, "<![CDATA[") {
                    // Skip to the end of the CDATA section.
                    var end = index + 9
                    while end + 2 < count, !(bytes[end] == 0x5D && bytes[end + 1] == 0x5D && bytes[end + 2] == 0x3E) {
                        end += 1
                    }
                    index = end + 3
                    continue
                }
                guard byte == UInt8(ascii: "&") else {
                    index += 1
                    continue
                }
                var end = index + 1
                while end < count, end - index <= 32, isNameByte(bytes[end]) { end += 1 }
                guard end < count, bytes[end] == UInt8(ascii: ";"), end > index + 1,
                    bytes[index + 1] != UInt8(ascii: "#")
                else {
                    index += 1
                    continue
                }
                let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[(index + 1)..<end]), as: UTF8.self)
                if xmlEntities.contains(name) {
                    index = end + 1
                    continue
                }
                let replacement: String
                if let value = HTMLEntities.named[name]?.unicodeScalars.first?.value {
                    replacement = "&#\(value);"
                } else if !declaresEntities {
                    replacement = "&amp;\(name);"
                } else {
                    index = end + 1
                    continue
                }
                if output == nil {
                    output = []
                    output?.reserveCapacity(count + 64)
                }
                output?.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copiedUpTo..<index]))
                output?.append(contentsOf: Array(replacement.utf8))
                copiedUpTo = end + 1
                index = end + 1
            }
            guard var result = output else { return data }
            result.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copiedUpTo..<count]))
            return Data(result)
        }
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
    }

    private static func matches(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, _ text: StaticString) -> Bool {
        let pattern = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        guard index + pattern.count <= bytes.count else { return false }
        for offset in 0..<pattern.count where bytes[index + offset] != pattern[offset] { return false }
        return true
    }
}
