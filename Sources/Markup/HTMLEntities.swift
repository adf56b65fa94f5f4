/// Decodes the XML five, numeric references and the HTML named entities feeds commonly use.
package enum HTMLEntities {
    package static let named: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}", "copy": "©", "reg": "®",
        "trade": "™", "hellip": "…", "mdash": "—", "ndash": "–", "lsquo": "‘", "rsquo": "’", "ldquo": "“",
        "rdquo": "”", "laquo": "«", "raquo": "»", "bull": "•", "middot": "·", "deg": "°", "euro": "€", "pound": "£",
        "yen": "¥", "cent": "¢", "sect": "§", "para": "¶", "times": "×", "divide": "÷", "eacute": "é",
        "egrave": "è", "ecirc": "ê", "aacute": "á", "agrave": "à", "acirc": "â", "auml": "ä", "ouml": "ö",
        "uuml": "ü", "Auml": "Ä", "Ouml": "Ö", "Uuml": "Ü", "szlig": "ß", "ccedil": "ç", "ntilde": "ñ",
        "oacute": "ó", "iacute": "í", "uacute": "ú", "Eacute": "É", "shy": "\u{AD}", "thinsp": "\u{2009}",
        "ensp": "\u{2002}", "emsp": "\u{2003}", "zwj": "\u{200D}", "zwnj": "\u{200C}", "iuml": "ï",
    ]

    /// `text` with every entity it recognises decoded; unknown ones are left as they are.
    package static func decode(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        var source = text
        return source.withUTF8 { bytes -> String in
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count)
            var index = 0
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "&"), let (scalar, length) = entity(in: bytes, at: index) {
                    for byte in scalar.utf8 { output.append(byte) }
                    index += length
                } else {
                    output.append(bytes[index])
                    index += 1
                }
            }
            return String(decoding: output, as: UTF8.self)
        }
    }

    /// The entity starting at `index` (an `&`) and its length including `;`, if recognised.
    package static func entity(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (Unicode.Scalar, Int)? {
        var end = index + 1
        while end < bytes.count, end - index <= 32, bytes[end] != UInt8(ascii: ";"), bytes[end] != UInt8(ascii: "&"),
            bytes[end] > 0x20
        {
            end += 1
        }
        guard end < bytes.count, bytes[end] == UInt8(ascii: ";"), end > index + 1 else { return nil }
        let name = UnsafeBufferPointer(rebasing: bytes[(index + 1)..<end])
        let scalar: Unicode.Scalar?
        if name[0] == UInt8(ascii: "#") {
            scalar = numeric(UnsafeBufferPointer(rebasing: name.dropFirst())).flatMap {
                Unicode.Scalar(codePoint(referencedBy: $0))
            }
        } else {
            scalar = common(name) ?? named[String(decoding: name, as: UTF8.self)]?.unicodeScalars.first
        }
        return scalar.map { ($0, end - index + 1) }
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
