/// Escapes text for XML and HTML: `&`, `<`, `>` and `"`.
package enum MarkupEscaping {
    /// `text` with the four markup characters escaped; returned as is when it has none. It goes
    /// by Unicode scalar: a `<` that shares a Character with a combining mark is still a `<`.
    package static func escape(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard scalars.contains(where: { $0 == "&" || $0 == "<" || $0 == ">" || $0 == "\"" }) else { return text }
        var output = ""
        for scalar in scalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}

extension MarkupEscaping {
    /// Appends `bytes` (UTF-8) to `output` with the four markup characters escaped.
    package static func escape(_ bytes: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
        var runStart = 0
        for index in 0..<bytes.count {
            let replacement: StaticString
            switch bytes[index] {
            case UInt8(ascii: "&"): replacement = "&amp;"
            case UInt8(ascii: "<"): replacement = "&lt;"
            case UInt8(ascii: ">"): replacement = "&gt;"
            case UInt8(ascii: "\""): replacement = "&quot;"
            default: continue
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            output.append(
                contentsOf: UnsafeBufferPointer(start: replacement.utf8Start, count: replacement.utf8CodeUnitCount))
            runStart = index + 1
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
    }

    /// Whether the NUL-terminated element name is an HTML void element (`br`, `img` …, see
    /// `HTMLElements.void`), which has no end tag.
    package static func isVoidElement(_ name: UnsafePointer<UInt8>) -> Bool {
        var packed = PackedName()
        var pointer = name
        while pointer.pointee != 0 {
            // No void element's name is this long.
            guard name.distance(to: pointer) < 8 else { return false }
            packed.append(pointer.pointee)
            pointer += 1
        }
        return HTMLElements.void.contains(packed)
    }
}
