import Foundation

/// Decodes the XML five, numeric references and every named character reference of HTML5.
package enum HTMLEntities {
    /// What the named character reference `name` (without `&` and `;`) stands for, if HTML5 has
    /// it (`eacute`, `rarr`, `Aring`, `NotEqualTilde` …): one code point, or two for a few.
    /// A binary search of `records` where they lie in the binary: nothing is built first.
    package static func value(named name: UnsafeBufferPointer<UInt8>) -> (Unicode.Scalar, Unicode.Scalar?)? {
        guard let query = name.baseAddress, !name.isEmpty, name.count < nameWidth else { return nil }
        let start = records.utf8Start
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            let record = start + middle * recordStride
            var order = memcmp(query, record, name.count)
            // Equal so far: the record's name is longer unless padding follows.
            if order == 0, record[name.count] != padding { order = -1 }
            if order == 0 {
                guard let first = Unicode.Scalar(hexadecimal(record + nameWidth)) else { return nil }
                let second = hexadecimal(record + nameWidth + 6)
                return (first, second == 0 ? nil : Unicode.Scalar(second))
            }
            if order < 0 { high = middle } else { low = middle + 1 }
        }
        return nil
    }

    /// What `name` stands for, as text.
    package static func value(named name: String) -> String? {
        var name = name
        return name.withUTF8 { bytes in
            value(named: bytes).map { first, second in
                var text = String(first)
                if let second { text.unicodeScalars.append(second) }
                return text
            }
        }
    }

    /// How many names `records` holds.
    package static var count: Int { (records.utf8CodeUnitCount + 1) / recordStride }

    /// A record's name field, the byte that pads it, and a record with its line break.
    private static let nameWidth = 32
    private static let padding = UInt8(ascii: ".")
    private static let recordStride = nameWidth + 12 + 1

    private static func hexadecimal(_ digits: UnsafePointer<UInt8>) -> UInt32 {
        var value: UInt32 = 0
        for offset in 0..<6 {
            let byte = digits[offset]
            value =
                value << 4
                | UInt32(byte <= UInt8(ascii: "9") ? byte - UInt8(ascii: "0") : byte - UInt8(ascii: "A") + 10)
        }
        return value
    }

    /// `text` with every entity it recognises decoded; unknown ones are left as they are.
    package static func decode(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        var source = text
        return source.withUTF8 { bytes -> String in
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count)
            var index = 0
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "&"), let (scalar, second, length) = entity(in: bytes, at: index) {
                    for byte in scalar.utf8 { output.append(byte) }
                    if let second { for byte in second.utf8 { output.append(byte) } }
                    index += length
                } else {
                    output.append(bytes[index])
                    index += 1
                }
            }
            return String(decoding: output, as: UTF8.self)
        }
    }

    /// The entity starting at `index` (an `&`), if recognised: what it stands for (one code
    /// point, or two for a few HTML5 names such as `&NotEqualTilde;`) and its length including `;`.
    package static func entity(
        in bytes: UnsafeBufferPointer<UInt8>, at index: Int
    ) -> (Unicode.Scalar, second: Unicode.Scalar?, length: Int)? {
        var end = index + 1
        while end < bytes.count, end - index <= 32, bytes[end] != UInt8(ascii: ";"), bytes[end] != UInt8(ascii: "&"),
            bytes[end] > 0x20
        {
            end += 1
        }
        guard end < bytes.count, bytes[end] == UInt8(ascii: ";"), end > index + 1 else { return nil }
        let name = UnsafeBufferPointer(rebasing: bytes[(index + 1)..<end])
        let length = end - index + 1
        if name[0] == UInt8(ascii: "#") {
            return numeric(UnsafeBufferPointer(rebasing: name.dropFirst())).flatMap {
                Unicode.Scalar(codePoint(referencedBy: $0))
            }.map { ($0, nil, length) }
        }
        if let scalar = common(name) { return (scalar, nil, length) }
        return value(named: name).map { ($0, $1, length) }
    }

    /// The code point a numeric reference to `value` stands for, as HTML5 reads it: 128–159
    /// are Windows-1252 (`&#150;` is an en dash, `&#128;` the euro sign), and a code point XML
    /// forbids (NUL and the other C0 controls but tab, line feed and carriage return;
    /// surrogates; U+FFFE, U+FFFF; past U+10FFFF) is U+FFFD.
    package static func codePoint(referencedBy value: UInt32) -> UInt32 {
        switch value {
        case 0x09, 0x0A, 0x0D, 0x20...0x7F, 0xA0...0xD7FF, 0xE000...0xFFFD, 0x1_0000...0x10_FFFF: value
        case 0x80...0x9F: Windows1252.codePoint(value)
        default: 0xFFFD
        }
    }

    /// The value of a numeric reference's digits (`8217`, `x2019`), if they are one; values
    /// past U+10FFFF saturate there.
    private static func numeric(_ digits: UnsafeBufferPointer<UInt8>) -> UInt32? {
        let isHex = digits.first.map { $0 | 0x20 == UInt8(ascii: "x") } ?? false
        let start = isHex ? 1 : 0
        guard digits.count > start else { return nil }
        var value: UInt32 = 0
        for byte in digits[start...] {
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where isHex: digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F") where isHex: digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
            value = min(value * (isHex ? 16 : 10) + digit, 0x11_0000)
        }
        return value
    }

    /// The entities escaped HTML is full of, recognised without a dictionary lookup.
    private static func common(_ name: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar? {
        switch name.count {
        case 2:
            if name[1] == UInt8(ascii: "t") {
                if name[0] == UInt8(ascii: "l") { return "<" }
                if name[0] == UInt8(ascii: "g") { return ">" }
            }
        case 3:
            if name[0] == UInt8(ascii: "a"), name[1] == UInt8(ascii: "m"), name[2] == UInt8(ascii: "p") { return "&" }
        case 4:
            if name[0] == UInt8(ascii: "q"), name[1] == UInt8(ascii: "u"), name[2] == UInt8(ascii: "o"),
                name[3] == UInt8(ascii: "t")
            {
                return "\""
            }
            if name[0] == UInt8(ascii: "n"), name[1] == UInt8(ascii: "b"), name[2] == UInt8(ascii: "s"),
                name[3] == UInt8(ascii: "p")
            {
                return "\u{A0}"
            }
        default:
            break
        }
        return nil
    }
}
